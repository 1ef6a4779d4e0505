// SPDX-License-Identifier: GPL-2.0-only
/*
 * uname of a 32-bit task: the 64-bit machine name by default, "armv8l"
 * once the task asks for PER_LINUX32 (what `linux32` does), and the
 * 64-bit name again after going back to PER_LINUX.
 */
#define _GNU_SOURCE
#include <string.h>
#include <sys/personality.h>
#include <sys/utsname.h>

#include "ktap.h"

int main(void)
{
	struct utsname native, as32, back;
	int old = personality(0xffffffff);

	ktap_plan(2);
	uname(&native);
	personality(PER_LINUX32);
	uname(&as32);
	personality(old);
	uname(&back);

	ktap_result(!strcmp(as32.machine, "armv8l"), "per_linux32_armv8l",
		    "machine '%s' under PER_LINUX32", as32.machine);
	ktap_result(!strcmp(native.machine, "aarch64") &&
		    !strcmp(back.machine, "aarch64"), "per_linux_aarch64",
		    "machine '%s' before, '%s' after", native.machine,
		    back.machine);
	return ktap_finish();
}
