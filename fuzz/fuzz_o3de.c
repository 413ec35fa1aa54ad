/* Fuzz target for O3DE JSON loading over a fixed schema (docs/security.md).
 *
 *   SV_FUZZ_ROUNDTRIP  0: read and load only; 1: also store the loaded value
 *                      (stripped and with defaults), write it compact and
 *                      pretty, read that text back and load it again, which
 *                      must not halt.
 *
 * The first input byte picks the root type (bit 6: resolve and restore
 * "$import" first); the rest is the JSON text. Imports name the input
 * itself ("self.json" in any directory: cycles, chains, fan-out) or a small
 * fixed document ("obj.json"); anything else fails to load. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serval/o3de.h"
#include "serval/serval.h"

#ifndef SV_FUZZ_ROUNDTRIP
#define SV_FUZZ_ROUNDTRIP 0
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

static const char schema_text[] =
    "{\"serval_schema\": 1,\n"
    " \"enums\": [{\"name\": \"Flags\", \"underlying\": \"u16\", \"bits\": true,\n"
    "            \"values\": [[\"None\", 0], [\"A\", 1], [\"B\", 2], [\"AB\", 3], [\"High\", "
    "32768]]},\n"
    "           {\"name\": \"Small\", \"underlying\": \"i8\", \"values\": [[\"X\", 1]]}],\n"
    " \"classes\": [\n"
    "  {\"name\": \"Base\", \"uuid\": \"{E7829F37-C577-4F2B-A85B-6F331548354C}\",\n"
    "   \"fields\": [{\"name\": \"id\", \"type\": \"u32\"}, {\"name\": \"name\", \"type\": "
    "\"string\"}]},\n"
    "  {\"name\": \"Derived\", \"bases\": [\"Base\"], \"fields\": [\n"
    "     {\"name\": \"speed\", \"type\": \"f32\", \"default\": 1.5}, {\"name\": \"flags\", "
    "\"type\": \"Flags\"},\n"
    "     {\"name\": \"small\", \"type\": \"Small\"}, {\"name\": \"pos\", \"type\": \"vector3\"},\n"
    "     {\"name\": \"rot\", \"type\": \"quaternion\"}, {\"name\": \"tint\", \"type\": "
    "\"color\"},\n"
    "     {\"name\": \"xf\", \"type\": \"transform\"}, {\"name\": \"m\", \"type\": "
    "\"matrix3x3\"},\n"
    "     {\"name\": \"guid\", \"type\": \"uuid\"}, {\"name\": \"blob\", \"type\": \"bytes\"},\n"
    "     {\"name\": \"big\", \"type\": \"i64\"}, {\"name\": \"ubig\", \"type\": \"u64\"},\n"
    "     {\"name\": \"on\", \"type\": \"bool\"}, {\"name\": \"d\", \"type\": \"f64\"}]},\n"
    "  {\"name\": \"Other\", \"fields\": [{\"name\": \"x\", \"type\": \"i16\"}]},\n"
    "  {\"name\": \"Root\", \"fields\": [\n"
    "     {\"name\": \"items\", \"type\": \"vector<Derived>\"},\n"
    "     {\"name\": \"ptrs\", \"type\": \"vector<ptr<Base>>\"},\n"
    "     {\"name\": \"owner\", \"type\": \"unique<Base>\"},\n"
    "     {\"name\": \"stats\", \"type\": \"map<string,i32>\"},\n"
    "     {\"name\": \"lookup\", \"type\": \"umap<i32,string>\"},\n"
    "     {\"name\": \"keys\", \"type\": \"map<Flags,f32>\"},\n"
    "     {\"name\": \"tags\", \"type\": \"set<string>\"},\n"
    "     {\"name\": \"utags\", \"type\": \"uset<i32>\"},\n"
    "     {\"name\": \"fixed\", \"type\": \"array<u8,3>\"},\n"
    "     {\"name\": \"pair\", \"type\": \"pair<i32,string>\"},\n"
    "     {\"name\": \"tup\", \"type\": \"tuple<f32,vector<i32>,Flags>\"},\n"
    "     {\"name\": \"opt\", \"type\": \"optional<i32>\"},\n"
    "     {\"name\": \"child\", \"type\": \"ptr<Root>\"},\n"
    "     {\"name\": \"held\", \"type\": \"vector<any>\"},\n"
    "     {\"name\": \"place\", \"type\": \"matrix4x4\"}]}\n"
    " ]}\n";

static const char *const root_types[] = {
    "Root",  "Derived", "vector<ptr<Base>>", "map<i32,Derived>", "Flags",
    "color", "uuid",    "tuple<i32,string>"};

static sv_schema *schema;

typedef struct fuzz_files {
    const char *text;
    size_t len;
} fuzz_files;

static sv_status load_import(void *ctx, const char *path, sv_doc *doc, sv_value *out, sv_error *err)
{
    const fuzz_files *f = ctx;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    static const char obj[] = "{\"id\":7,\"items\":[{\"$import\":\"self.json\"}],\"name\":\"o\"}";
    if (!strcmp(base, "self.json")) return sv_o3de_read(doc, f->text, f->len, NULL, out, err);
    if (!strcmp(base, "obj.json")) return sv_o3de_read(doc, obj, sizeof obj - 1, NULL, out, err);
    return sv_error_set(err, SV_ERR_IO, "fuzz", 0, "no such file");
}

static void die(const char *what)
{
    fprintf(stderr, "fuzz o3de: %s\n", what);
    abort();
}

static const sv_type *root_type(uint8_t pick)
{
    const char *name = root_types[pick % (sizeof root_types / sizeof *root_types)];
    const sv_type *t;
    sv_error err;
    sv_error_clear(&err);
    if (sv_schema_parse_type(schema, name, strlen(name), &t, &err) != SV_OK) die("root type");
    return t;
}

static void setup(void)
{
    if (schema) return;
    sv_error err;
    sv_error_clear(&err);
    schema = sv_schema_new(NULL);
    if (!schema || sv_schema_decode(schema, schema_text, sizeof schema_text - 1, "fuzz", &err) ||
        sv_schema_finalize(schema, &err))
        die("schema");
}

/* sv_o3de_load_text (text loaded piece by piece) must give what
 * sv_o3de_read then sv_o3de_load give: the same status, result and value.
 * A run out of memory on either side (the two hold different amounts)
 * proves nothing. */
static void same_as_tree(const sv_type *t, const char *text, size_t len, const sv_limits *lim,
                         bool clear)
{
    sv_doc *a = sv_doc_new(NULL), *b = sv_doc_new(NULL);
    if (!a || !b) {
        sv_doc_free(a);
        sv_doc_free(b);
        return;
    }
    sv_doc_set_max_alloc(a, 64u << 20);
    sv_doc_set_max_alloc(b, 64u << 20);
    sv_o3de_opts o;
    sv_o3de_opts_init(&o);
    o.clear_containers = clear;
    sv_error err;
    sv_error_clear(&err);
    sv_value json, va, vb;
    sv_o3de_result ra = 0, rb = 0;
    sv_status sa = sv_o3de_default_value(schema, t, a, &va, &err);
    sv_status sb = sv_o3de_default_value(schema, t, b, &vb, &err);
    if (sa == SV_OK) sa = sv_o3de_read(a, text, len, lim, &json, &err);
    if (sa == SV_OK) sa = sv_o3de_load(schema, t, &json, a, &va, &o, &ra, &err);
    if (sb == SV_OK)
        sb = sv_o3de_load_text(schema, t, text, len, lim, b, &vb, &o, &rb, NULL, NULL, &err);
    bool oom = sa == SV_ERR_NOMEM || sb == SV_ERR_NOMEM || sa == SV_ERR_LIMIT || sb == SV_ERR_LIMIT;
    if (!oom) {
        if (sa != sb) die("sv_o3de_load_text: another status than the tree path");
        if (sa == SV_OK && ra != rb) die("sv_o3de_load_text: another result than the tree path");
        if (sa == SV_OK && !sv_equal(&va, &vb))
            die("sv_o3de_load_text: another value than the tree path");
    }
    sv_doc_free(a);
    sv_doc_free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
    setup();
    if (len < 1) return 0;
    const sv_type *t = root_type(data[0]);
    if (!(data[0] & 0x40)) {
        sv_limits tl = {256, 64u << 20, 1u << 20, 0};
        same_as_tree(t, (const char *)data + 1, len - 1, &tl, data[0] & 0x80);
    }
    sv_doc *doc = sv_doc_new(NULL);
    if (!doc) return 0;
    sv_doc_set_max_alloc(doc, 64u << 20);
    sv_error err;
    sv_error_clear(&err);
    sv_value json, v;
    sv_limits lim = {256, 64u << 20, 1u << 20, 0};
    if (sv_o3de_read(doc, (const char *)data + 1, len - 1, &lim, &json, &err) != SV_OK ||
        sv_o3de_default_value(schema, t, doc, &v, &err) != SV_OK) {
        sv_doc_free(doc);
        return 0;
    }
    if (data[0] & 0x40) {
        fuzz_files f = {(const char *)data + 1, len - 1};
        sv_o3de_import_opts io;
        sv_o3de_import_opts_init(&io);
        io.load = load_import;
        io.load_ctx = &f;
        io.path = "dir/self.json";
        io.max_imports = 64;
        sv_o3de_imports *found = sv_o3de_imports_new(NULL);
        sv_o3de_result ir;
        sv_value copy = json;
        if (found && sv_o3de_resolve_imports(doc, &json, &io, found, &ir, &err) == SV_OK &&
            sv_o3de_result_processing(ir) != SV_O3DE_HALTED) {
            copy = sv_copy(doc, &json);
            if (sv_o3de_restore_imports(doc, &copy, &io, found, &ir, &err) != SV_OK) {
                /* out of memory within the document's cap: fine */
            }
        }
        sv_o3de_imports_free(found);
        sv_error_clear(&err);
    }
    sv_o3de_opts o;
    sv_o3de_opts_init(&o);
    o.clear_containers = data[0] & 0x80;
    sv_o3de_result r;
    if (sv_o3de_load(schema, t, &json, doc, &v, &o, &r, &err) != SV_OK) {
        sv_doc_free(doc);
        return 0;
    }
#if SV_FUZZ_ROUNDTRIP
    for (int keep = 0; keep < 2; keep++) {
        o.keep_defaults = keep;
        sv_value out;
        if (sv_o3de_store(schema, t, &v, NULL, doc, &out, &o, &r, &err) != SV_OK) break;
        if (sv_o3de_result_processing(r) == SV_O3DE_HALTED) break;
        sv_buf b;
        sv_buf_init(&b, NULL);
        sv_status st = sv_o3de_write(&out, keep ? 4 : 0, &b, &err);
        if (st == SV_OK) {
            sv_value back, v2;
            if (sv_o3de_read(doc, (const char *)b.data, b.len, &lim, &back, &err) != SV_OK)
                die("stored text does not read back");
            if (sv_o3de_default_value(schema, t, doc, &v2, &err) == SV_OK &&
                sv_o3de_load(schema, t, &back, doc, &v2, &o, &r, &err) == SV_OK &&
                sv_o3de_result_processing(r) == SV_O3DE_HALTED)
                die("stored text does not load back");
        }
        sv_buf_free(&b);
    }
#endif
    sv_doc_free(doc);
    return 0;
}
