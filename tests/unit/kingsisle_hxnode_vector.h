/* A KingsIsle deep-mode vector worked out by hand from the format's size
 * rules, shared by the streaming tests (test_kingsisle_stream_out.c,
 * test_kingsisle_seekable_sink.c). */
#ifndef SERVAL_TEST_KINGSISLE_HXNODE_H
#define SERVAL_TEST_KINGSISLE_HXNODE_H

#include <stdint.h>

/* class HxNode (0x11223344) {m_value u32 (hash 0x0A0B0C0D), m_next class
 * HxNode* (hash 0x01020304)}: HxNode{1, HxNode{2, null}} deep. Sizes: a
 * u32 property 96 bits, the inner object 32 + 96 + 96 = 224, the outer
 * m_next 64 + 32 + 224 = 320, the outer object 32 + 96 + 320 = 448. */
static const char hxnode[] =
    "{\"version\": 2, \"classes\": {\"287454020\": {\"name\": \"class HxNode\","
    " \"hash\": 287454020, \"properties\": {"
    "  \"m_value\": {\"type\": \"unsigned int\", \"id\": 0, \"flags\": 31, \"hash\": 168496141},"
    "  \"m_next\": {\"type\": \"class HxNode*\", \"id\": 1, \"flags\": 31, \"pointer\": true,"
    "              \"hash\": 16909060}}}}}";

static const uint8_t linked[] = {
    0x44, 0x33, 0x22, 0x11, 0xc0, 0x01, 0x00, 0x00,                         /* tag, 448 */
    0x60, 0x00, 0x00, 0x00, 0x0d, 0x0c, 0x0b, 0x0a, 0x01, 0x00, 0x00, 0x00, /* m_value 1 */
    0x40, 0x01, 0x00, 0x00, 0x04, 0x03, 0x02, 0x01,                         /* m_next, 320 */
    0x44, 0x33, 0x22, 0x11, 0xe0, 0x00, 0x00, 0x00,                         /*   tag, 224 */
    0x60, 0x00, 0x00, 0x00, 0x0d, 0x0c, 0x0b, 0x0a, 0x02, 0x00, 0x00, 0x00, /* m_value 2 */
    0x60, 0x00, 0x00, 0x00, 0x04, 0x03, 0x02, 0x01, 0x00, 0x00, 0x00, 0x00, /* m_next null */
};

#endif
