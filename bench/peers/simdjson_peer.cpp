/* serval-bench: the simdjson peer (Debian's libsimdjson-dev), DOM API.
 *
 * simdjson reads SIMDJSON_PADDING bytes past the end of its input, so the
 * text is copied once into a padded_string in setup, untimed; the timed
 * step is dom::parser::parse of those bytes. Each step uses a new parser,
 * as serval makes a new document and RapidJSON a new Document per parse:
 * every implementation allocates and first touches its tree's memory in
 * the step. (A reused parser keeps its buffers and skips that; simdjson's
 * own benchmarks measure that way.) */
#include <cstdio>
#include <new>

#include <simdjson.h>

#include "peers.h"

namespace {
struct sj_doc {
    simdjson::dom::parser parser;
    simdjson::dom::element root;
};
} // namespace

extern "C" void *bench_sj_pad(const char *text, size_t len)
{
    return new (std::nothrow) simdjson::padded_string(text, len);
}

extern "C" void bench_sj_free_pad(void *padded)
{
    delete static_cast<simdjson::padded_string *>(padded);
}

extern "C" void *bench_sj_parse(const void *padded, size_t *items, char *err, size_t err_size)
{
    sj_doc *doc = new (std::nothrow) sj_doc();
    if (!doc) {
        std::snprintf(err, err_size, "out of memory");
        return nullptr;
    }
    const auto &text = *static_cast<const simdjson::padded_string *>(padded);
    simdjson::error_code code = doc->parser.parse(text).get(doc->root);
    if (code != simdjson::SUCCESS) {
        std::snprintf(err, err_size, "%s", simdjson::error_message(code));
        delete doc;
        return nullptr;
    }
    simdjson::dom::array array;
    *items = doc->root.get_array().get(array) == simdjson::SUCCESS ? array.size() : 0;
    return doc;
}

extern "C" void bench_sj_free(void *doc)
{
    delete static_cast<sj_doc *>(doc);
}

/* The version and the kernel simdjson picked for this CPU (haswell,
 * westmere, ...): the speed depends on both. */
extern "C" const char *bench_sj_version(void)
{
    static char text[96];
    std::snprintf(text, sizeof text, "%s (%s)", SIMDJSON_STRINGIFY(SIMDJSON_VERSION),
                  simdjson::get_active_implementation()->name().c_str());
    return text;
}
