/* Resonite data trees: internals shared by the container, format, tree view
 * and package files. Comments cite "spec A.x": the numbered sections of
 * docs/formats/resonite.md. */
#ifndef SV_FORMATS_RESONITE_INTERNAL_H
#define SV_FORMATS_RESONITE_INTERNAL_H

#include "compress/compress.h"
#include "serval/resonite.h"

#define RESONITE_FORMAT "resonite"
#define RESONITE_CLASS "resonite.DataTree"
/* spec A.2.1: "FrDT", int32 version 0, varint compression */
#define FRDT_HEADER_SIZE 9
/* spec A.3.3: lz4net's default block size */
#define LZ4NET_CHUNK (1024u * 1024u)
/* spec A.3.2: the LZMA settings Resonite writes (props 5D 00 00 20 00) */
#define LZMA_RESONITE_DICT (1u << 21)

/* An unsigned LEB128 varint (spec A.2.1 / A.3.3) of at most 10 bytes at
 * *p within end; false when it is cut off or longer. */
bool sv__resonite_rs_varint(const uint8_t **p, const uint8_t *end, uint64_t *out);
void sv__resonite_rs_put_varint(sv_buf *b, uint64_t v);

/* The size a BSON payload announces in its first 4 bytes (0: impossible). */
uint64_t sv__resonite_rs_bson_size(const uint8_t *first4);
/* The data tree's root as its first SV_DECOMP_HEAD bytes show it: a
 * plausible BSON length, then the type of a first element (or the end of
 * an empty document). Returns the length, or 0 with *why; the
 * decompressors' size_from_head, and what the legacy sniffs accept. */
uint64_t sv__resonite_rs_bson_head(const uint8_t *head, const char **why);

/* lz4net chunk stream (spec A.3.3). */
sv_status sv__resonite_rs_lz4net_decode(const uint8_t *in, size_t len, const sv_decomp *d,
                                        sv_buf *out, sv_error *err);
bool sv__resonite_rs_lz4net_encode(const uint8_t *in, size_t len, sv_buf *out);
/* Whether in looks like an lz4net stream holding BSON (for sniffing), or the
 * start of one that the input's end cuts off in its first chunk (then *cut
 * is set, when cut is not NULL). */
bool sv__resonite_rs_lz4net_sniff(const uint8_t *in, size_t len, bool *cut);

/* The 7-Zip SDK LZMA layout (spec A.3.2). */
sv_status sv__resonite_rs_lzma_decode(const uint8_t *in, size_t len, const sv_decomp *d,
                                      sv_buf *out, sv_error *err);
bool sv__resonite_rs_lzma_encode(const uint8_t *in, size_t len, sv_buf *out);
/* Whether in looks like Resonite's LZMA layout, whole, or cut off by the
 * input's end after its header (then *cut is set, when cut is not NULL). */
bool sv__resonite_rs_lzma_sniff(const uint8_t *in, size_t len, bool *cut);

/* A Brotli payload decoded straight into the tree when its BSON length is
 * plausible (brotli_tree.c); *handled false: use the general path.
 * threads: sv_resonite_opts.threads (0: no second thread). */
struct sv_bson_opts;
sv_status sv__resonite_rs_brotli_tree(sv_doc *doc, const uint8_t *in, size_t len,
                                      const sv_decomp *d, const struct sv_bson_opts *bo,
                                      int threads, sv_value *out, bool *handled, sv_error *err);

/* sv__resonite_rs_brotli_tree without the tree: the payload is only checked
 * (sv_bson_validate's rules), into a block from libc freed before return. */
sv_status sv__resonite_rs_brotli_check(const uint8_t *in, size_t len, const sv_decomp *d,
                                       const struct sv_bson_opts *bo, int threads, bool *handled,
                                       sv_error *err);

/* The Brotli quality and window bits a write uses (opts already read:
 * Resonite's 9 and 16 by default), and the FrDT header it starts with
 * (nothing for the legacy framing). */
void sv__resonite_rs_brotli_params(const sv_resonite_opts *o, int *quality, int *window);
void sv__resonite_rs_put_header(sv_buf *out, const sv_resonite_container *c);

/* The streaming Brotli writer of a payload (brotli_sink.c): a sink for the
 * BSON writer's buffer (sv_buf_set_sink with sv__resonite_brotli_sink_write
 * and the sink as its context) that compresses each window into out with
 * the given quality (2 to 11) and window bits, the payload being total bytes
 * of BSON. The output is that of sv__compress_brotli_compress over the whole
 * BSON. NULL: no memory. _done: every byte came and the stream is finished. */
typedef struct sv__resonite_brotli_sink sv__resonite_brotli_sink;
sv__resonite_brotli_sink *sv__resonite_brotli_sink_new(sv_buf *out, int quality, int lgwin,
                                                       uint64_t total);
sv_status sv__resonite_brotli_sink_write(void *ctx, const uint8_t *data, size_t len);
bool sv__resonite_brotli_sink_done(const sv__resonite_brotli_sink *k);
void sv__resonite_brotli_sink_free(sv__resonite_brotli_sink *k);

/* Says in err's message that its offset is in the decompressed BSON. */
void sv__resonite_rs_note_bson_error(sv_error *err);

/* Parses the header (or picks the legacy decompressor): *c and *off (the
 * payload's offset). Sniffing a legacy Brotli payload decompresses its first
 * bytes with memory from a (NULL: libc). */
sv_status sv__resonite_rs_container(const uint8_t *data, size_t len, const sv_resonite_opts *opts,
                                    const sv_alloc *a, sv_resonite_container *c, size_t *off,
                                    sv_error *err);

/* Whether in starts a Brotli stream whose first bytes are a BSON length:
 * SV_OK yes, SV_ERR_SYNTAX no, SV_ERR_NOMEM when a (NULL: libc) refused the
 * decoder's memory. */
sv_status sv__resonite_rs_brotli_sniff(const uint8_t *in, size_t len, const sv_alloc *a);

/* The container a write uses: c holds what the tree's meta says (parts it
 * does not say are AUTO); opts win over it, and Resonite's defaults (FrDT
 * header, Brotli) fill what neither says. */
void sv__resonite_rs_resolve_container(sv_resonite_container *c, const sv_resonite_opts *opts);

/* The registry's options as sv_resonite_opts: the reading side's names
 * (container, ...) or, writing, the writing side's (compression, ...). */
sv_status sv__resonite_rs_options_from(const sv_options *opts, bool writing, sv_resonite_opts *r,
                                       sv_error *err);

/* The payload sv_resonite_encode writes for the tree that the checked BSON
 * document bson[0..len) decodes to, read from a container c (framing and
 * compression, as the tree's meta records them), without the tree
 * (resonite_transcode.c). */
sv_status sv__resonite_rs_encode_bson(const uint8_t *bson, size_t len,
                                      const sv_resonite_container *c, const sv_resonite_opts *opts,
                                      sv_buf *out, sv_error *err);

#endif
