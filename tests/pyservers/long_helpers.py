"""A function long_descriptions.py registers as a tool with a description of its own."""


def lookup(key: str) -> str:
    """Look one key up."""
    return key
