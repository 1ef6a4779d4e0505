// SPDX-License-Identifier: GPL-2.0-only
/*
 * The KUnit suites the kernel ran at boot, as our results: each case of
 * each suite in /sys/kernel/debug/kunit/<suite>/results (KTAP, with the
 * suite's cases one level in) becomes the case "<suite>.<case>" here, so
 * that a failed KUnit case fails the run.  A case whose result line is
 * missing fails too: KUnit keeps 512 bytes of log per case, and a case
 * that printed more loses its "ok"/"not ok" line.
 *
 * One more case, "expected_suites": a kernel built with our timer driver
 * must have run its suites.  Which driver the kernel has is read from
 * /proc/kallsyms; a kernel without ours (stock) expects none and skips.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "ktap.h"

#define DEBUGFS		"/sys/kernel/debug"
#ifndef KUNIT_DIR
#define KUNIT_DIR	DEBUGFS "/kunit"
#endif
#define MAX_CASES	512

/* The suites of our timer driver, and a symbol only that driver has */
static const char *const timer_suites[] = { "arm_generic", "arm_generic_frame" };
#define TIMER_SYMBOL	"agt_cpu_starting"

struct kcase {
	char name[416];
	int ok, skip;
	char why[224];
};

static struct kcase cases[MAX_CASES];
static int ncases;

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "re");
	size_t len = 0, cap = 0, n;
	char *buf = NULL;

	if (!f)
		return NULL;
	do {
		if (len + 4096 + 1 > cap) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap);
			if (!buf)
				break;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
	} while (n > 0);
	fclose(f);
	if (buf)
		buf[len] = '\0';
	return buf;
}

static int kernel_has_symbol(const char *sym)
{
	char *all = slurp("/proc/kallsyms");
	char want[128];
	int found;

	if (!all)
		return -1;
	snprintf(want, sizeof(want), " %s\n", sym);
	found = strstr(all, want) != NULL;
	free(all);
	return found;
}

static void add_case(const char *suite, const char *name, int ok, int skip,
		     const char *why)
{
	struct kcase *c;

	if (ncases == MAX_CASES)
		return;
	c = &cases[ncases++];
	snprintf(c->name, sizeof(c->name), "%s.%s", suite, name);
	c->ok = ok;
	c->skip = skip;
	snprintf(c->why, sizeof(c->why), "%s", why ? why : "");
}

/*
 * Where the next case result starts at or after @p: "ok " or "not ok "
 * behind exactly four spaces at the start of a line, or glued to the end
 * of the case before it (behind four spaces or more).  KUnit (6.1) keeps
 * 512 bytes of log per case, its result line included, and cuts what does
 * not fit anywhere, even inside a line: a case whose log filled up ends
 * without a newline, and the next case's lines follow on the same line.
 * Deeper lines (a parameterised case's own sub-results, summed up by its
 * line) are not case results.
 */
static const char *next_result(const char *p, const char *text)
{
	for (; *p; p++) {
		const char *q = p;
		int n = 0;

		if (strncmp(p, "ok ", 3) && strncmp(p, "not ok ", 7))
			continue;
		while (q > text && q[-1] == ' ')
			q--, n++;
		if (n == 4 || (n > 4 && q > text && q[-1] != '\n'))
			return p;
	}
	return NULL;
}

/*
 * One suite's results file: its plan, then each case's log and result
 * line.  Numbers say which cases reported: one that did not, failed.  A
 * result line cut short (the next case follows on it) keeps its number
 * and its ok/not ok; its name is what is left of it.
 */
static void read_suite(const char *suite)
{
	char path[512], *text, *plan;
	const char *r, *next;
	int planned = -1, i;
	char got[MAX_CASES] = { 0 };

	snprintf(path, sizeof(path), KUNIT_DIR "/%s/results", suite);
	text = slurp(path);
	if (!text) {
		add_case(suite, "results", 0, 0, "cannot read the suite's results");
		return;
	}
	plan = strstr(text, "\n    1..");
	if (plan)
		sscanf(plan + 5, "1..%d", &planned);

	for (r = next_result(text, text); r; r = next) {
		int ok = r[0] == 'o', cut, num;
		const char *s = r + (ok ? 3 : 7), *e;
		char line[416], name[160] = "", why[224], *p, *directive;
		size_t len;

		next = next_result(s, text);
		e = strchr(s, '\n');
		if (!e)
			e = s + strlen(s);
		cut = next && next < e;
		if (cut)
			for (e = next; e > s && e[-1] == ' '; e--)
				;
		len = e - s < (long)sizeof(line) - 1 ? (size_t)(e - s) : sizeof(line) - 1;
		memcpy(line, s, len);
		line[len] = '\0';

		num = strtol(line, &p, 10);
		if (p == line || num <= 0)
			continue;
		while (*p == ' ')
			p++;
		if (!strncmp(p, "- ", 2))
			p += 2;
		sscanf(p, "%159s", name);
		if (num <= MAX_CASES)
			got[num - 1] = 1;
		if (cut) {
			char whole[160];

			/* what is left of the name; the number when nothing is */
			if (!name[0] || name[0] == '#')
				snprintf(name, sizeof(name), "case_%d", num);
			snprintf(whole, sizeof(whole), "%s", name);
			snprintf(name, sizeof(name), "%.140s(cut)", whole);
			snprintf(why, sizeof(why),
				 "%sits result line is cut short in KUnit's 512-byte log: \"%.60s\"",
				 ok ? "" : "the KUnit case failed (see the kernel log); ", line);
			add_case(suite, name, ok, 0, why);
			continue;
		}
		directive = strstr(p, " # SKIP");
		if (directive) {
			directive += 7;
			while (*directive == ' ')
				directive++;
			add_case(suite, name, 1, 1,
				 *directive ? directive : "skipped by KUnit");
		} else {
			add_case(suite, name, ok, 0, "the KUnit case failed (see the kernel log)");
		}
	}
	if (planned < 0) {
		add_case(suite, "plan", 0, 0, "no plan in the suite's results");
	} else {
		for (i = 0; i < planned && i < MAX_CASES; i++) {
			char missing[32];

			if (got[i])
				continue;
			snprintf(missing, sizeof(missing), "case_%d", i + 1);
			add_case(suite, missing, 0, 0,
				 "no result line (its 512-byte KUnit log is full?)");
		}
	}
	free(text);
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

int main(void)
{
	struct dirent **suites = NULL;
	int nsuites, i, j, ours, missing = 0;
	struct stat st;

	if (stat(KUNIT_DIR, &st) &&
	    mount("debugfs", DEBUGFS, "debugfs", 0, NULL) && errno != EBUSY) {
		ktap_plan(1);
		ktap_result(0, "debugfs", "cannot mount debugfs on %s: %s",
			    DEBUGFS, strerror(errno));
		return ktap_finish();
	}
	nsuites = scandir(KUNIT_DIR, &suites, NULL, by_name);
	for (i = 0; i < nsuites; i++) {
		if (suites[i]->d_name[0] != '.')
			read_suite(suites[i]->d_name);
	}

	ours = kernel_has_symbol(TIMER_SYMBOL);
	ktap_plan(ncases + 1);
	for (i = 0; i < ncases; i++) {
		if (cases[i].skip)
			ktap_skip(cases[i].name, "%s", cases[i].why);
		else
			ktap_result(cases[i].ok, cases[i].name, "%s", cases[i].why);
	}

	if (ours < 0) {
		ktap_result(0, "expected_suites", "cannot read /proc/kallsyms: %s",
			    strerror(errno));
	} else if (!ours) {
		ktap_skip("expected_suites",
			  "not our timer driver (no %s in /proc/kallsyms): no suites of ours expected",
			  TIMER_SYMBOL);
	} else {
		for (j = 0; j < (int)(sizeof(timer_suites) / sizeof(timer_suites[0])); j++) {
			int found = 0;

			for (i = 0; i < nsuites; i++)
				found |= !strcmp(suites[i]->d_name, timer_suites[j]);
			if (!found) {
				ktap_diag("suite %s did not run", timer_suites[j]);
				missing++;
			}
		}
		ktap_result(!missing, "expected_suites",
			    "%d of our timer driver's KUnit suites missing from %s (%s)",
			    missing, KUNIT_DIR,
			    nsuites < 0 ? strerror(errno) : "is CONFIG_CLKSRC_ARM_GENERIC_KUNIT_TEST on?");
	}
	for (i = 0; i < nsuites; i++)
		free(suites[i]);
	free(suites);
	return ktap_finish();
}
