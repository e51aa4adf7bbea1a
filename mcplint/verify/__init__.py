"""The truth lab: run a per-keyword probe suite against real constrained decoders and
compare what they do with what mcplint's profiles claim."""
