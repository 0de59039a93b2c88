// SPDX-License-Identifier: GPL-2.0-only
/*
 * log: stderr lines with a syslog priority prefix, which journald understands (sd-daemon(3)),
 * as do log files and pipes read by tools that know it; on a terminal the line goes without
 * it, as sd-daemon(3) leaves to the program (a person reads "policy x: ..." there, not
 * "<3>policy x: ...").
 */
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

#include "log.h"

static enum log_level log_level = LOG_LVL_INFO;

void log_set_level(enum log_level lvl)
{
	log_level = lvl;
}

void log_msg(enum log_level lvl, const char *fmt, ...)
{
	/* <3> err, <4> warning, <6> info, <7> debug */
	static const char prio[] = { '3', '4', '6', '7' };
	va_list ap;

	if (lvl > log_level)
		return;
	/* asked at each line: a test or the daemon may point fd 2 elsewhere meanwhile */
	if (!isatty(STDERR_FILENO))
		fprintf(stderr, "<%c>", prio[lvl]);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
