// Minimal definitions of the few helpers the converter and the grammar parser link against
// (string helpers from common.cpp; ggml_abort; the vocabulary, which a grammar without tokens never needs).
#include "common.h"
#include "llama-vocab.h"
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
std::string string_join(const std::vector<std::string> & values, const std::string & sep) {
    std::string out;
    for (size_t i = 0; i < values.size(); i++) { if (i) out += sep; out += values[i]; }
    return out;
}
std::vector<std::string> string_split(const std::string & str, const std::string & delim) {
    std::vector<std::string> parts; size_t start = 0, end;
    while ((end = str.find(delim, start)) != std::string::npos) { parts.push_back(str.substr(start, end - start)); start = end + delim.size(); }
    parts.push_back(str.substr(start));
    return parts;
}
std::string string_repeat(const std::string & str, size_t n) {
    std::string out; out.reserve(str.size() * n);
    for (size_t i = 0; i < n; i++) out += str;
    return out;
}
extern "C" void ggml_abort(const char * file, int line, const char * fmt, ...) {
    fprintf(stderr, "abort at %s:%d\n", file, line); std::abort();
}
int32_t llama_vocab::tokenize(const char *, int32_t, llama_token *, int32_t, bool, bool) const { return -1; }
#include "llama-impl.h"
void llama_log_internal(ggml_log_level, const char *, ...) {}
