/* serval-bench: a generated KIWAD archive (.wad), deterministic.
 *
 * KIWAD_MEMBERS members, half of them compressed: XML-like object text
 * ("Data/GameData/zoneNNN/objNNNNN.xml", zlib), the other half incompressible
 * bytes named ".ogg" (stored, as KingsIsle's writer stores .ogg and .mp3),
 * 50 members per directory. Member
 * sizes vary from half to one and a half times the mean; the compressed
 * members' text is sized so that the archive comes out at about target
 * bytes, half of it stored and half zlib streams.
 *
 * The archive is written by sv_kiwad_write, KingsIsle's layout (sorted
 * table, data in table order right after it). zlib level 1 keeps the
 * generation quick; the workloads inflate whatever level wrote the streams,
 * and the peer inflates the same streams. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <serval/error.h>
#include <serval/kiwad.h>

#include "gen_kiwad.h"

#define GEN_LEVEL 1

/* xorshift64*: the same sequence on every machine. */
static uint64_t next(uint64_t *s)
{
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 2685821657736338717ull;
}

/* Object-file text of exactly n bytes: one element per line, numbers from
 * the generator (what makes it compress about 4:1 rather than 100:1). */
static void fill_text(uint8_t *p, size_t n, uint64_t *s)
{
    size_t at = 0;
    char line[160];
    while (at < n) {
        uint64_t r = next(s);
        int k = snprintf(line, sizeof line,
                         "<Object id=\"%u\" template=\"zone%02u_item%05u\" x=\"%.3f\" y=\"%.3f\" "
                         "flags=\"0x%02x\"/>\n",
                         (unsigned)(r >> 40), (unsigned)(r % 97), (unsigned)((r >> 8) % 100000),
                         (double)(int32_t)(r >> 20) / 4096.0, (double)(int16_t)(r >> 4) / 64.0,
                         (unsigned)(r >> 56));
        size_t take = (size_t)k < n - at ? (size_t)k : n - at;
        memcpy(p + at, line, take);
        at += take;
    }
}

static void fill_random(uint8_t *p, size_t n, uint64_t *s)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t r = next(s);
        memcpy(p + i, &r, 8);
    }
    uint64_t r = next(s);
    for (; i < n; i++, r >>= 8) p[i] = (uint8_t)r;
}

/* How many times smaller GEN_LEVEL makes this text (measured on 1 MB of it). */
static double text_ratio(void)
{
    size_t n = 1 << 20;
    uint8_t *t = malloc(n);
    if (!t) return 4.0;
    uint64_t s = 0x5EED0001;
    fill_text(t, n, &s);
    sv_kiwad_entry e = {"x.xml", t, n};
    sv_kiwad_write_opts o;
    sv_kiwad_write_opts_init(&o);
    o.level = GEN_LEVEL;
    sv_buf out;
    sv_buf_init(&out, NULL);
    sv_error err;
    sv_error_clear(&err);
    double r = 4.0;
    if (sv_kiwad_write(&e, 1, &o, &out, &err) == SV_OK && out.len > 64)
        r = (double)n / (double)(out.len - 14 - 21 - 6);
    sv_buf_free(&out);
    free(t);
    return r;
}

bool bench_gen_kiwad(size_t target, bench_kiwad *k, char *msg, size_t msg_size)
{
    memset(k, 0, sizeof *k);
    sv_buf_init(&k->archive, NULL);
    size_t count = KIWAD_MEMBERS;
    double mean = (double)target / (double)count; /* stored bytes per member */
    double ratio = text_ratio();
    size_t *sizes = malloc(count * sizeof *sizes);
    char (*names)[48] = malloc(count * sizeof *names);
    sv_kiwad_entry *e = malloc(count * sizeof *e);
    if (!sizes || !names || !e) goto nomem;
    uint64_t s = 0x5EED0002;
    size_t total = 0;
    /* The first half compressed, the second stored; the names sort in
     * this order, so the content lies in table order. */
    size_t half = count / 2;
    for (size_t i = 0; i < count; i++) {
        double f = 0.5 + (double)(next(&s) % 1000) / 1000.0;
        bool z = i < half;
        sizes[i] = (size_t)(mean * f * (z ? ratio : 1.0));
        total += sizes[i];
        if (z)
            snprintf(names[i], sizeof names[i], "Data/GameData/zone%03zu/obj%05zu.xml", i / 50, i);
        else
            snprintf(names[i], sizeof names[i], "Sound/zone%03zu/snd%05zu.ogg", (i - half) / 50,
                     i - half);
    }
    k->content = malloc(total ? total : 1);
    if (!k->content) goto nomem;
    size_t at = 0;
    for (size_t i = 0; i < count; i++) {
        if (i < half)
            fill_text(k->content + at, sizes[i], &s);
        else
            fill_random(k->content + at, sizes[i], &s);
        e[i] = (sv_kiwad_entry){names[i], k->content + at, sizes[i]};
        at += sizes[i];
    }
    k->content_len = total;
    sv_kiwad_write_opts o;
    sv_kiwad_write_opts_init(&o);
    o.level = GEN_LEVEL;
    sv_error err;
    sv_error_clear(&err);
    if (sv_kiwad_write(e, count, &o, &k->archive, &err) != SV_OK) {
        char m[SV_ERROR_MSG_MAX];
        sv_error_format(&err, m, sizeof m);
        snprintf(msg, msg_size, "generating the archive: %s", m);
        free(sizes), free(names), free(e);
        bench_kiwad_free(k);
        return false;
    }
    k->count = count;
    free(sizes), free(names), free(e);
    return true;
nomem:
    snprintf(msg, msg_size, "out of memory generating the archive");
    free(sizes), free(names), free(e);
    bench_kiwad_free(k);
    return false;
}

void bench_kiwad_free(bench_kiwad *k)
{
    sv_buf_free(&k->archive);
    free(k->content);
    memset(k, 0, sizeof *k);
}
