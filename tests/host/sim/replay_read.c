// SPDX-License-Identifier: GPL-2.0
/*
 * tests/host/sim/replay_read.c - a trace file, plain or gzipped, through
 * the parser.  A malformed line is reported as "FILE:LINE: reason"; a
 * file that does not end with a newline, or a gzip stream that ends
 * early, is truncated.  Either way the caller exits 2.
 */
#include <stdio.h>
#include <string.h>
#include <zlib.h>

#include "tests/host/sim/replay.h"

/* No tracefs line comes near this. */
#define RP_LINE_MAX 4096

static int report(const struct rp_trace *tr, uint64_t line, const char *why)
{
	fprintf(stderr, "%s:%llu: %s\n", tr->name, (unsigned long long)line,
		why);
	return -1;
}

/**
 * rp_read_buf - parse the whole trace in @buf, then rp_finish()
 * @tr: an rp_trace_init()ed trace
 * @buf: the text
 * @len: its length
 * @err: "line N: reason" for a bad line, the reason for a bad trace
 * @errlen: its size
 *
 * Returns 0 or -1.
 */
int rp_read_buf(struct rp_trace *tr, const char *buf, size_t len, char *err,
		size_t errlen)
{
	char why[RP_ERR_LEN];
	size_t at = 0;

	while (at < len) {
		const char *nl = memchr(buf + at, '\n', len - at);

		if (!nl) {
			snprintf(err, errlen,
				 "line %llu: truncated (no newline at the end)",
				 (unsigned long long)tr->lines + 1);
			return -1;
		}
		if (rp_parse_line(tr, buf + at, (size_t)(nl - (buf + at)), why,
				  sizeof(why))) {
			snprintf(err, errlen, "line %llu: %s",
				 (unsigned long long)tr->lines, why);
			return -1;
		}
		at = (size_t)(nl - buf) + 1;
	}
	if (rp_finish(tr, why, sizeof(why))) {
		snprintf(err, errlen, "%s", why);
		return -1;
	}
	return 0;
}

/**
 * rp_read_file - parse the trace in file @path (gzip or plain), then
 * rp_finish()
 * @tr: an rp_trace_init()ed trace, named @path
 * @path: the file
 *
 * Returns 0, or -1 after printing "path:line: reason" (a bad line) or
 * "path: reason" (a trace rp_finish() refuses) on stderr.
 */
int rp_read_file(struct rp_trace *tr, const char *path)
{
	char line[RP_LINE_MAX + 2], why[RP_ERR_LEN];
	int zerr = Z_OK;
	gzFile f = gzopen(path, "rb");

	if (!f) {
		perror(path);
		return -1;
	}
	while (gzgets(f, line, sizeof(line))) {
		size_t n = strlen(line);

		if (n && line[n - 1] != '\n') {
			gzerror(f, &zerr);
			gzclose(f);
			if (n > RP_LINE_MAX)
				return report(tr, tr->lines + 1,
					      "line too long");
			return report(
				tr, tr->lines + 1,
				zerr != Z_OK ?
					"truncated or corrupt gzip data" :
					"truncated (no newline at the end)");
		}
		if (rp_parse_line(tr, line, n - 1, why, sizeof(why))) {
			gzclose(f);
			return report(tr, tr->lines, why);
		}
	}
	gzerror(f, &zerr);
	gzclose(f);
	if (zerr != Z_OK)
		return report(tr, tr->lines + 1,
			      "truncated or corrupt gzip data");
	if (rp_finish(tr, why, sizeof(why))) {
		/* Not one line's fault: the whole trace, or --nodes. */
		fprintf(stderr, "%s: %s\n", tr->name, why);
		return -1;
	}
	return 0;
}
