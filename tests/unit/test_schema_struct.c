/* C structs bound through X-macro descriptor tables: every type kind with a
 * C form round-trips struct -> value tree -> typed JSON -> value tree ->
 * struct unchanged, and the allocator ends with nothing live. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "helper_alloc.h"
#include "serval/serval.h"

/* ---- the structs --------------------------------------------------------------- */

typedef enum Mood { MOOD_GRIM = -1, MOOD_CALM = 0, MOOD_GLAD = 7 } Mood;

typedef struct Item {
    uint32_t kind; /* class id: 1 Item, 2 Weapon, 3 Shield */
    uint32_t id;
    char *name;
} Item;

typedef struct Weapon {
    Item base;
    float damage;
    uint8_t element;
} Weapon;

typedef struct Shield {
    Item base;
    int16_t armor;
    bool magic;
} Shield;

typedef struct Stats {
    int32_t hp;
    double luck;
} Stats;

typedef struct PairU8F64 {
    uint8_t first;
    double second;
} PairU8F64;

typedef struct Tup {
    char *s;
    int16_t i;
    float v[3];
} Tup;

typedef struct StatEntry { /* an entry of map<string,i32> */
    char *key;
    int32_t value;
} StatEntry;

typedef struct StatsById { /* an entry of umap<u32,Stats> */
    uint32_t key;
    Stats value;
} StatsById;

typedef struct Everything {
    bool b;
    int8_t i8;
    int16_t i16;
    int32_t i32;
    int64_t i64;
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;
    float f32;
    double f64;
    char *str;
    char *wstr;
    sv_cbytes blob;
    sv_uuid uuid;
    float v2[2], v3[3], v4[4], quat[4], color[4], m33[9], m34[12], m44[16], xf[8];
    uint8_t element;
    Mood mood;
    uint16_t flags;
    Stats stats;
    Stats stat_arr[2];
    int32_t fixed[3];
    char *names[2];
    uint32_t *ids;
    size_t n_ids;
    char **tags;
    size_t n_tags;
    Stats *history;
    size_t n_history;
    int16_t *set16;
    size_t n_set16;
    uint8_t *uset8;
    size_t n_uset8;
    Item **inventory;
    size_t n_inventory;
    float bonus;
    bool has_bonus;
    Stats extra;
    bool has_extra;
    char *nick;
    bool has_nick;
    Item *main_hand;
    Item *off_hand;
    Item *nothing;
    int32_t *lucky;
    PairU8F64 pr;
    Tup tup;
    StatEntry *stats_map;
    size_t n_stats_map;
    StatsById *by_id;
    size_t n_by_id;
    struct Everything *next;
} Everything;

#define ITEM_FIELDS(X)                                                                             \
    X(Item, PLAIN, kind, _, "u32")                                                                 \
    X(Item, PLAIN, id, _, "u32")                                                                   \
    X(Item, PLAIN, name, _, "string")
#define WEAPON_FIELDS(X)                                                                           \
    X(Weapon, PLAIN, damage, _, "f32")                                                             \
    X(Weapon, PLAIN, element, _, "Element")
#define SHIELD_FIELDS(X)                                                                           \
    X(Shield, PLAIN, armor, _, "i16")                                                              \
    X(Shield, PLAIN, magic, _, "bool")
#define STATS_FIELDS(X)                                                                            \
    X(Stats, PLAIN, hp, _, "i32")                                                                  \
    X(Stats, PLAIN, luck, _, "f64")
#define EVERYTHING_FIELDS(X)                                                                       \
    X(Everything, PLAIN, b, _, "bool")                                                             \
    X(Everything, PLAIN, i8, _, "i8")                                                              \
    X(Everything, PLAIN, i16, _, "i16")                                                            \
    X(Everything, PLAIN, i32, _, "i32")                                                            \
    X(Everything, PLAIN, i64, _, "i64")                                                            \
    X(Everything, PLAIN, u8, _, "u8")                                                              \
    X(Everything, PLAIN, u16, _, "u16")                                                            \
    X(Everything, PLAIN, u32, _, "u32")                                                            \
    X(Everything, PLAIN, u64, _, "u64")                                                            \
    X(Everything, PLAIN, f32, _, "f32")                                                            \
    X(Everything, PLAIN, f64, _, "f64")                                                            \
    X(Everything, PLAIN, str, _, "string")                                                         \
    X(Everything, PLAIN, wstr, _, "wstring")                                                       \
    X(Everything, PLAIN, blob, _, "bytes")                                                         \
    X(Everything, PLAIN, uuid, _, "uuid")                                                          \
    X(Everything, PLAIN, v2, _, "vector2")                                                         \
    X(Everything, PLAIN, v3, _, "vector3")                                                         \
    X(Everything, PLAIN, v4, _, "vector4")                                                         \
    X(Everything, PLAIN, quat, _, "quaternion")                                                    \
    X(Everything, PLAIN, color, _, "color")                                                        \
    X(Everything, PLAIN, m33, _, "matrix3x3")                                                      \
    X(Everything, PLAIN, m34, _, "matrix3x4")                                                      \
    X(Everything, PLAIN, m44, _, "matrix4x4")                                                      \
    X(Everything, PLAIN, xf, _, "transform")                                                       \
    X(Everything, PLAIN, element, _, "Element")                                                    \
    X(Everything, PLAIN, mood, _, "Mood")                                                          \
    X(Everything, PLAIN, flags, _, "Flags")                                                        \
    X(Everything, PLAIN, stats, _, "Stats")                                                        \
    X(Everything, PLAIN, stat_arr, _, "array<Stats,2>")                                            \
    X(Everything, PLAIN, fixed, _, "array<i32,3>")                                                 \
    X(Everything, PLAIN, names, _, "array<string,2>")                                              \
    X(Everything, COUNTED, ids, n_ids, "vector<u32>")                                              \
    X(Everything, COUNTED, tags, n_tags, "list<string>")                                           \
    X(Everything, COUNTED, history, n_history, "vector<Stats>")                                    \
    X(Everything, COUNTED, set16, n_set16, "set<i16>")                                             \
    X(Everything, COUNTED, uset8, n_uset8, "uset<u8>")                                             \
    X(Everything, COUNTED, inventory, n_inventory, "vector<ptr<Item>>")                            \
    X(Everything, OPTIONAL, bonus, has_bonus, "optional<f32>")                                     \
    X(Everything, OPTIONAL, extra, has_extra, "optional<Stats>")                                   \
    X(Everything, OPTIONAL, nick, has_nick, "optional<string>")                                    \
    X(Everything, PLAIN, main_hand, _, "ptr<Item>")                                                \
    X(Everything, PLAIN, off_hand, _, "shared<Item>")                                              \
    X(Everything, PLAIN, nothing, _, "unique<Item>")                                               \
    X(Everything, PLAIN, lucky, _, "ptr<i32>")                                                     \
    X(Everything, PLAIN, pr, _, "pair<u8,f64>")                                                    \
    X(Everything, PLAIN, tup, _, "tuple<string,i16,vector3>")                                      \
    X(Everything, COUNTED, stats_map, n_stats_map, "map<string,i32>")                              \
    X(Everything, COUNTED, by_id, n_by_id, "umap<u32,Stats>")                                      \
    X(Everything, PLAIN, next, _, "ptr<Everything>")

static const sv_cfield item_fields[] = {ITEM_FIELDS(SV_CFIELD_X)};
static const sv_cfield weapon_fields[] = {WEAPON_FIELDS(SV_CFIELD_X)};
static const sv_cfield shield_fields[] = {SHIELD_FIELDS(SV_CFIELD_X)};
static const sv_cfield stats_fields[] = {STATS_FIELDS(SV_CFIELD_X)};
static const sv_cfield everything_fields[] = {EVERYTHING_FIELDS(SV_CFIELD_X)};
static const sv_cclass item_class = SV_CCLASS_ID(Item, NULL, item_fields, "kind", 1);
static const sv_cclass weapon_class = SV_CCLASS_ID(Weapon, "Item", weapon_fields, "kind", 2);
static const sv_cclass shield_class = SV_CCLASS_ID(Shield, "Item", shield_fields, "kind", 3);
static const sv_cclass stats_class = SV_CCLASS(Stats, NULL, stats_fields);
static const sv_cclass everything_class = SV_CCLASS(Everything, NULL, everything_fields);

/* The enums come from a schema file; the structs from their descriptors. */
static const char enums_json[] =
    "{\"serval_schema\": 1, \"enums\": ["
    "{\"name\": \"Element\", \"underlying\": \"u8\", \"values\": [[\"Fire\", 0], [\"Ice\", 1]]},"
    "{\"name\": \"Mood\", \"underlying\": \"i32\", \"values\": [[\"Grim\", -1], [\"Calm\", 0], "
    "[\"Glad\", 7]]},"
    "{\"name\": \"Flags\", \"underlying\": \"u16\", \"bits\": true, \"values\": [[\"A\", 1], "
    "[\"B\", 2], "
    "[\"C\", 32768]]}]}";

static sv_schema *make_schema(void)
{
    sv_error err;
    sv_schema *s = sv_schema_new(NULL);
    assert_non_null(s);
    if (sv_schema_decode(s, enums_json, sizeof enums_json - 1, "enums.json", &err) ||
        sv_schema_bind(s, &item_class, &err) || sv_schema_bind(s, &weapon_class, &err) ||
        sv_schema_bind(s, &shield_class, &err) || sv_schema_bind(s, &stats_class, &err) ||
        sv_schema_bind(s, &everything_class, &err) || sv_schema_finalize(s, &err))
        fail_msg("%s at %s", err.message, err.path);
    return s;
}

/* ---- a filled instance (static storage: nothing to free) ------------------------ */

static char s_hello[] = "hello", s_wide[] = "w\xc3\xa9ide", s_a[] = "a", s_b[] = "bee",
            s_sword[] = "sword", s_buckler[] = "buckler", s_plain[] = "plain", s_nick[] = "nick",
            s_t1[] = "t1", s_t2[] = "", s_tail[] = "tail";
static uint8_t blob_bytes[] = {0, 1, 2, 255};
static uint32_t ids[] = {1, 4000000000u, 7};
static char *tags[] = {s_t1, s_t2};
static Stats history[] = {{1, 0.5}, {-2, -0.25}, {3, 1e300}};
static int16_t set16[] = {-5, 5};
static uint8_t uset8[] = {9};
static Weapon sword = {{2, 10, s_sword}, 2.5f, 1};
static Shield buckler = {{3, 11, s_buckler}, -4, true};
static Item plain_item = {1, 12, s_plain};
static Item *inventory[] = {&sword.base, &plain_item, NULL, &buckler.base};
static int32_t lucky = -77;
static char s_str[] = "str", s_dex[] = "dex";
static StatEntry stat_entries[] = {{s_str, 18}, {s_dex, -3}};
static StatsById by_id[] = {{7, {70, 0.07}}};
static Everything tail_node;

static void fill(Everything *e)
{
    memset(e, 0, sizeof *e);
    e->b = true;
    e->i8 = -128;
    e->i16 = -30000;
    e->i32 = INT32_MIN;
    e->i64 = INT64_MIN;
    e->u8 = 255;
    e->u16 = 65535;
    e->u32 = UINT32_MAX;
    e->u64 = UINT64_MAX;
    e->f32 = 0.1f;
    e->f64 = -0.0;
    e->str = s_hello;
    e->wstr = s_wide;
    e->blob = (sv_cbytes){blob_bytes, sizeof blob_bytes};
    for (int i = 0; i < 16; i++)
        e->uuid.b[i] = (uint8_t)(i * 17);
    float *arrays[] = {e->v2, e->v3, e->v4, e->quat, e->color, e->m33, e->m34, e->m44, e->xf};
    int sizes[] = {2, 3, 4, 4, 4, 9, 12, 16, 8};
    for (int a = 0; a < 9; a++)
        for (int i = 0; i < sizes[a]; i++)
            arrays[a][i] = (float)(a * 100 + i) / 8.0f - 3.0f;
    e->element = 1;
    e->mood = MOOD_GRIM;
    e->flags = 1 | 32768;
    e->stats = (Stats){100, 0.75};
    e->stat_arr[0] = (Stats){1, 2.0};
    e->stat_arr[1] = (Stats){-1, -2.0};
    e->fixed[0] = 1, e->fixed[1] = -2, e->fixed[2] = 3;
    e->names[0] = s_a, e->names[1] = s_b;
    e->ids = ids, e->n_ids = 3;
    e->tags = tags, e->n_tags = 2;
    e->history = history, e->n_history = 3;
    e->set16 = set16, e->n_set16 = 2;
    e->uset8 = uset8, e->n_uset8 = 1;
    e->inventory = inventory, e->n_inventory = 4;
    e->bonus = 1.25f, e->has_bonus = true;
    e->has_extra = false;
    e->nick = s_nick, e->has_nick = true;
    e->main_hand = &sword.base;
    e->off_hand = &buckler.base;
    e->nothing = NULL;
    e->lucky = &lucky;
    e->pr = (PairU8F64){200, -1.5e-300};
    e->tup = (Tup){s_a, -9, {1.0f, 2.0f, 3.5f}};
    e->stats_map = stat_entries, e->n_stats_map = 2;
    e->by_id = by_id, e->n_by_id = 1;
    memset(&tail_node, 0, sizeof tail_node);
    tail_node.str = s_tail;
    tail_node.wstr = s_t2;
    tail_node.names[0] = s_t2, tail_node.names[1] = s_t2;
    tail_node.tup.s = s_t2;
    tail_node.has_extra = true;
    tail_node.extra = (Stats){5, 6.0};
    e->next = &tail_node;
}

/* ---- deep comparison, member by member ------------------------------------------ */

static void same_item(const Item *a, const Item *b)
{
    if (!a || !b) {
        assert_ptr_equal(a, b);
        return;
    }
    assert_int_equal(a->kind, b->kind);
    assert_int_equal(a->id, b->id);
    assert_string_equal(a->name, b->name);
    if (a->kind == 2) {
        const Weapon *x = (const Weapon *)a, *y = (const Weapon *)b;
        assert_memory_equal(&x->damage, &y->damage, sizeof x->damage);
        assert_int_equal(x->element, y->element);
    } else if (a->kind == 3) {
        const Shield *x = (const Shield *)a, *y = (const Shield *)b;
        assert_int_equal(x->armor, y->armor);
        assert_int_equal(x->magic, y->magic);
    }
}

static void same_stats(const Stats *a, const Stats *b)
{
    assert_int_equal(a->hp, b->hp);
    assert_memory_equal(&a->luck, &b->luck, sizeof a->luck);
}

static void same(const Everything *a, const Everything *b)
{
    assert_int_equal(a->b, b->b);
    assert_int_equal(a->i8, b->i8);
    assert_int_equal(a->i16, b->i16);
    assert_int_equal(a->i32, b->i32);
    assert_true(a->i64 == b->i64);
    assert_int_equal(a->u8, b->u8);
    assert_int_equal(a->u16, b->u16);
    assert_int_equal(a->u32, b->u32);
    assert_true(a->u64 == b->u64);
    assert_memory_equal(&a->f32, &b->f32, sizeof a->f32);
    assert_memory_equal(&a->f64, &b->f64, sizeof a->f64); /* -0.0 keeps its sign */
    assert_string_equal(a->str, b->str);
    assert_string_equal(a->wstr, b->wstr);
    assert_int_equal(a->blob.size, b->blob.size);
    if (a->blob.size) assert_memory_equal(a->blob.data, b->blob.data, a->blob.size);
    assert_memory_equal(&a->uuid, &b->uuid, sizeof a->uuid);
    assert_memory_equal(a->v2, b->v2, sizeof a->v2);
    assert_memory_equal(a->v3, b->v3, sizeof a->v3);
    assert_memory_equal(a->v4, b->v4, sizeof a->v4);
    assert_memory_equal(a->quat, b->quat, sizeof a->quat);
    assert_memory_equal(a->color, b->color, sizeof a->color);
    assert_memory_equal(a->m33, b->m33, sizeof a->m33);
    assert_memory_equal(a->m34, b->m34, sizeof a->m34);
    assert_memory_equal(a->m44, b->m44, sizeof a->m44);
    assert_memory_equal(a->xf, b->xf, sizeof a->xf);
    assert_int_equal(a->element, b->element);
    assert_int_equal(a->mood, b->mood);
    assert_int_equal(a->flags, b->flags);
    same_stats(&a->stats, &b->stats);
    same_stats(&a->stat_arr[0], &b->stat_arr[0]);
    same_stats(&a->stat_arr[1], &b->stat_arr[1]);
    assert_memory_equal(a->fixed, b->fixed, sizeof a->fixed);
    assert_string_equal(a->names[0], b->names[0]);
    assert_string_equal(a->names[1], b->names[1]);
    assert_int_equal(a->n_ids, b->n_ids);
    if (a->n_ids) assert_memory_equal(a->ids, b->ids, a->n_ids * sizeof *a->ids);
    assert_int_equal(a->n_tags, b->n_tags);
    for (size_t i = 0; i < a->n_tags; i++)
        assert_string_equal(a->tags[i], b->tags[i]);
    assert_int_equal(a->n_history, b->n_history);
    for (size_t i = 0; i < a->n_history; i++)
        same_stats(&a->history[i], &b->history[i]);
    assert_int_equal(a->n_set16, b->n_set16);
    if (a->n_set16) assert_memory_equal(a->set16, b->set16, a->n_set16 * sizeof *a->set16);
    assert_int_equal(a->n_uset8, b->n_uset8);
    if (a->n_uset8) assert_memory_equal(a->uset8, b->uset8, a->n_uset8);
    assert_int_equal(a->n_inventory, b->n_inventory);
    for (size_t i = 0; i < a->n_inventory; i++)
        same_item(a->inventory[i], b->inventory[i]);
    assert_int_equal(a->has_bonus, b->has_bonus);
    if (a->has_bonus) assert_memory_equal(&a->bonus, &b->bonus, sizeof a->bonus);
    assert_int_equal(a->has_extra, b->has_extra);
    if (a->has_extra) same_stats(&a->extra, &b->extra);
    assert_int_equal(a->has_nick, b->has_nick);
    if (a->has_nick) assert_string_equal(a->nick, b->nick);
    same_item(a->main_hand, b->main_hand);
    same_item(a->off_hand, b->off_hand);
    same_item(a->nothing, b->nothing);
    if (!a->lucky || !b->lucky)
        assert_ptr_equal(a->lucky, b->lucky);
    else
        assert_int_equal(*a->lucky, *b->lucky);
    assert_int_equal(a->pr.first, b->pr.first);
    assert_memory_equal(&a->pr.second, &b->pr.second, sizeof a->pr.second);
    assert_string_equal(a->tup.s, b->tup.s);
    assert_int_equal(a->tup.i, b->tup.i);
    assert_memory_equal(a->tup.v, b->tup.v, sizeof a->tup.v);
    assert_int_equal(a->n_stats_map, b->n_stats_map);
    for (size_t i = 0; i < a->n_stats_map; i++) {
        assert_string_equal(a->stats_map[i].key, b->stats_map[i].key);
        assert_int_equal(a->stats_map[i].value, b->stats_map[i].value);
    }
    assert_int_equal(a->n_by_id, b->n_by_id);
    for (size_t i = 0; i < a->n_by_id; i++) {
        assert_int_equal(a->by_id[i].key, b->by_id[i].key);
        same_stats(&a->by_id[i].value, &b->by_id[i].value);
    }
    if (!a->next || !b->next)
        assert_ptr_equal(a->next, b->next);
    else
        same(a->next, b->next);
}

/* ---- tests ---------------------------------------------------------------------- */

static void test_round_trip(void **state)
{
    (void)state;
    sv_schema *s = make_schema();
    const sv_schema_class *ec = sv_schema_class_by_name(s, "Everything", 10);
    assert_non_null(ec);
    assert_ptr_equal(ec->c, &everything_class);
    Everything in;
    fill(&in);

    sv_error err;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v1;
    assert_int_equal(sv_struct_to_value(s, ec, &in, doc, &v1, &err), SV_OK);

    /* a few members as the typed JSON shows them */
    sv_buf text;
    sv_buf_init(&text, NULL);
    assert_int_equal(sv_json_encode(&v1, NULL, &text, &err), SV_OK);
    sv_buf_putc(&text, 0);
    const char *t = (const char *)text.data;
    assert_non_null(strstr(t, "\"i8\":{\"$i8\":-128}"));
    assert_non_null(strstr(t, "\"u64\":{\"$u64\":\"18446744073709551615\"}"));
    assert_non_null(strstr(t, "\"wstr\":{\"$utf16\":\"w\xc3\xa9ide\"}"));
    assert_non_null(strstr(t, "\"blob\":{\"$bytes\":\"AAEC/w==\"}"));
    assert_non_null(strstr(t, "\"uuid\":{\"$uuid\":\"00112233-4455-6677-8899-aabbccddeeff\"}"));
    assert_non_null(strstr(t, "\"mood\":{\"$enum\":{\"$i32\":-1}}"));
    assert_non_null(strstr(t, "\"flags\":{\"$enum\":{\"$u16\":32769}}"));
    assert_non_null(strstr(t, "\"main_hand\":{\"$class\":\"Weapon\",\"kind\":{\"$u32\":2},"
                              "\"id\":{\"$u32\":10},\"name\":\"sword\",\"damage\":{\"$f32\":2.5},"
                              "\"element\":{\"$enum\":{\"$u8\":1}}}"));
    assert_non_null(strstr(t, "\"nothing\":null"));
    assert_non_null(strstr(t, "\"extra\":null"));
    assert_non_null(strstr(t, "\"pr\":[{\"$u8\":200},-1.5e-300]"));
    assert_non_null(strstr(t, "\"tup\":[\"a\",{\"$i16\":-9},{\"$vector3\":[1.0,2.0,3.5]}]"));
    assert_non_null(strstr(t, "\"stats_map\":{\"str\":{\"$i32\":18},\"dex\":{\"$i32\":-3}}"));
    assert_non_null(
        strstr(t, "\"by_id\":{\"$map\":[[{\"$u32\":7},{\"$class\":\"Stats\",\"hp\":{\"$i32\":70},"
                  "\"luck\":0.07}]]}"));

    /* typed JSON back to a tree: the same tree */
    sv_doc *doc2 = sv_doc_new(NULL);
    sv_value v2;
    assert_int_equal(sv_json_decode(doc2, t, strlen(t), NULL, &v2, &err), SV_OK);
    assert_true(sv_equal(&v1, &v2));

    /* and to a struct, through a counting allocator */
    test_alloc ta;
    test_alloc_init(&ta, 0);
    Everything out;
    if (sv_value_to_struct(s, ec, &v2, &ta.alloc, &out, &err))
        fail_msg("%s at %s", err.message, err.path);
    same(&in, &out);
    assert_true(ta.live_bytes > 0);

    /* the struct made gives the same tree again */
    sv_value v3;
    assert_int_equal(sv_struct_to_value(s, ec, &out, doc2, &v3, &err), SV_OK);
    assert_true(sv_equal(&v1, &v3));

    sv_struct_free(s, ec, &out, &ta.alloc);
    assert_int_equal(ta.live_bytes, 0);
    for (size_t i = 0; i < sizeof out; i++)
        assert_int_equal(((uint8_t *)&out)[i], 0);
    sv_buf_free(&text);
    sv_doc_free(doc2);
    sv_doc_free(doc);
    sv_schema_free(s);
}

/* Plain JSON fills a struct; members left out take zero (or their default). */
static void test_plain_json(void **state)
{
    (void)state;
    sv_schema *s = make_schema();
    const sv_schema_class *ec = sv_schema_class_by_name(s, "Everything", 10);
    static const char text[] =
        "{\"u8\": 7, \"str\": \"x\", \"v3\": [1, 2, 3], \"mood\": \"Glad\", \"flags\": \"A|B\","
        " \"ids\": [5, 6], \"main_hand\": {\"$class\": \"Shield\", \"kind\": 1, \"armor\": 9},"
        " \"bonus\": 0.5, \"uuid\": \"{00112233-4455-6677-8899-AABBCCDDEEFF}\"}";
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    assert_int_equal(sv_json_decode(doc, text, sizeof text - 1, NULL, &v, &err), SV_OK);
    Everything e;
    if (sv_value_to_struct(s, ec, &v, NULL, &e, &err)) fail_msg("%s at %s", err.message, err.path);
    assert_int_equal(e.u8, 7);
    assert_string_equal(e.str, "x");
    assert_string_equal(e.wstr, ""); /* left out: an empty string */
    assert_true(e.v3[2] == 3.0f);
    assert_int_equal(e.mood, MOOD_GLAD);
    assert_int_equal(e.flags, 3);
    assert_int_equal(e.n_ids, 2);
    assert_int_equal(e.ids[1], 6);
    assert_true(e.has_bonus);
    assert_false(e.has_nick);
    assert_null(e.next);
    assert_int_equal(e.uuid.b[15], 0xff);
    /* the pointee is a Shield; its class id member says so, whatever the JSON said */
    assert_non_null(e.main_hand);
    assert_int_equal(e.main_hand->kind, 3);
    assert_int_equal(((Shield *)e.main_hand)->armor, 9);
    sv_struct_free(s, ec, &e, NULL);
    sv_doc_free(doc);
    sv_schema_free(s);
}

/* A value that fails half-way leaves nothing allocated; so does every
 * allocation failure on the way. */
static void test_failures_leak_nothing(void **state)
{
    (void)state;
    sv_schema *s = make_schema();
    const sv_schema_class *ec = sv_schema_class_by_name(s, "Everything", 10);
    Everything in;
    fill(&in);
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    assert_int_equal(sv_struct_to_value(s, ec, &in, doc, &v, &err), SV_OK);
    for (long n = 1;; n++) {
        test_alloc ta;
        test_alloc_init(&ta, n);
        Everything out;
        sv_status st = sv_value_to_struct(s, ec, &v, &ta.alloc, &out, &err);
        if (st == SV_OK) {
            same(&in, &out);
            sv_struct_free(s, ec, &out, &ta.alloc);
            assert_int_equal(ta.live_bytes, 0);
            assert_true(n > 20);
            break;
        }
        assert_int_equal(st, SV_ERR_NOMEM);
        assert_int_equal(ta.live_bytes, 0);
    }
    /* a NUL inside a string cannot become a char * */
    static const char text[] = "{\"tags\": [\"ok\", \"x\\u0000y\"], \"str\": \"s\"}";
    sv_value bad;
    assert_int_equal(sv_json_decode(doc, text, sizeof text - 1, NULL, &bad, &err), SV_OK);
    test_alloc ta;
    test_alloc_init(&ta, 0);
    Everything out;
    assert_int_equal(sv_value_to_struct(s, ec, &bad, &ta.alloc, &out, &err), SV_ERR_RANGE);
    assert_string_equal(err.path, "/tags/1");
    assert_string_equal(err.message, "string holds a NUL byte, which char * cannot");
    assert_int_equal(ta.live_bytes, 0);
    sv_doc_free(doc);
    sv_schema_free(s);
}

/* A pointer cycle in C data ends in an error, not a stack overflow. */
static void test_pointer_cycle(void **state)
{
    (void)state;
    sv_schema *s = make_schema();
    const sv_schema_class *ec = sv_schema_class_by_name(s, "Everything", 10);
    Everything e;
    memset(&e, 0, sizeof e);
    e.next = &e;
    sv_doc *doc = sv_doc_new(NULL);
    sv_value v;
    sv_error err;
    assert_int_equal(sv_struct_to_value(s, ec, &e, doc, &v, &err), SV_ERR_DEPTH);
    sv_doc_free(doc);
    sv_schema_free(s);
}

/* Descriptors that do not fit their types are refused at finalize. */
typedef struct Bad {
    uint16_t small;
    float *items;
    size_t n;
    int32_t opt;
    bool has_opt;
    char *m;
} Bad;

static void bind_one(const sv_cclass *c, sv_status want, const char *path, const char *msg)
{
    sv_error err;
    sv_schema *s = sv_schema_new(NULL);
    sv_status st = sv_schema_bind(s, c, &err);
    if (!st) st = sv_schema_finalize(s, &err);
    assert_int_equal(st, want);
    assert_string_equal(err.path, path);
    assert_string_equal(err.message, msg);
    sv_schema_free(s);
}

static void test_bad_bindings(void **state)
{
    (void)state;
    static const sv_cfield wrong_size[] = {SV_CFIELD_PLAIN(Bad, small, _, "u32")};
    static const sv_cfield no_count[] = {SV_CFIELD_PLAIN(Bad, items, _, "vector<f32>")};
    static const sv_cfield no_flag[] = {SV_CFIELD_PLAIN(Bad, opt, _, "optional<i32>")};
    static const sv_cfield extra_aux[] = {SV_CFIELD_COUNTED(Bad, opt, n, "i32")};
    static const sv_cfield a_map[] = {SV_CFIELD_PLAIN(Bad, m, _, "map<string,i32>")};
    static const sv_cfield an_any[] = {SV_CFIELD_PLAIN(Bad, m, _, "any")};
    static const sv_cfield map_any[] = {SV_CFIELD_COUNTED(Bad, m, n, "map<string,any>")};
    static const sv_cfield unbound[] = {SV_CFIELD_PLAIN(Bad, m, _, "ptr<Nope>")};
    static const sv_cclass c1 = SV_CCLASS(Bad, NULL, wrong_size);
    static const sv_cclass c2 = SV_CCLASS(Bad, NULL, no_count);
    static const sv_cclass c3 = SV_CCLASS(Bad, NULL, no_flag);
    static const sv_cclass c4 = SV_CCLASS(Bad, NULL, extra_aux);
    static const sv_cclass c5 = SV_CCLASS(Bad, NULL, a_map);
    static const sv_cclass c6 = SV_CCLASS(Bad, NULL, unbound);
    static const sv_cclass c7 = SV_CCLASS_ID(Bad, NULL, wrong_size, "small", 1);
    static const sv_cclass c8 = SV_CCLASS(Bad, NULL, an_any);
    static const sv_cclass c9 = SV_CCLASS(Bad, NULL, map_any);
    bind_one(&c1, SV_ERR_TYPE, "/classes/0/fields/0",
             "field 'small': member is 2 bytes, type 'u32' needs 4");
    bind_one(&c2, SV_ERR_TYPE, "/classes/0/fields/0",
             "field 'items': type 'vector<f32>' needs a count member (COUNTED)");
    bind_one(&c3, SV_ERR_TYPE, "/classes/0/fields/0",
             "field 'opt': type 'optional<i32>' needs a presence member (OPTIONAL)");
    bind_one(&c4, SV_ERR_TYPE, "/classes/0/fields/0",
             "field 'opt': type 'i32' takes no count or presence member");
    bind_one(&c5, SV_ERR_TYPE, "/classes/0/fields/0",
             "field 'm': type 'map<string,i32>' needs a count member (COUNTED)");
    bind_one(&c8, SV_ERR_UNSUPPORTED, "/classes/0/fields/0/type",
             "field 'm': type 'any' has no C form");
    bind_one(&c9, SV_ERR_UNSUPPORTED, "/classes/0/fields/0/type",
             "field 'm': type 'map<string,any>' has no C form");
    bind_one(&c6, SV_ERR_NOT_FOUND, "/classes/0/fields/0/type", "unknown type 'Nope'");
    bind_one(&c7, SV_ERR_TYPE, "/classes/0/fields/0",
             "field 'small': member is 2 bytes, type 'u32' needs 4");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_plain_json),
        cmocka_unit_test(test_failures_leak_nothing),
        cmocka_unit_test(test_pointer_cycle),
        cmocka_unit_test(test_bad_bindings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
