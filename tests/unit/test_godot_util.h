/* Shared by the godot tests (header-only, static): reading vector files, hex, options, and running
 * a format entry of the registry with "a=b,c=d" options. */
#ifndef SV_TEST_GODOT_UTIL_H
#define SV_TEST_GODOT_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serval/serval.h"

/* "-" or "a=b,c=d" parsed into opts (its arrays live in the struct). */
typedef struct tg_opts {
    sv_options o;
    const char *names[8];
    const char *values[8];
    char buf[256];
} tg_opts;

static inline uint8_t *tg_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (n == cap) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        if (!got) break;
        n += got;
    }
    fclose(f);
    *len = n;
    return buf;
}

static inline int hexval(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static inline long tg_hex(const char *hex, uint8_t *out, size_t max)
{
    size_t n = 0;
    int hi = -1;
    for (const char *p = hex; *p; p++) {
        if (*p == ' ') continue;
        int v = hexval((unsigned char)*p);
        if (v < 0) return -1;
        if (hi < 0) {
            hi = v;
        } else {
            if (n == max) return -1;
            out[n++] = (uint8_t)(hi << 4 | v);
            hi = -1;
        }
    }
    return hi < 0 ? (long)n : -1;
}

static inline char *tg_to_hex(const uint8_t *p, size_t n)
{
    char *s = malloc(2 * n + 1);
    for (size_t i = 0; i < n; i++)
        sprintf(s + 2 * i, "%02x", p[i]);
    s[2 * n] = 0;
    return s;
}

static inline void tg_opts_parse(tg_opts *t, const char *spec)
{
    memset(t, 0, sizeof *t);
    sv_options_init(&t->o);
    t->o.names = t->names;
    t->o.values = t->values;
    if (!spec || !strcmp(spec, "-") || !*spec) return;
    snprintf(t->buf, sizeof t->buf, "%s", spec);
    char *save = NULL;
    for (char *tok = strtok_r(t->buf, ",", &save); tok && t->o.count < 8;
         tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        if (eq) *eq = 0;
        t->names[t->o.count] = tok;
        t->values[t->o.count] = eq ? eq + 1 : "";
        t->o.count++;
    }
}

static inline sv_status tg_decode(const char *fmt, const tg_opts *o, sv_doc *doc, const uint8_t *p,
                                  size_t n, sv_value *out, sv_error *err)
{
    const sv_format *f = sv_format_find(fmt);
    if (!f) return SV_ERR_NOT_FOUND;
    sv_error_clear(err);
    /* The engine ignores bytes after a raw Variant; the registry refuses
     * them unless told (docs/formats/godot.md), and these vectors are the
     * engine's reading. */
    const char *names[9], *values[9];
    sv_options with;
    sv_options_init(&with);
    size_t count = o ? o->o.count : 0;
    for (size_t i = 0; i < count; i++) {
        names[i] = o->o.names[i];
        values[i] = o->o.values[i];
    }
    names[count] = "trailing";
    values[count] = "allow";
    with.names = names;
    with.values = values;
    with.count = count + 1;
    return f->decode(doc, p, n, &with, out, err);
}

static inline sv_status tg_encode(const char *fmt, const tg_opts *o, const sv_value *v, sv_buf *out,
                                  sv_error *err)
{
    const sv_format *f = sv_format_find(fmt);
    if (!f) return SV_ERR_NOT_FOUND;
    sv_error_clear(err);
    return f->encode(v, o ? &o->o : NULL, out, err);
}

static inline char *tg_json(const sv_value *v)
{
    sv_buf b;
    sv_buf_init(&b, NULL);
    sv_error err;
    sv_error_clear(&err);
    if (sv_json_encode(v, NULL, &b, &err) != SV_OK) {
        sv_buf_free(&b);
        char *s = malloc(SV_ERROR_MSG_MAX + 32);
        sv_error_format(&err, s, SV_ERROR_MSG_MAX + 32);
        return s;
    }
    sv_buf_putc(&b, 0);
    char *s = malloc(b.len);
    memcpy(s, b.data, b.len);
    sv_buf_free(&b);
    return s;
}

static inline int tg_split_tabs(char *line, char **fields, int max)
{
    int n = 0;
    char *p = line;
    while (n < max) {
        fields[n++] = p;
        char *tab = strchr(p, '\t');
        if (!tab) break;
        *tab = 0;
        p = tab + 1;
    }
    char *nl = strchr(fields[n - 1], '\n');
    if (nl) *nl = 0;
    return n;
}

#endif
