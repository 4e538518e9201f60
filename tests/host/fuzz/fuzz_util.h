/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tests/host/fuzz/fuzz_util.h - shared pieces of the libFuzzer harnesses.
 *
 * The parsers read memory only through a map callback that is told the
 * exact length it will read (drivers/acpi.h, kernel/bootinfo.h).  The
 * harnesses hold them to that: every successful map() returns a fresh
 * heap copy of exactly the bytes asked for, so reading one byte past what
 * was mapped is a heap-buffer-overflow under ASan even when the bytes
 * exist in the input.  The copies live until fuzz_unmap_all(), which each
 * harness calls at the end of an input (the parsers may keep a mapping
 * until they return).
 */
#ifndef TESTS_HOST_FUZZ_FUZZ_UTIL_H
#define TESTS_HOST_FUZZ_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Give up (as "not mapped") after this many mappings of one input. */
#define FUZZ_MAX_MAPS (1u << 17)

static void **fuzz_maps;
static size_t fuzz_nmaps, fuzz_maps_cap;

static inline const void *fuzz_copy(const uint8_t *src, uint64_t len)
{
	uint8_t *p;

	if (fuzz_nmaps == fuzz_maps_cap) {
		size_t cap = fuzz_maps_cap ? 2 * fuzz_maps_cap : 256;

		if (cap > FUZZ_MAX_MAPS)
			return NULL;
		fuzz_maps = realloc(fuzz_maps, cap * sizeof(*fuzz_maps));
		if (!fuzz_maps)
			abort();
		fuzz_maps_cap = cap;
	}
	/* malloc(0) may return NULL; a zero-length map is still a pointer */
	p = malloc(len ? len : 1);
	if (!p)
		abort();
	if (len)
		memcpy(p, src, len);
	fuzz_maps[fuzz_nmaps++] = p;
	return p;
}

static inline void fuzz_unmap_all(void)
{
	while (fuzz_nmaps)
		free(fuzz_maps[--fuzz_nmaps]);
}

static inline uint16_t fuzz_le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t fuzz_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t fuzz_le64(const uint8_t *p)
{
	return (uint64_t)fuzz_le32(p) | (uint64_t)fuzz_le32(p + 4) << 32;
}

/* An invariant the parser promises was broken: crash so libFuzzer saves it. */
#define FUZZ_CHECK(cond)                                                 \
	do {                                                             \
		if (!(cond)) {                                           \
			fprintf(stderr, "%s:%d: invariant broken: %s\n", \
				__FILE__, __LINE__, #cond);              \
			abort();                                         \
		}                                                        \
	} while (0)

/* FUZZ_DEBUG=1 in the environment: say what each input gave (seeds). */
static inline int fuzz_debug(void)
{
	static int on = -1;

	if (on < 0)
		on = getenv("FUZZ_DEBUG") != NULL;
	return on;
}

/* @err (size @len > 0) holds a NUL-terminated string. */
#define FUZZ_CHECK_STR(err, len) FUZZ_CHECK(memchr((err), 0, (len)) != NULL)

#endif /* TESTS_HOST_FUZZ_FUZZ_UTIL_H */
