/*
 * src/trace/privileges.c - what --metrics gives up once attached: a
 * server that runs for months should hold no more than it uses.  Reading
 * the maps and the ring buffer needs only the descriptors it has; while
 * following a command or a process, attaching to the programs they
 * start later needs CAP_BPF and CAP_PERFMON (CAP_SYS_ADMIN before Linux
 * 5.8), reading their executables CAP_SYS_PTRACE and
 * CAP_DAC_READ_SEARCH, letting them go on after their exec CAP_KILL.
 * Every other capability goes (and with --user NAME, root's identity);
 * no new privilege can be gained (no_new_privs).
 */
#include <errno.h>
#include <grp.h>
#include <linux/capability.h>
#include <pwd.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "trace/tracer.h"

#ifndef CAP_PERFMON
#define CAP_PERFMON 38
#endif
#ifndef CAP_BPF
#define CAP_BPF 39
#endif

static const int attach_caps[] = {
	CAP_BPF,	CAP_PERFMON,	     CAP_SYS_ADMIN,
	CAP_SYS_PTRACE, CAP_DAC_READ_SEARCH, CAP_KILL
};

static int kept(int cap, int attaches_later)
{
	size_t i;

	for (i = 0; attaches_later && i < ARRAY_SIZE(attach_caps); i++)
		if (attach_caps[i] == cap)
			return 1;
	return 0;
}

int drop_privileges(const char *user, int attaches_later)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3,
						0 };
	struct __user_cap_data_struct data[2];
	struct passwd *pw = NULL;
	int cap;

	if (user && !(pw = getpwnam(user))) {
		error_plain("--user %s: no such user", user);
		return -1;
	}
	/* The bounding set first: dropping from it needs CAP_SETPCAP. */
	for (cap = 0; cap <= 63; cap++)
		if (!kept(cap, attaches_later) &&
		    prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 &&
		    errno != EINVAL)
			break;
	if (pw) {
		if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) != 0 ||
		    setgroups(0, NULL) != 0 || setgid(pw->pw_gid) != 0 ||
		    setuid(pw->pw_uid) != 0) {
			error_plain("--user %s: %s", user, strerror(errno));
			return -1;
		}
	}
	memset(data, 0, sizeof(data));
	for (cap = 0; cap <= 63; cap++)
		if (kept(cap, attaches_later)) {
			data[cap / 32].effective |= 1u << (cap % 32);
			data[cap / 32].permitted |= 1u << (cap % 32);
		}
	if (syscall(SYS_capset, &hdr, data) != 0 ||
	    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
		error_plain("cannot give up the capabilities --metrics does not use: %s",
			    strerror(errno));
		return -1;
	}
	return 0;
}
