// SPDX-License-Identifier: GPL-2.0-only
/*
 * init for the test guest: mount the pseudo file systems, then run one of
 *   mode=test   the test runner (/bin/runner), its KTAP on /dev/hvc0
 *   mode=cmd    the command hex-encoded in CMDHEX, through busybox sh;
 *               its exit status is printed as "@@CMD-EXIT <n>"
 *   mode=shell  an interactive busybox shell with job control
 * and power the machine off when that ends.  The kernel passes unknown
 * "key=value" parameters to init in its environment, which is how mode=
 * and CMDHEX= arrive.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>

static void power_off(void)
{
	sync();
	reboot(RB_POWER_OFF);
	/* Only reached if PSCI is missing: nothing else can stop QEMU. */
	for (;;)
		pause();
}

static void on_poweroff_signal(int sig)
{
	(void)sig;
	power_off();
}

static void must_mount(const char *src, const char *dir, const char *type)
{
	mkdir(dir, 0755);
	if (mount(src, dir, type, 0, NULL) && errno != EBUSY)
		fprintf(stderr, "init: mount %s on %s: %s\n", type, dir, strerror(errno));
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static char *unhex(const char *hex)
{
	size_t n = strlen(hex) / 2, i;
	char *out = malloc(n + 1);

	if (!out)
		return NULL;
	for (i = 0; i < n; i++) {
		int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);

		if (hi < 0 || lo < 0) {
			free(out);
			return NULL;
		}
		out[i] = (char)(hi << 4 | lo);
	}
	out[n] = '\0';
	return out;
}

/* "/dev/ttyAMA0": the last console the kernel lists as active. */
static const char *console_tty(void)
{
	static char path[160] = "/dev/console";
	char buf[128], *name;
	FILE *f = fopen("/sys/class/tty/console/active", "r");

	if (f) {
		if (fgets(buf, sizeof(buf), f)) {
			buf[strcspn(buf, "\n")] = '\0';
			name = strrchr(buf, ' ');
			name = name ? name + 1 : buf;
			if (*name)
				snprintf(path, sizeof(path), "/dev/%s", name);
		}
		fclose(f);
	}
	return path;
}

/* Run argv in a child; return its wait status. */
static int run(char *const argv[], int controlling_tty)
{
	int status = 0;
	pid_t pid = fork();

	if (pid == 0) {
		if (controlling_tty) {
			int fd;

			/*
			 * /dev/console cannot be a controlling terminal: open
			 * the tty behind it, or the shell has no job control.
			 */
			setsid();
			fd = open(console_tty(), O_RDWR);
			if (fd >= 0) {
				ioctl(fd, TIOCSCTTY, 1);
				dup2(fd, 0);
				dup2(fd, 1);
				dup2(fd, 2);
				if (fd > 2)
					close(fd);
			}
		}
		execv(argv[0], argv);
		fprintf(stderr, "init: exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (pid < 0)
		return -1;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return status;
}

int main(void)
{
	const char *mode = getenv("mode");
	char *cmd = getenv("CMDHEX") ? unhex(getenv("CMDHEX")) : NULL;
	struct sigaction sa = { .sa_handler = on_poweroff_signal };

	/* busybox poweroff/halt/reboot signal pid 1 */
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);

	must_mount("proc", "/proc", "proc");
	must_mount("sysfs", "/sys", "sysfs");
	must_mount("devtmpfs", "/dev", "devtmpfs");
	/* POSIX shared memory (shm_open), which the MTE kselftests map */
	must_mount("tmpfs", "/dev/shm", "tmpfs");
	must_mount("tmpfs", "/tmp", "tmpfs");
	setenv("PATH", "/bin:/sbin", 1);
	setenv("HOME", "/tmp", 1);
	unsetenv("CMDHEX");
	if (chdir("/tmp"))
		perror("init: chdir /tmp");

	if (!mode || !strcmp(mode, "test")) {
		char *argv[] = { "/bin/runner", NULL };

		run(argv, 0);
	} else if (!strcmp(mode, "cmd")) {
		char *argv[] = { "/bin/busybox", "sh", "-c", cmd, NULL };
		int status;

		if (!cmd) {
			printf("@@CMD-EXIT 127\n");
		} else {
			printf("@@CMD-BEGIN\n");
			fflush(stdout);
			status = run(argv, 0);
			printf("@@CMD-EXIT %d\n", WIFEXITED(status) ?
			       WEXITSTATUS(status) : 128 + WTERMSIG(status));
		}
		fflush(stdout);
	} else {
		char *argv[] = { "/bin/busybox", "sh", "-l", NULL };

		run(argv, 1);
	}
	power_off();
	return 0;
}
