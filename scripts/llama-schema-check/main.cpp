// llama-schema-check: run llama.cpp's own JSON-Schema-to-grammar converter and grammar parser
// (compiled from the llama.cpp sources vendored in a llama-cpp-python sdist: 0.3.36, or an older one
// to see what older builds did) on one schema, and
// match JSON texts against the grammar it builds. No model, no vocabulary: the grammar is matched
// code point by code point.
//
// stdin:  {"schema": <JSON Schema>, "instances": ["<json text>", ...]}
// stdout: {"ok": bool, "stage": "convert" | "parse" | "match", "error": "...", "grammar": "...",
//          "accepts": [bool, ...]}
// The converter's warnings ("JSON schema conversion was incomplete: ...") go to stderr.
#include "json-schema-to-grammar.h"
#include "llama-grammar.h"

#if !__has_include("json-schema.h")
// Sources before llama.cpp 0c1e5709 (llama-cpp-python 0.3.35 and older): the converter takes
// nlohmann's ordered_json directly, and common_json does not exist yet.
#include <nlohmann/json.hpp>
using common_json = nlohmann::ordered_json;
#endif

#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#ifndef LLAMA_SCHEMA_CHECK_VERSION
#define LLAMA_SCHEMA_CHECK_VERSION "unknown"
#endif

static std::vector<uint32_t> code_points(const std::string & s) {
    std::vector<uint32_t> out;
    for (size_t i = 0; i < s.size();) {
        unsigned char c = (unsigned char) s[i];
        int n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : 4;
        uint32_t cp = n == 1 ? c : n == 2 ? (c & 0x1f) : n == 3 ? (c & 0x0f) : (c & 0x07);
        for (int k = 1; k < n && i + k < s.size(); k++) {
            cp = (cp << 6) | ((unsigned char) s[i + k] & 0x3f);
        }
        out.push_back(cp);
        i += n;
    }
    return out;
}

static bool matches(const std::string & grammar_text, const std::string & text) {
    llama_grammar * g = llama_grammar_init_impl(nullptr, grammar_text.c_str(), "root", false, nullptr, 0, nullptr, 0);
    if (g == nullptr) {
        return false;
    }
    bool ok = true;
    for (uint32_t cp : code_points(text)) {
        llama_grammar_accept(g, cp);
        if (llama_grammar_get_stacks(g).empty()) {
            ok = false;
            break;
        }
    }
    if (ok) {
        ok = false;
        for (const auto & stack : llama_grammar_get_stacks(g)) {
            if (stack.empty()) {
                ok = true;
                break;
            }
        }
    }
    llama_grammar_free_impl(g);
    return ok;
}

int main(int argc, char ** argv) {
    if (argc > 1 && std::string(argv[1]) == "--version") {
        std::cout << LLAMA_SCHEMA_CHECK_VERSION << std::endl;
        return 0;
    }
    std::stringstream ss;
    ss << std::cin.rdbuf();
    common_json request;
    std::string grammar;
    try {
        request = common_json::parse(ss.str());
        grammar = json_schema_to_grammar(request.at("schema"), true);
    } catch (const std::exception & e) {
        common_json out = {{"ok", false}, {"stage", "convert"}, {"error", e.what()}};
        std::cout << out.dump() << std::endl;
        return 0;
    }
    llama_grammar_parser parser;
    if (!parser.parse(grammar.c_str()) || parser.rules.empty()) {
        common_json out = {{"ok", false}, {"stage", "parse"}, {"error", "failed to parse grammar"}, {"grammar", grammar}};
        std::cout << out.dump() << std::endl;
        return 0;
    }
    std::string accepts = "[";  // written by hand: a list of booleans
    if (request.contains("instances")) {
        bool first = true;
        for (const auto & inst : request.at("instances")) {
            accepts += std::string(first ? "" : ",") + (matches(grammar, inst.get<std::string>()) ? "true" : "false");
            first = false;
        }
    }
    accepts += "]";
    common_json out = {{"ok", true}, {"stage", "match"}, {"grammar", grammar}};
    std::string text = out.dump();
    text.pop_back();  // the closing brace
    std::cout << text << ",\"accepts\":" << accepts << "}" << std::endl;
    return 0;
}
