/* The text rules of the Settings Registry's parser and a line finder.
 *
 * O3DE parses .setreg files with RapidJSON's kParseCommentsFlag,
 * kParseTrailingCommasFlag and kParseStopWhenDoneFlag: comments are
 * allowed, a comma may end an object or array, and whatever follows the
 * first value is ignored (so `"BooleanValue": false` is the string
 * "BooleanValue"). serval's reader takes comments; this scanner blanks the
 * trailing commas and finds where the first value ends, keeping every byte
 * offset, so that errors still point into the file as written. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/walk.h"
#include "o3de_setreg.h"

typedef struct scan {
    const char *p, *end;
    unsigned line;
} scan;

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Skips whitespace and comments; counts lines. */
static void skip_blank(scan *s)
{
    while (s->p < s->end) {
        char c = *s->p;
        if (is_space(c)) {
            if (c == '\n') s->line++;
            s->p++;
        } else if (c == '/' && s->p + 1 < s->end && s->p[1] == '/') {
            while (s->p < s->end && *s->p != '\n') s->p++;
        } else if (c == '/' && s->p + 1 < s->end && s->p[1] == '*') {
            s->p += 2;
            while (s->p < s->end && !(*s->p == '*' && s->p + 1 < s->end && s->p[1] == '/')) {
                if (*s->p == '\n') s->line++;
                s->p++;
            }
            s->p = s->p < s->end ? s->p + 2 : s->end;
        } else {
            return;
        }
    }
}

/* Past a string starting at its quote. */
static void skip_string(scan *s)
{
    s->p++;
    while (s->p < s->end && *s->p != '"') {
        if (*s->p == '\\' && s->p + 1 < s->end) s->p++;
        if (*s->p == '\n') s->line++;
        s->p++;
    }
    if (s->p < s->end) s->p++;
}

/* Past a number or literal: everything up to a delimiter. */
static void skip_word(scan *s)
{
    while (s->p < s->end) {
        char c = *s->p;
        if (is_space(c) || c == ',' || c == ':' || c == '{' || c == '}' || c == '[' || c == ']' ||
            c == '"' || c == '/')
            return;
        s->p++;
    }
}

size_t o3sr_prepare_text(char *text, size_t len)
{
    scan s = {text, text + len, 1};
    size_t depth = 0;
    char *comma = NULL; /* the last comma, while only blanks follow it */
    skip_blank(&s);
    while (s.p < s.end) {
        char c = *s.p;
        if (c == '{' || c == '[') {
            depth++;
            s.p++;
        } else if (c == '}' || c == ']') {
            if (comma) *comma = ' ';
            s.p++;
            if (depth == 0) break; /* not JSON: the parser says so */
            depth--;
        } else if (c == ',') {
            comma = (char *)s.p;
            s.p++;
            skip_blank(&s);
            continue;
        } else if (c == '"') {
            skip_string(&s);
        } else if (c == ':') {
            s.p++;
        } else {
            const char *at = s.p;
            skip_word(&s);
            if (s.p == at) s.p++; /* a stray byte: let the parser report it */
        }
        comma = NULL;
        if (depth == 0) break; /* the first value is complete */
        skip_blank(&s);
    }
    return (size_t)(s.p - text);
}

/* ---- the line finder ---- */

/* Whether the JSON string at s->p (its quote) spells the pointer token
 * [tok, tok_end) once both are unescaped (~0 ~1 in the token; the common
 * escapes in the string). Leaves s past the string. */
static bool key_matches(scan *s, const char *tok, const char *tok_end)
{
    const char *t = tok;
    bool same = true;
    s->p++;
    while (s->p < s->end && *s->p != '"') {
        char c = *s->p++;
        if (c == '\\' && s->p < s->end) {
            char e = *s->p++;
            switch (e) {
            case 'n': c = '\n'; break;
            case 't': c = '\t'; break;
            case 'r': c = '\r'; break;
            case 'b': c = '\b'; break;
            case 'f': c = '\f'; break;
            case 'u':
                same = false;
                c = 0;
                break; /* \u keys: not matched */
            default: c = e; break;
            }
        }
        char want = 0;
        if (t < tok_end) {
            want = *t++;
            if (want == '~' && t < tok_end) want = *t++ == '1' ? '/' : '~';
        } else {
            same = false;
        }
        if (want != c) same = false;
    }
    if (s->p < s->end) s->p++;
    return same && t == tok_end;
}

/* Skips one value; returns false at the end of the text or on a stray
 * closing bracket. Bounded by the text: each step moves forward. */
static bool skip_value(scan *s)
{
    size_t depth = 0;
    skip_blank(s);
    while (s->p < s->end) {
        char c = *s->p;
        if (c == '{' || c == '[') {
            depth++;
            s->p++;
        } else if (c == '}' || c == ']') {
            if (depth == 0) return true; /* the container's end: the caller's */
            depth--;
            s->p++;
        } else if (c == '"') {
            skip_string(s);
        } else if (c == ',' || c == ':') {
            if (depth == 0) return true;
            s->p++;
        } else {
            const char *at = s->p;
            skip_word(s);
            if (s->p == at) s->p++;
        }
        if (depth == 0) return true;
        skip_blank(s);
    }
    return false;
}

unsigned o3sr_find_line(const char *text, size_t len, const char *pointer)
{
    size_t start, end;
    return o3sr_find_span(text, len, pointer, &start, &end);
}

unsigned o3sr_find_span(const char *text, size_t len, const char *pointer, size_t *start,
                        size_t *end)
{
    scan s = {text, text + len, 1};
    const char *tok = pointer;
    for (;;) {
        skip_blank(&s);
        if (s.p >= s.end) return 0;
        if (*tok == 0) {
            unsigned line = s.line;
            *start = (size_t)(s.p - text);
            if (!skip_value(&s)) return 0;
            *end = (size_t)(s.p - text);
            return line;
        }
        if (*tok != '/') return 0;
        tok++;
        const char *tok_end = tok + strcspn(tok, "/");
        char open = *s.p;
        if (open != '{' && open != '[') return 0;
        s.p++;
        bool found = false;
        if (open == '{') {
            for (;;) {
                skip_blank(&s);
                if (s.p >= s.end || *s.p != '"') return 0;
                bool match = key_matches(&s, tok, tok_end);
                skip_blank(&s);
                if (s.p >= s.end || *s.p != ':') return 0;
                s.p++;
                if (match) {
                    found = true;
                    break;
                }
                if (!skip_value(&s)) return 0;
                skip_blank(&s);
                if (s.p >= s.end || *s.p != ',') return 0;
                s.p++;
            }
        } else {
            size_t want = 0;
            for (const char *d = tok; d < tok_end; d++) {
                if (*d < '0' || *d > '9' || want > 100000000) return 0;
                want = want * 10 + (size_t)(*d - '0');
            }
            if (tok == tok_end) return 0;
            for (size_t i = 0;; i++) {
                skip_blank(&s);
                if (s.p >= s.end || *s.p == ']') return 0;
                if (i == want) {
                    found = true;
                    break;
                }
                if (!skip_value(&s)) return 0;
                skip_blank(&s);
                if (s.p >= s.end || *s.p != ',') return 0;
                s.p++;
            }
        }
        if (!found) return 0;
        tok = tok_end;
    }
}

/* ---- many lines in one pass ---- */

typedef struct lines_walk {
    scan s;
    const char *const *ptrs;
    size_t n;
    unsigned *lines;
    sv_buf path;
    unsigned depth;
} lines_walk;

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void note(lines_walk *w)
{
    const char *p = w->path.data ? (const char *)w->path.data : "";
    const char *const *hit = bsearch(&p, w->ptrs, w->n, sizeof *w->ptrs, cmp_str);
    if (hit && !w->lines[hit - w->ptrs]) w->lines[hit - w->ptrs] = w->s.line;
}

/* Appends one pointer token, escaped (~0 ~1), from a JSON key's text
 * (its escapes decoded for the common cases). */
static void push_key(lines_walk *w, const char *k, size_t n)
{
    sv_buf_putc(&w->path, '/');
    size_t run = 0; /* start of the bytes not yet appended */
    for (size_t i = 0; i < n; i++) {
        if (k[i] != '\\' || i + 1 == n) continue;
        sv__core_pointer_append_escaped(&w->path, k + run, i - run);
        char e = k[++i];
        char c = e == 'n'   ? '\n'
                 : e == 't' ? '\t'
                 : e == 'r' ? '\r'
                 : e == 'b' ? '\b'
                 : e == 'f' ? '\f'
                            : e;
        sv__core_pointer_append_escaped(&w->path, &c, 1);
        run = i + 1;
    }
    sv__core_pointer_append_escaped(&w->path, k + run, n - run);
    sv_buf_putc(&w->path, 0);
    w->path.len--;
}

static void truncate_to(lines_walk *w, size_t mark)
{
    w->path.len = mark;
    if (w->path.data) w->path.data[mark] = 0;
}

/* Walks the value at w->s.p; false when the text ends early or nests too
 * deeply (the rest is then left without lines). */
static bool walk_value(lines_walk *w)
{
    skip_blank(&w->s);
    if (w->s.p >= w->s.end) return false;
    note(w);
    char open = *w->s.p;
    if (open != '{' && open != '[') return skip_value(&w->s);
    if (++w->depth > 2048) return false;
    w->s.p++;
    for (size_t i = 0;; i++) {
        skip_blank(&w->s);
        if (w->s.p >= w->s.end) return false;
        if (*w->s.p == '}' || *w->s.p == ']') {
            w->s.p++;
            break;
        }
        size_t mark = w->path.len;
        if (open == '{') {
            if (*w->s.p != '"') return false;
            const char *k = w->s.p + 1;
            skip_string(&w->s);
            size_t kn = (size_t)(w->s.p - k) - 1;
            push_key(w, k, kn);
            skip_blank(&w->s);
            if (w->s.p >= w->s.end || *w->s.p != ':') return false;
            w->s.p++;
        } else {
            char num[24];
            int m = snprintf(num, sizeof num, "/%zu", i);
            sv_buf_append(&w->path, num, (size_t)m);
            sv_buf_putc(&w->path, 0);
            w->path.len--;
        }
        if (!walk_value(w)) return false;
        truncate_to(w, mark);
        skip_blank(&w->s);
        if (w->s.p < w->s.end && *w->s.p == ',') w->s.p++;
    }
    w->depth--;
    return true;
}

void o3sr_find_lines(const char *text, size_t len, const char *const *ptrs, size_t n,
                     unsigned *lines)
{
    lines_walk w;
    memset(&w, 0, sizeof w);
    w.s.p = text;
    w.s.end = text + len;
    w.s.line = 1;
    w.ptrs = ptrs;
    w.n = n;
    w.lines = lines;
    memset(lines, 0, n * sizeof *lines);
    sv_buf_init(&w.path, NULL);
    sv_buf_putc(&w.path, 0);
    w.path.len = 0;
    (void)walk_value(&w);
    sv_buf_free(&w.path);
}
