// SPDX-License-Identifier: GPL-2.0-only
/*
 * ptp_kvm in a KVM guest of this kernel: the guest's half of KVM's PTP
 * service (kvm_arch_ptp_get_crosststamp(), in our generic timer driver)
 * asked of this kernel's half (arch/arm64/kvm/hypercalls.c, which answers
 * only while our counter is the host's clocksource).
 *
 * This program is its own virtual machine monitor: with /dev/kvm (the
 * kernel entered at EL2), it boots the kernel it runs on (/boot/Image, put
 * there by tools/guest-root) in a one-CPU VM with a device tree it writes
 * itself, and with itself as the guest's /init.  Run as PID 1 in that
 * guest, it reads the PTP clock and asks for a precise cross-timestamp,
 * and writes what it saw to /dev/kmsg, which the guest kernel's early
 * console (a PL011 data register the monitor emulates) prints.  The
 * monitor checks the guest's figures against its own clock:
 *  - the guest has /dev/ptp0 and it is ptp_kvm's;
 *  - the PTP clock reads the host's CLOCK_REALTIME: between the monitor's
 *    reads before the guest started and after the line arrived;
 *  - PTP_SYS_OFFSET_PRECISE works, its device time is the host's and its
 *    system time falls between the guest's own CLOCK_REALTIME reads around
 *    the call.  A count in the wrong view of the counter (virtual against
 *    physical: in a guest they differ by CNTVOFF_EL2, the host's uptime)
 *    fails the call or lands outside that window.
 * The guest's kernel log, quiet but for errors, is kept and printed when a
 * case fails.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/kvm.h>
#include <linux/ptp_clock.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cpu_time.h"
#include "ktap.h"

#define GUEST_KERNEL	"/boot/Image"
#define RAM_BASE	0x40000000ULL
#define RAM_SIZE	(128ULL << 20)
#define INITRD_OFF	(96ULL << 20)
#define DTB_OFF		(120ULL << 20)
#define GICD_BASE	0x08000000ULL
#define GICR_BASE	0x080a0000ULL
#define UART_BASE	0x09000000ULL
/* under the runner's 60 s, so that a hung guest is reported with its console */
#define RUN_SECONDS	45
#define TAG		"ptp-guest: "
#define NCASES		3

/* ---- the guest: PID 1 in the VM ---- */

static int kmsg = -1;

static void say(const char *fmt, ...)
{
	char line[256];
	va_list ap;
	int n;

	n = snprintf(line, sizeof(line), "<3>" TAG);
	va_start(ap, fmt);
	n += vsnprintf(line + n, sizeof(line) - n, fmt, ap);
	va_end(ap);
	if (kmsg >= 0 && write(kmsg, line, n) < 0)
		kmsg = -1;
}

static int guest_main(void)
{
	struct ptp_sys_offset_precise precise;
	struct timespec ts, before, after;
	char name[64] = "";
	clockid_t clk;
	int fd, n;

	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	kmsg = open("/dev/kmsg", O_WRONLY);

	fd = open("/sys/class/ptp/ptp0/clock_name", O_RDONLY);
	if (fd >= 0) {
		n = read(fd, name, sizeof(name) - 1);
		name[n > 0 ? n : 0] = 0;
		name[strcspn(name, "\n")] = 0;
		close(fd);
	}
	fd = open("/dev/ptp0", O_RDWR);
	say("clock %d [%s]\n", fd >= 0 ? 0 : errno, name);
	if (fd >= 0) {
		clk = ((~(clockid_t)fd) << 3) | 3;	/* FD_TO_CLOCKID */
		if (clock_gettime(clk, &ts))
			say("gettime %d 0\n", errno);
		else
			say("gettime 0 %llu\n", (unsigned long long)ts_ns(&ts));

		memset(&precise, 0, sizeof(precise));
		clock_gettime(CLOCK_REALTIME, &before);
		n = ioctl(fd, PTP_SYS_OFFSET_PRECISE, &precise) ? errno : 0;
		clock_gettime(CLOCK_REALTIME, &after);
		say("precise %d %llu %llu %llu %llu\n", n,
		    (unsigned long long)precise.device.sec * 1000000000ULL +
			    precise.device.nsec,
		    (unsigned long long)precise.sys_realtime.sec * 1000000000ULL +
			    precise.sys_realtime.nsec,
		    (unsigned long long)ts_ns(&before),
		    (unsigned long long)ts_ns(&after));
	}
	say("done\n");
	sync();
	reboot(RB_POWER_OFF);
	return 0;
}

/* ---- the monitor ---- */

/* A flattened device tree, built in two fixed buffers */
static struct {
	uint32_t st[2048];
	unsigned int nst;
	char str[512];
	unsigned int nstr;
} fdt;

static uint32_t be32(uint32_t v)
{
	return __builtin_bswap32(v);
}

static void fdt_word(uint32_t v)
{
	if (fdt.nst < sizeof(fdt.st) / 4)
		fdt.st[fdt.nst++] = be32(v);
}

static void fdt_bytes(const void *p, size_t len)
{
	size_t words = (len + 3) / 4;

	if (fdt.nst + words > sizeof(fdt.st) / 4)
		return;
	memset(&fdt.st[fdt.nst], 0, words * 4);
	memcpy(&fdt.st[fdt.nst], p, len);
	fdt.nst += words;
}

static void fdt_begin(const char *name)
{
	fdt_word(1);			/* FDT_BEGIN_NODE */
	fdt_bytes(name, strlen(name) + 1);
}

static void fdt_end(void)
{
	fdt_word(2);			/* FDT_END_NODE */
}

static uint32_t fdt_name(const char *name)
{
	unsigned int off;

	for (off = 0; off < fdt.nstr; off += strlen(fdt.str + off) + 1)
		if (!strcmp(fdt.str + off, name))
			return off;
	if (fdt.nstr + strlen(name) + 1 <= sizeof(fdt.str)) {
		strcpy(fdt.str + fdt.nstr, name);
		fdt.nstr += strlen(name) + 1;
	}
	return off;
}

static void fdt_prop(const char *name, const void *val, size_t len)
{
	fdt_word(3);			/* FDT_PROP */
	fdt_word(len);
	fdt_word(fdt_name(name));
	fdt_bytes(val, len);
}

static void fdt_str(const char *name, const char *s)
{
	fdt_prop(name, s, strlen(s) + 1);
}

/* Cells: each value a big-endian 32-bit word */
static void fdt_cells(const char *name, int n, const uint32_t *v)
{
	uint32_t be[16];
	int i;

	for (i = 0; i < n && i < 16; i++)
		be[i] = be32(v[i]);
	fdt_prop(name, be, 4 * i);
}

#define CELLS(name, ...) do {						\
	const uint32_t v_[] = { __VA_ARGS__ };				\
	fdt_cells(name, sizeof(v_) / 4, v_);				\
} while (0)
#define HI(x)	((uint32_t)((uint64_t)(x) >> 32))
#define LO(x)	((uint32_t)(x))

/* The blob: header, an empty reservation map, structure, strings */
static size_t fdt_write(void *dst, size_t room)
{
	const uint32_t hdr = 40, rsv = 16;
	uint32_t st = fdt.nst * 4, total = hdr + rsv + st + fdt.nstr;
	uint32_t h[10] = {
		be32(0xd00dfeed), be32(total), be32(hdr + rsv),
		be32(hdr + rsv + st), be32(hdr), be32(17), be32(16), 0,
		be32(fdt.nstr), be32(st),
	};
	char *p = dst;

	if (total > room)
		return 0;
	memcpy(p, h, hdr);
	memset(p + hdr, 0, rsv);
	memcpy(p + hdr + rsv, fdt.st, st);
	memcpy(p + hdr + rsv + st, fdt.str, fdt.nstr);
	return total;
}

static void build_dt(uint64_t initrd, uint64_t initrd_end)
{
	fdt_begin("");
	fdt_str("compatible", "linux,dummy-virt");
	CELLS("#address-cells", 2);
	CELLS("#size-cells", 2);
	CELLS("interrupt-parent", 1);

	fdt_begin("chosen");
	fdt_str("bootargs", "earlycon=pl011,0x09000000 keep_bootcon loglevel=4 "
		"panic=-1 rdinit=/init");
	CELLS("linux,initrd-start", HI(initrd), LO(initrd));
	CELLS("linux,initrd-end", HI(initrd_end), LO(initrd_end));
	fdt_end();

	fdt_begin("memory@40000000");
	fdt_str("device_type", "memory");
	CELLS("reg", HI(RAM_BASE), LO(RAM_BASE), HI(RAM_SIZE), LO(RAM_SIZE));
	fdt_end();

	fdt_begin("cpus");
	CELLS("#address-cells", 1);
	CELLS("#size-cells", 0);
	fdt_begin("cpu@0");
	fdt_str("device_type", "cpu");
	fdt_str("compatible", "arm,arm-v8");
	CELLS("reg", 0);
	fdt_str("enable-method", "psci");
	fdt_end();
	fdt_end();

	fdt_begin("psci");
	fdt_str("compatible", "arm,psci-0.2");
	fdt_str("method", "hvc");
	fdt_end();

	fdt_begin("intc@8000000");
	fdt_str("compatible", "arm,gic-v3");
	CELLS("#interrupt-cells", 3);
	fdt_prop("interrupt-controller", NULL, 0);
	CELLS("reg", HI(GICD_BASE), LO(GICD_BASE), 0, 0x10000,
	      HI(GICR_BASE), LO(GICR_BASE), 0, 0x20000);
	CELLS("phandle", 1);
	fdt_end();

	/* PPIs 13, 14, 11, 10 (secure, EL1 physical, virtual, EL2), level high */
	fdt_begin("timer");
	fdt_str("compatible", "arm,armv8-timer");
	CELLS("interrupts", 1, 13, 4, 1, 14, 4, 1, 11, 4, 1, 10, 4);
	fdt_end();

	fdt_end();
	fdt_word(9);			/* FDT_END */
}

/* newc cpio: /dev, /sys, and this program as /init */
static size_t cpio_entry(char *dst, size_t room, const char *name,
			 unsigned int mode, const void *data, size_t len)
{
	size_t n, namelen = strlen(name) + 1;

	n = snprintf(dst, room, "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X",
		     0, mode, 0, 0, 1, 0, len, 0, 0, 0, 0, namelen, 0);
	if (n + namelen + 3 + len + 3 > room)
		return 0;
	memcpy(dst + n, name, namelen);
	n = (n + namelen + 3) & ~3UL;
	if (len)
		memcpy(dst + n, data, len);
	return (n + len + 3) & ~3UL;
}

static ssize_t read_file(const char *path, void *dst, size_t room)
{
	ssize_t got, total = 0;
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return -1;
	while ((size_t)total < room &&
	       (got = read(fd, (char *)dst + total, room - total)) > 0)
		total += got;
	close(fd);
	return total;
}

static char console[8192];	/* the guest's console, its last lines */
static size_t console_len;

static void console_put(char c)
{
	if (console_len == sizeof(console)) {
		memmove(console, console + sizeof(console) / 2, sizeof(console) / 2);
		console_len = sizeof(console) / 2;
	}
	console[console_len++] = c;
}

static void console_dump(void)
{
	char *line, *save = NULL;

	console[console_len < sizeof(console) ? console_len : sizeof(console) - 1] = 0;
	ktap_diag("the guest's console:");
	for (line = strtok_r(console, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		ktap_diag("  %s", line);
}

/* What the guest said, read from its console */
struct seen {
	int clock_err, gettime_err, precise_err, done;
	char clock_name[64];
	uint64_t gettime, dev, sys, before, after;
	uint64_t gettime_host_by, precise_host_by;	/* monitor's clock then */
	int have_clock, have_gettime, have_precise;
};

static void parse_line(const char *line, struct seen *s)
{
	const char *p = strstr(line, TAG);
	unsigned long long a, b, c, d;
	int err;

	if (!p)
		return;
	p += strlen(TAG);
	if (sscanf(p, "clock %d [%63[^]]]", &s->clock_err, s->clock_name) >= 1) {
		s->have_clock = 1;
	} else if (sscanf(p, "gettime %d %llu", &err, &a) == 2) {
		s->gettime_err = err;
		s->gettime = a;
		s->gettime_host_by = clock_ns(CLOCK_REALTIME);
		s->have_gettime = 1;
	} else if (sscanf(p, "precise %d %llu %llu %llu %llu", &err, &a, &b,
			  &c, &d) == 5) {
		s->precise_err = err;
		s->dev = a;
		s->sys = b;
		s->before = c;
		s->after = d;
		s->precise_host_by = clock_ns(CLOCK_REALTIME);
		s->have_precise = 1;
	} else if (!strncmp(p, "done", 4)) {
		s->done = 1;
	}
}

static volatile sig_atomic_t timed_out;

static void on_alarm(int sig)
{
	(void)sig;
	timed_out = 1;
}

static int vcpu_reg(int vcpu, uint64_t id, uint64_t val)
{
	struct kvm_one_reg reg = { .id = id, .addr = (uintptr_t)&val };

	return ioctl(vcpu, KVM_SET_ONE_REG, &reg);
}

#define CORE_REG(field)	(KVM_REG_ARM64 | KVM_REG_SIZE_U64 | KVM_REG_ARM_CORE | \
			 (offsetof(struct kvm_regs, field) / sizeof(uint32_t)))

static int vgic_attr(int dev, uint32_t group, uint64_t attr, uint64_t *val)
{
	struct kvm_device_attr a = {
		.group = group, .attr = attr, .addr = (uintptr_t)val,
	};

	return ioctl(dev, KVM_SET_DEVICE_ATTR, &a);
}

/*
 * Boot the guest and run it until it powers off, crashes or runs out of
 * time; fills @s from its console.  Returns NULL or what went wrong.
 */
static const char *run_guest(struct seen *s)
{
	struct kvm_userspace_memory_region region = {
		.slot = 0, .guest_phys_addr = RAM_BASE, .memory_size = RAM_SIZE,
	};
	struct kvm_create_device gic = { .type = KVM_DEV_TYPE_ARM_VGIC_V3 };
	struct kvm_vcpu_init init;
	static char self[8 << 20];
	uint64_t gicd = GICD_BASE, gicr = GICR_BASE;
	uint64_t text_offset, initrd_len, dtb;
	char line[512];
	size_t line_len = 0, off;
	struct kvm_run *run;
	ssize_t image, self_len;
	int kvm, vm, vcpu, mmap_size;
	char *ram;

	kvm = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (kvm < 0)
		return "cannot open /dev/kvm";
	vm = ioctl(kvm, KVM_CREATE_VM, 0);
	if (vm < 0)
		return "KVM_CREATE_VM failed";
	ram = mmap(NULL, RAM_SIZE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (ram == MAP_FAILED)
		return "cannot map the guest's memory";
	region.userspace_addr = (uintptr_t)ram;
	if (ioctl(vm, KVM_SET_USER_MEMORY_REGION, &region))
		return "KVM_SET_USER_MEMORY_REGION failed";

	/* the kernel at the start of RAM, at its header's text_offset */
	image = read_file(GUEST_KERNEL, ram, INITRD_OFF);
	if (image < 64 || memcmp(ram + 56, "ARMd", 4))
		return "no arm64 Image at " GUEST_KERNEL;
	if (image == INITRD_OFF)
		return "the Image does not fit below the initramfs";
	memcpy(&text_offset, ram + 8, 8);
	if (text_offset) {
		if (text_offset + image > INITRD_OFF)
			return "the Image does not fit";
		memmove(ram + text_offset, ram, image);
	}

	self_len = read_file("/proc/self/exe", self, sizeof(self));
	if (self_len <= 0 || self_len == sizeof(self))
		return "cannot read /proc/self/exe";
	off = INITRD_OFF;
	off += cpio_entry(ram + off, DTB_OFF - off, "dev", 040755, NULL, 0);
	off += cpio_entry(ram + off, DTB_OFF - off, "sys", 040755, NULL, 0);
	off += cpio_entry(ram + off, DTB_OFF - off, "init", 0100755, self, self_len);
	off += cpio_entry(ram + off, DTB_OFF - off, "TRAILER!!!", 0, NULL, 0);
	initrd_len = off - INITRD_OFF;

	build_dt(RAM_BASE + INITRD_OFF, RAM_BASE + INITRD_OFF + initrd_len);
	if (!fdt_write(ram + DTB_OFF, RAM_SIZE - DTB_OFF))
		return "the device tree does not fit";
	dtb = RAM_BASE + DTB_OFF;

	vcpu = ioctl(vm, KVM_CREATE_VCPU, 0);
	if (vcpu < 0)
		return "KVM_CREATE_VCPU failed";
	mmap_size = ioctl(kvm, KVM_GET_VCPU_MMAP_SIZE, 0);
	run = mmap(NULL, mmap_size, PROT_READ | PROT_WRITE, MAP_SHARED, vcpu, 0);
	if (run == MAP_FAILED)
		return "cannot map kvm_run";
	if (ioctl(vm, KVM_ARM_PREFERRED_TARGET, &init))
		return "KVM_ARM_PREFERRED_TARGET failed";
	init.features[0] |= 1U << KVM_ARM_VCPU_PSCI_0_2;
	if (ioctl(vcpu, KVM_ARM_VCPU_INIT, &init))
		return "KVM_ARM_VCPU_INIT failed";

	if (ioctl(vm, KVM_CREATE_DEVICE, &gic))
		return "cannot create a GICv3";
	if (vgic_attr(gic.fd, KVM_DEV_ARM_VGIC_GRP_ADDR,
		      KVM_VGIC_V3_ADDR_TYPE_DIST, &gicd) ||
	    vgic_attr(gic.fd, KVM_DEV_ARM_VGIC_GRP_ADDR,
		      KVM_VGIC_V3_ADDR_TYPE_REDIST, &gicr) ||
	    vgic_attr(gic.fd, KVM_DEV_ARM_VGIC_GRP_CTRL,
		      KVM_DEV_ARM_VGIC_CTRL_INIT, NULL))
		return "cannot set the GICv3 up";

	if (vcpu_reg(vcpu, CORE_REG(regs.pc), RAM_BASE + text_offset) ||
	    vcpu_reg(vcpu, CORE_REG(regs.regs[0]), dtb))
		return "cannot set the boot registers";

	signal(SIGALRM, on_alarm);
	alarm(RUN_SECONDS);
	for (;;) {
		if (ioctl(vcpu, KVM_RUN, 0)) {
			if (errno == EINTR && timed_out)
				return "the guest did not power off in time";
			if (errno == EINTR || errno == EAGAIN)
				continue;
			return "KVM_RUN failed";
		}
		switch (run->exit_reason) {
		case KVM_EXIT_MMIO:
			if (!run->mmio.is_write) {
				/* PL011 flags, anything else: all clear */
				memset(run->mmio.data, 0, sizeof(run->mmio.data));
				break;
			}
			if (run->mmio.phys_addr != UART_BASE)
				break;
			console_put(run->mmio.data[0]);
			if (run->mmio.data[0] == '\n' || line_len == sizeof(line) - 1) {
				line[line_len] = 0;
				parse_line(line, s);
				line_len = 0;
			} else if (run->mmio.data[0] != '\r') {
				line[line_len++] = run->mmio.data[0];
			}
			break;
		case KVM_EXIT_SYSTEM_EVENT:
			alarm(0);
			if (run->system_event.type == KVM_SYSTEM_EVENT_SHUTDOWN)
				return NULL;
			return "the guest reset or crashed";
		default:
			snprintf(line, sizeof(line), "unexpected exit %u from KVM_RUN",
				 run->exit_reason);
			return strdup(line);
		}
	}
}

static void skip_all(const char *why)
{
	ktap_skip("ptp_kvm_clock", "%s", why);
	ktap_skip("ptp_host_time", "%s", why);
	ktap_skip("ptp_precise_crosststamp", "%s", why);
}

int main(void)
{
	struct seen s = { .clock_err = -1 };
	uint64_t start;
	const char *err;
	int bad;

	if (getpid() == 1)
		return guest_main();

	ktap_plan(NCASES);
	if (access("/dev/kvm", F_OK)) {
		skip_all("no /dev/kvm: the kernel was not entered at EL2");
		return ktap_finish();
	}
	start = clock_ns(CLOCK_REALTIME);
	err = run_guest(&s);
	if (err)
		ktap_diag("the guest: %s", err);

	bad = !ktap_result(s.have_clock && !s.clock_err &&
			   !strcmp(s.clock_name, "KVM virtual PTP"),
			   "ptp_kvm_clock", "/dev/ptp0: %s (error %d, name '%s')",
			   s.have_clock ? "seen" : "no report", s.clock_err,
			   s.clock_name);
	bad |= !ktap_result(s.have_gettime && !s.gettime_err &&
			    s.gettime >= start && s.gettime <= s.gettime_host_by,
			    "ptp_host_time",
			    "PTP clock %llu ns (error %d), host %llu..%llu",
			    (unsigned long long)s.gettime, s.gettime_err,
			    (unsigned long long)start,
			    (unsigned long long)s.gettime_host_by);
	bad |= !ktap_result(s.have_precise && !s.precise_err &&
			    s.dev >= start && s.dev <= s.precise_host_by &&
			    s.sys >= s.before && s.sys <= s.after,
			    "ptp_precise_crosststamp",
			    "error %d: device %llu in host %llu..%llu? system %llu in guest %llu..%llu?",
			    s.precise_err, (unsigned long long)s.dev,
			    (unsigned long long)start,
			    (unsigned long long)s.precise_host_by,
			    (unsigned long long)s.sys,
			    (unsigned long long)s.before,
			    (unsigned long long)s.after);
	if (bad || err)
		console_dump();
	if (err && !bad)
		ktap_failed++;	/* all seen, but the guest did not end cleanly */
	return ktap_finish();
}
