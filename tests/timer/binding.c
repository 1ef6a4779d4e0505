// SPDX-License-Identifier: GPL-2.0-only
/*
 * The timer interrupt the kernel took is the one the device tree names for
 * the timer a kernel at this exception level must drive: "virt" at EL1,
 * "hyp-phys" at EL2 with VHE, "phys" under KVM's nVHE host.  With
 * interrupt-names the entries may come in any order (VARIANT=timer-dt
 * shuffles them), so a driver that took them by position would be caught
 * here.  The facts come from /proc/device-tree and /proc/interrupts, and
 * the exception level from the arch code's own boot lines, not from the
 * timer driver's.
 *
 * The timer's output is a level: the interrupt must be configured so
 * whatever the firmware says (VARIANT=timer-edge calls it edge-triggered).
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>

#include "ktap.h"
#include "readfile.h"

#define DT_ROOT "/proc/device-tree"
#define GIC_PPI_BASE 16

/* Does the string list (a DT property) of n bytes hold s? Its index or -1 */
static int strlist_index(const char *list, int n, const char *s)
{
	int off, i = 0;

	for (off = 0; off < n; off += strlen(list + off) + 1, i++)
		if (!strcmp(list + off, s))
			return i;
	return -1;
}

/* The timer node's directory under DT_ROOT, or -1 */
static int timer_node(char *path, size_t len)
{
	char compat[256], p[512];
	struct dirent *de;
	DIR *d = opendir(DT_ROOT);
	int n;

	while (d && (de = readdir(d))) {
		snprintf(p, sizeof(p), DT_ROOT "/%s/compatible", de->d_name);
		n = read_file(p, compat, sizeof(compat));
		if (n > 0 && (strlist_index(compat, n, "arm,armv8-timer") >= 0 ||
			      strlist_index(compat, n, "arm,armv7-timer") >= 0)) {
			snprintf(path, len, DT_ROOT "/%s", de->d_name);
			closedir(d);
			return 0;
		}
	}
	if (d)
		closedir(d);
	return -1;
}

/*
 * The GIC interrupt id the node gives timer @name: by interrupt-names when
 * the node has them, else by the binding's fixed order.  -1 when absent.
 */
static int dt_timer_intid(const char *node, const char *name)
{
	static const char *const order[] = {
		"sec-phys", "phys", "virt", "hyp-phys", "hyp-virt",
	};
	char names[256], p[600];
	unsigned char cells[20 * 12];
	int n, idx = -1, i;

	snprintf(p, sizeof(p), "%s/interrupt-names", node);
	n = read_file(p, names, sizeof(names));
	if (n > 0) {
		idx = strlist_index(names, n, name);
	} else {
		for (i = 0; i < 5; i++)
			if (!strcmp(order[i], name))
				idx = i;
	}
	snprintf(p, sizeof(p), "%s/interrupts", node);
	n = read_file(p, (char *)cells, sizeof(cells));
	/* GIC specifiers: <type number flags>, big-endian cells */
	if (idx < 0 || n < (idx + 1) * 12)
		return -1;
	{
		const unsigned char *c = cells + idx * 12;
		uint32_t type = (uint32_t)c[0] << 24 | c[1] << 16 | c[2] << 8 | c[3];
		uint32_t num = (uint32_t)c[4] << 24 | c[5] << 16 | c[6] << 8 | c[7];

		if (type != 1)	/* GIC_PPI */
			return -1;
		return (int)num + GIC_PPI_BASE;
	}
}

/*
 * The GIC interrupt id of the "arch_timer" line of /proc/interrupts, or -1;
 * @trigger gets its "Level" or "Edge".
 */
static int taken_intid(char *trigger, size_t len)
{
	FILE *f = fopen("/proc/interrupts", "re");
	char line[512];
	int id = -1;

	snprintf(trigger, len, "(none)");
	/* "IRQ: <a count per CPU> <chip> <hwirq> <Level|Edge> arch_timer" */
	while (f && fgets(line, sizeof(line), f)) {
		char *tok, *save = NULL, *prev[2] = { NULL, NULL };

		if (!strstr(line, " arch_timer"))
			continue;
		for (tok = strtok_r(line, " \t\n", &save); tok;
		     tok = strtok_r(NULL, " \t\n", &save)) {
			if (!strcmp(tok, "arch_timer") && prev[0] && prev[1]) {
				id = atoi(prev[1]);
				snprintf(trigger, len, "%s", prev[0]);
				break;
			}
			prev[1] = prev[0];
			prev[0] = tok;
		}
		break;
	}
	if (f)
		fclose(f);
	return id;
}

static char *kernel_log(void)
{
	int size = klogctl(10, NULL, 0);
	char *buf;
	int n;

	if (size <= 0)
		return NULL;
	buf = malloc(size + 1);
	if (!buf)
		return NULL;
	n = klogctl(3, buf, size);
	if (n < 0) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

int main(void)
{
	char node[512], trigger[16];
	const char *want;
	char *log;
	int dt, taken;

	ktap_plan(2);
	taken = taken_intid(trigger, sizeof(trigger));
	ktap_result(taken > 0 && !strcmp(trigger, "Level"), "timer_irq_level",
		    "arch_timer (interrupt %d) is configured %s, not Level",
		    taken, trigger);

	if (timer_node(node, sizeof(node))) {
		ktap_skip("timer_irq_from_dt", "no timer node in %s (ACPI boot?)",
			  DT_ROOT);
		return ktap_finish();
	}
	log = kernel_log();
	if (!log) {
		ktap_result(0, "timer_irq_from_dt", "cannot read the kernel log: %s",
			    strerror(errno));
		return ktap_finish();
	}
	if (!strstr(log, "started at EL2"))
		want = "virt";
	else if (strstr(log, "Virtualization Host Extensions"))
		want = "hyp-phys";
	else
		want = "phys";
	free(log);

	dt = dt_timer_intid(node, want);
	ktap_diag("device tree gives \"%s\" as interrupt %d; arch_timer is interrupt %d",
		  want, dt, taken);
	ktap_result(dt > 0 && dt == taken, "timer_irq_from_dt",
		    "want the \"%s\" timer, interrupt %d; arch_timer took %d",
		    want, dt, taken);
	return ktap_finish();
}
