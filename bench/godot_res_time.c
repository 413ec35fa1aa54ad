/* serval-bench-res FILE [RUNS]: times, inside this process, what the engine's
 * ResourceLoader.load and ResourceSaver.save do inside Godot: the decode of
 * a binary resource already read into memory into a tree, and the encode of
 * that tree back to bytes. bench/godot_res_pck.sh sets these beside the
 * engine's own timings (which also exclude the engine's start-up), and
 * beside serval's whole-process figures, which add the process start, the
 * input's mapping and the exit (about 40 ms for a 50 MB file on a 2-core VM).
 *
 * Each run decodes into a new document (fresh memory, as a first load pays)
 * and encodes into a new buffer; the encode must give the file back byte for
 * byte. Prints "decode MS encode MS" (medians), exit 1 on any failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "serval/serval.h"

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static unsigned char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    unsigned char *data = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0) n = ftell(f);
    if (n > 0 && fseek(f, 0, SEEK_SET) == 0 && (data = malloc((size_t)n)) != NULL &&
        fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        data = NULL;
    }
    fclose(f);
    *len = n > 0 ? (size_t)n : 0;
    return data;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: serval-bench-res FILE [RUNS]\n");
        return 2;
    }
    int runs = argc > 2 ? atoi(argv[2]) : 5;
    if (runs < 1 || runs > 101) runs = 5;
    size_t len = 0;
    unsigned char *data = read_all(argv[1], &len);
    const sv_format *res = sv_format_find("godot-res");
    if (!data || !res) {
        fprintf(stderr, "serval-bench-res: %s\n",
                data ? "no godot-res format" : "cannot read the file");
        free(data);
        return 1;
    }
    double dec[101], enc[101];
    for (int r = 0; r < runs; r++) {
        sv_error err;
        sv_error_clear(&err);
        sv_options o;
        sv_options_init(&o);
        o.borrow_input = true; /* as the command decodes: the input outlives the tree */
        double t0 = now_ms();
        sv_doc *doc = sv_doc_new(NULL);
        sv_value v;
        sv_status st = doc ? res->decode(doc, data, len, &o, &v, &err) : SV_ERR_NOMEM;
        double t1 = now_ms();
        sv_buf out;
        sv_buf_init(&out, NULL);
        if (st == SV_OK) st = res->encode(&v, NULL, &out, &err);
        double t2 = now_ms();
        bool same = st == SV_OK && out.len == len && !memcmp(out.data, data, len);
        sv_buf_free(&out);
        sv_doc_free(doc);
        if (!same) {
            char msg[512];
            sv_error_format(&err, msg, sizeof msg);
            fprintf(stderr, "serval-bench-res: %s\n",
                    st != SV_OK ? msg : "the encode differs from the file");
            free(data);
            return 1;
        }
        dec[r] = t1 - t0;
        enc[r] = t2 - t1;
    }
    qsort(dec, (size_t)runs, sizeof dec[0], by_value);
    qsort(enc, (size_t)runs, sizeof enc[0], by_value);
    printf("decode %.1f encode %.1f\n", dec[runs / 2], enc[runs / 2]);
    free(data);
    return 0;
}
