/* KingsIsle's hashes against the spec's §2 vectors (katsuba's hashing.rs,
 * katsuba-types' test data, the fixture type list, Imcodec's tests) and the
 * edge cases that tell the string_id variants apart. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "serval/kingsisle.h"

static uint32_t sid(const char *s) { return sv_kingsisle_string_id(s, strlen(s)); }

static void test_string_id(void **state)
{
    (void)state;
    assert_int_equal(sid("std::string"), 1497788074u);
    assert_int_equal(sid("class FishTournamentEntry"), 1725212200u);
    assert_int_equal(sid("class NonCombatMayCastSpellTemplate*"), 920052956u);
    assert_int_equal(sid("class Matrix3x3"), 1479974833u);
    assert_int_equal(sid("class EquipmentSetList"), 135649998u);
    assert_int_equal(sid("class PropertyClass"), 723888169u);
    assert_int_equal(sid("class PetSnackBehaviorTemplate"), 1956226406u);
    assert_int_equal(sid("class LootInfoList"), 1214710570u);
    assert_int_equal(sid("class MagicXPLootInfo"), 1701545865u);
    assert_int_equal(sid("class GoldLootInfo"), 461650270u);
    assert_int_equal(sid("Hello, world!"), 804074800u);
    assert_int_equal(sid("Lorem ipsum dolor sit amet"), 249896619u);
    /* §9 A, B, C: tags in fixture bytes */
    assert_int_equal(sid("class AllScalars"), 1534054483u);
    assert_int_equal(sid(""), 0u);
}

static void test_string_id_edges(void **state)
{
    (void)state;
    /* the shl/sar variant (not katsuba's rotate, 1040187394) */
    assert_int_equal(sv_kingsisle_string_id("AAAAA\x01", 6), 1073741822u);
    /* unsigned bytes (not libki's signed char, 121671779) */
    assert_int_equal(sv_kingsisle_string_id("caf\xC3\xA9", 5), 146837603u);
}

static void test_djb2(void **state)
{
    (void)state;
    assert_int_equal(sv_kingsisle_djb2("m_packedName", 12), 307420154u);
    assert_int_equal(sv_kingsisle_djb2("", 0), 5381u);
}

static void test_property_hash(void **state)
{
    (void)state;
    /* katsuba-types: m_equipmentSetList of class SharedPointer<class EquipmentSet> */
    const char *t = "class SharedPointer<class EquipmentSet>";
    assert_int_equal(sv_kingsisle_property_hash(t, strlen(t), "m_equipmentSetList", 18),
                     1788831224u);
    /* §2.3: the sum passes 2^31 */
    t = "class ListElement";
    assert_int_equal(sv_kingsisle_property_hash(t, strlen(t), "m_elements", 10), 3208458572u);
    /* §9 C: deep-size-boundary's m_first */
    assert_int_equal(sv_kingsisle_property_hash("unsigned int", 12, "m_first", 7), 1005712149u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_string_id),
        cmocka_unit_test(test_string_id_edges),
        cmocka_unit_test(test_djb2),
        cmocka_unit_test(test_property_hash),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
