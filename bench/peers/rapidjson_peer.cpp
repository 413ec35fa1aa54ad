/* serval-bench: the RapidJSON peer (Debian's rapidjson-dev, header-only).
 *
 * Parsing uses kParseFullPrecisionFlag: without it RapidJSON may round a
 * long decimal to a neighbouring double, while serval and jansson round
 * correctly, and the comparison would not be like for like. The text is
 * parsed through the NUL-terminated entry point, RapidJSON's fastest (see
 * the comment on Parse(const std::basic_string&) in document.h); the caller
 * guarantees text[len] == '\0' and no NUL inside, so the bytes are the same. */
#include <cstdio>
#include <new>

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "peers.h"

using rapidjson::Document;
using rapidjson::StringBuffer;

extern "C" void *bench_rj_parse(const char *text, size_t len, size_t *items, char *err,
                                size_t err_size)
{
    Document *doc = new (std::nothrow) Document();
    if (!doc) {
        std::snprintf(err, err_size, "out of memory");
        return nullptr;
    }
    if (text[len] != '\0') {
        std::snprintf(err, err_size, "text is not NUL-terminated");
        delete doc;
        return nullptr;
    }
    doc->Parse<rapidjson::kParseFullPrecisionFlag>(text);
    if (doc->HasParseError()) {
        std::snprintf(err, err_size, "%s at byte %zu",
                      rapidjson::GetParseError_En(doc->GetParseError()), doc->GetErrorOffset());
        delete doc;
        return nullptr;
    }
    *items = doc->IsArray() ? doc->Size() : 0;
    return doc;
}

extern "C" void *bench_rj_write(const void *doc, size_t *size)
{
    StringBuffer *out = new (std::nothrow) StringBuffer();
    if (!out) return nullptr;
    rapidjson::Writer<StringBuffer> writer(*out);
    if (!static_cast<const Document *>(doc)->Accept(writer)) {
        delete out;
        return nullptr;
    }
    *size = out->GetSize();
    return out;
}

extern "C" void *bench_rj_text_new(void)
{
    return new (std::nothrow) StringBuffer();
}

/* Clear() empties the buffer and keeps its memory (its internal stack keeps
 * its capacity), so a second write touches no fresh page. */
extern "C" bool bench_rj_write_into(const void *doc, void *buffer, size_t *size)
{
    StringBuffer *out = static_cast<StringBuffer *>(buffer);
    out->Clear();
    rapidjson::Writer<StringBuffer> writer(*out);
    if (!static_cast<const Document *>(doc)->Accept(writer)) return false;
    *size = out->GetSize();
    return true;
}

extern "C" void bench_rj_free_text(void *buffer)
{
    delete static_cast<StringBuffer *>(buffer);
}

extern "C" void bench_rj_free(void *doc)
{
    delete static_cast<Document *>(doc);
}

extern "C" const char *bench_rj_version(void)
{
    return RAPIDJSON_VERSION_STRING;
}
