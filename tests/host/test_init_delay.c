// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/test_init_delay.c - arch/x86_64/init_delay.h: which CPUs skip
 * the 10 ms wait after INIT, and that cpu_init_udelay= overrides it.
 */
#include "tests/host/registry.h"
#include "arch/x86_64/init_delay.h"

/* CPUID.01H:EAX for @family (base 0..0xF, extended above) and model 1. */
static uint32_t eax_for(unsigned family)
{
	if (family < 0xF)
		return family << 8 | 0x10;
	return 0xFu << 8 | (family - 0xF) << 20 | 0x10;
}

START_TEST(test_family_decoding)
{
	ck_assert_uint_eq(cpuid_family(eax_for(6)), 6);
	ck_assert_uint_eq(cpuid_family(eax_for(0xF)), 0xF);
	ck_assert_uint_eq(cpuid_family(eax_for(0x19)), 0x19);
	/* QEMU's qemu64 model: AMD family 15, model 107, stepping 1. */
	ck_assert_uint_eq(cpuid_family(0x000006b1 | 0xF00), 0xF);
}
END_TEST

START_TEST(test_modern_cpus_skip_the_wait)
{
	ck_assert_uint_eq(init_udelay_for("GenuineIntel", eax_for(6),
					  INIT_UDELAY_UNSET),
			  0);
	ck_assert_uint_eq(init_udelay_for("AuthenticAMD", eax_for(0xF),
					  INIT_UDELAY_UNSET),
			  0);
	ck_assert_uint_eq(init_udelay_for("AuthenticAMD", eax_for(0x19),
					  INIT_UDELAY_UNSET),
			  0);
	ck_assert_uint_eq(init_udelay_for("HygonGenuine", eax_for(0x18),
					  INIT_UDELAY_UNSET),
			  0);
}
END_TEST

START_TEST(test_old_or_unknown_cpus_wait_10ms)
{
	ck_assert_uint_eq(init_udelay_for("GenuineIntel", eax_for(5),
					  INIT_UDELAY_UNSET),
			  INIT_UDELAY_LEGACY);
	ck_assert_uint_eq(init_udelay_for("AuthenticAMD", eax_for(6),
					  INIT_UDELAY_UNSET),
			  INIT_UDELAY_LEGACY);
	ck_assert_uint_eq(init_udelay_for("CentaurHauls", eax_for(6),
					  INIT_UDELAY_UNSET),
			  INIT_UDELAY_LEGACY);
}
END_TEST

START_TEST(test_command_line_overrides)
{
	ck_assert_uint_eq(init_udelay_for("GenuineIntel", eax_for(6), 10000),
			  10000);
	ck_assert_uint_eq(init_udelay_for("GenuineIntel", eax_for(5), 0), 0);
	ck_assert_uint_eq(init_udelay_for("CentaurHauls", eax_for(6), 250),
			  250);
}
END_TEST

static Suite *init_delay_suite(void)
{
	Suite *s = suite_create("init_delay");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_family_decoding);
	tcase_add_test(tc, test_modern_cpus_skip_the_wait);
	tcase_add_test(tc, test_old_or_unknown_cpus_wait_10ms);
	tcase_add_test(tc, test_command_line_overrides);
	suite_add_tcase(s, tc);
	return s;
}
HOST_SUITE(init_delay_suite);
