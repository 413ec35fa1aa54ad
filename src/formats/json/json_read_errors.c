/* The typed JSON reader: error reports (docs/json.md, Reading).
 *
 * Every error names the byte offset where the input went wrong, its line and
 * column (1-based; lines end at LF, columns count bytes) and the JSON Pointer
 * path of the value being read. Nothing here runs on the success path: line,
 * column and path are all worked out after the failure, the path from the
 * reader's stack of open frames. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/error_record.h"
#include "formats/json/json_read_internal.h"

bool sv__json_jr_fail(jr *r, const char *at, sv_status status, const char *fmt, ...)
{
    sv_error *err = r->err;
    if (err->status != SV_OK) return false;
    if (at >= r->end) {
        at = r->end;
        if (status == SV_ERR_SYNTAX || status == SV_ERR_TYPE) status = SV_ERR_TRUNCATED;
    }
    char msg[SV_ERROR_MSG_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    sv__core_error_record(err, status, "json", (uint64_t)(at - r->text), "%s", msg);
    uint64_t line = 1;
    const char *ls = r->text, *p = r->text;
    while (p < at && (p = memchr(p, '\n', (size_t)(at - p))) != NULL) {
        line++;
        ls = ++p;
    }
    uint64_t col = (uint64_t)(at - ls) + 1;
    err->line = line > UINT32_MAX ? UINT32_MAX : (uint32_t)line;
    err->column = col > UINT32_MAX ? UINT32_MAX : (uint32_t)col;
    return false;
}

bool sv__json_jr_fail_alloc(jr *r, const char *at)
{
    sv_status st = sv_doc_status(r->doc);
    if (st == SV_ERR_LIMIT)
        return sv__json_jr_fail(r, at, st, "the document would allocate more than %llu bytes",
                                (unsigned long long)r->lim.max_alloc);
    return sv__json_jr_fail(r, at, SV_ERR_NOMEM, "out of memory");
}

void sv__json_jr_bad_literal(jr *r, const char *p)
{
    const char *word = *p == 't' ? "true" : *p == 'f' ? "false" : "null";
    size_t n = strlen(word), avail = (size_t)(r->end - p), i = 0;
    while (i < n && i < avail && p[i] == word[i]) i++;
    sv__json_jr_fail(r, p + i, SV_ERR_SYNTAX, "invalid literal (expected '%s')", word);
}

void sv__json_jr_bad_value(jr *r, const char *p)
{
    if (p >= r->end) {
        sv__json_jr_fail(r, p, SV_ERR_SYNTAX, "expected a value");
        return;
    }
    unsigned char c = (unsigned char)*p;
    if (c == ']' || c == '}') {
        const char *b = p;
        while (b > r->text && (b[-1] == ' ' || b[-1] == '\t' || b[-1] == '\n' || b[-1] == '\r'))
            b--;
        if (b > r->text && b[-1] == ',')
            sv__json_jr_fail(r, p, SV_ERR_SYNTAX, "trailing comma before '%c'", c);
        else
            sv__json_jr_fail(r, p, SV_ERR_SYNTAX, "expected a value before '%c'", c);
    } else if (p == r->text && r->end - p >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0) {
        sv__json_jr_fail(r, p, SV_ERR_SYNTAX,
                         "a byte order mark is not allowed (RFC 8259 section 8.1)");
    } else if (c > 0x20 && c < 0x7F) {
        sv__json_jr_fail(r, p, SV_ERR_SYNTAX, "expected a value, not '%c'", c);
    } else {
        sv__json_jr_fail(r, p, SV_ERR_SYNTAX, "expected a value, not byte 0x%02x", c);
    }
}

/* ---- paths ------------------------------------------------------------------------------ */

static void path_key_text(sv_error *err, const sv_value *key, bool plain)
{
    /* The text had "$$x" for the key "$x". */
    if (!plain && key->len && key->as.str[0] == '$') {
        char buf[SV_ERROR_PATH_MAX];
        size_t n = key->len < sizeof buf - 1 ? key->len : sizeof buf - 1;
        buf[0] = '$';
        memcpy(buf + 1, key->as.str, n);
        sv_error_path_key(err, buf, n + 1);
    } else {
        sv_error_path_key(err, key->as.str, key->len);
    }
}

static void path_literal(sv_error *err, const char *a, const char *b)
{
    char buf[64];
    int n = snprintf(buf, sizeof buf, "%s%s", a, b);
    sv_error_path_key(err, buf, n > 0 && (size_t)n < sizeof buf ? (size_t)n : 0);
}

void sv__json_jr_build_path(jr *r, bool open)
{
    sv_error *err = r->err;
    size_t next = r->vtop; /* where the innermost frame's pending values end */
    for (size_t i = r->ftop; i-- > 0;) {
        const jr_frame *f = &r->fs[i];
        bool in_item = i + 1 == r->ftop ? open : true; /* an outer frame holds a child */
        switch (f->type) {
        case JR_FR_ARRAY:
            /* the outermost array's items handed on already count too */
            if (in_item) sv_error_path_index(err, next - f->base + (i == 0 ? r->shed : 0));
            break;
        case JR_FR_PAIR:
            if (in_item) sv_error_path_index(err, next - f->base);
            break;
        case JR_FR_PAIRS:
            if (in_item) sv_error_path_index(err, (next - f->base) / 2);
            break;
        case JR_FR_MAP:
        case JR_FR_OBJMETA:
            if (f->sub == JR_MK_OBJECT && next == f->mark)
                path_literal(err, "$class", "");
            else if (f->type == JR_FR_OBJMETA)
                path_literal(err, "$meta", "");
            else if (next > f->base && ((next - f->base) & 1))
                path_key_text(err, &r->vs[next - 1], r->plain); /* a key waiting for its value */
            break;
        case JR_FR_FORM:
            if (f->sub == JF_TAG) {
                if (in_item) path_literal(err, "$", sv_tag_name((sv_tag)f->tag));
            } else if (f->phase == 0 && in_item) {
                path_literal(err, f->sub == JF_ARRAY ? "$array" : "$map", "");
            } else if (f->phase == 2) {
                path_literal(err, "$meta", "");
            }
            break;
        }
        next = f->mark;
    }
}
