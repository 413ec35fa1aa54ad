// Differential check of serval's O3DE number text against RapidJSON's
// Writer::Double(), the writer O3DE uses. Test-only C++, built by
// rapidjson_diff.sh. Usage: rapidjson_diff COUNT
//   prints "ok N" and exits 0 when every text matches; prints the first
//   mismatches and exits 1 otherwise.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "serval/o3de.h"

static uint64_t state = UINT64_C(0x9e3779b97f4a7c15);

// xorshift64*: fixed seed, so a failure comes back on the next run
static uint64_t next_u64()
{
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * UINT64_C(2685821657736338717);
}

static double from_bits(uint64_t u)
{
    double d;
    std::memcpy(&d, &u, sizeof d);
    return d;
}

static uint64_t to_bits(double d)
{
    uint64_t u;
    std::memcpy(&u, &d, sizeof u);
    return u;
}

static bool is_finite(double d) { return ((to_bits(d) >> 52) & 0x7ff) != 0x7ff; }

static const double pow10_table[] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};

// The i-th value: a mix of the shapes that matter to Grisu2 and Prettify.
static double value_at(uint64_t i)
{
    uint64_t r = next_u64();
    switch (i % 9) {
    case 0: return from_bits(r); // any bit pattern (non-finite ones skipped)
    case 1: { // a float widened to double, as O3DE stores float fields
        uint32_t b = static_cast<uint32_t>(r >> 32);
        float f;
        std::memcpy(&f, &b, sizeof f);
        return static_cast<double>(f);
    }
    case 2: return from_bits(r & UINT64_C(0x800fffffffffffff)); // subnormal (or zero)
    case 3: { // a power of two and its neighbours
        int e = static_cast<int>(r % 2098) - 1074;
        double p = e < -1022 ? from_bits(UINT64_C(1) << (e + 1074)) : std::ldexp(1.0, e);
        int step = static_cast<int>((r >> 20) % 5) - 2;
        return from_bits(to_bits(p) + static_cast<uint64_t>(static_cast<int64_t>(step)));
    }
    case 4: { // 2^53 and 2^54 neighbours, integers near the exact limit
        double base = (r & 1) ? 9007199254740992.0 : 18014398509481984.0;
        int64_t off = static_cast<int64_t>((r >> 8) % 2001) - 1000;
        return base + static_cast<double>(off);
    }
    case 5: { // short decimals as authored: k / 10^n
        int64_t k = static_cast<int64_t>((r >> 11) % 20000001) - 10000000;
        return static_cast<double>(k) / pow10_table[(r >> 4) % 10];
    }
    case 6: { // one ulp off a float, as arithmetic on widened floats gives
        uint32_t b = static_cast<uint32_t>(r >> 32) & 0x7f7fffffu;
        float f;
        std::memcpy(&f, &b, sizeof f);
        return from_bits(to_bits(static_cast<double>(f)) + ((r & 1) ? 1 : UINT64_C(-1)));
    }
    case 7: { // whole numbers of every size up to 2^53, some ending in zeros
        int bits = 1 + static_cast<int>(r % 53);
        uint64_t n = (r >> 11) & ((UINT64_C(1) << bits) - 1);
        uint64_t p = 1;
        for (int z = static_cast<int>((r >> 6) % 24); z > 0 && n / p >= 10; z--) p *= 10;
        double d = static_cast<double>(n / p * p);
        return (r & 0x20) ? -d : d;
    }
    default: { // near the layout limits: 1e21 and 1e-7
        double base = (r & 1) ? 1e21 : 1e-7;
        int64_t off = static_cast<int64_t>((r >> 8) % 201) - 100;
        return from_bits(to_bits(base) + static_cast<uint64_t>(off));
    }
    }
}

int main(int argc, char **argv)
{
    uint64_t count = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000;
    uint64_t checked = 0, wrong = 0;
    for (uint64_t i = 0; i < count; i++) {
        double d = value_at(i);
        if (!is_finite(d)) continue;
        rapidjson::StringBuffer sb;
        rapidjson::Writer<rapidjson::StringBuffer> w(sb);
        w.Double(d);
        char mine[64];
        size_t n = sv_o3de_format_double(d, mine);
        mine[n] = 0;
        checked++;
        if (std::strcmp(mine, sb.GetString()) != 0) {
            if (wrong < 20) std::printf("%a: RapidJSON '%s', serval '%s'\n", d, sb.GetString(), mine);
            wrong++;
        }
    }
    std::printf("%s %llu of %llu\n", wrong ? "MISMATCH" : "ok", static_cast<unsigned long long>(wrong ? wrong : checked),
                static_cast<unsigned long long>(checked));
    return wrong ? 1 : 0;
}
