/* SPDX-License-Identifier: GPL-2.0-only */
/* log: leveled logging to stderr (the journal under systemd). */
#ifndef VQ_LOG_H
#define VQ_LOG_H

enum log_level { LOG_LVL_ERR, LOG_LVL_WARN, LOG_LVL_INFO, LOG_LVL_DEBUG };

/*
 * Messages above @lvl are dropped. Default LOG_LVL_INFO. Each message is one stderr line,
 * prefixed "<3>" (err), "<4>" (warn), "<6>" (info) or "<7>" (debug) as sd-daemon(3) defines,
 * unless stderr is a terminal.
 */
void log_set_level(enum log_level lvl);
void log_msg(enum log_level lvl, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define log_err(...)	log_msg(LOG_LVL_ERR, __VA_ARGS__)
#define log_warn(...)	log_msg(LOG_LVL_WARN, __VA_ARGS__)
#define log_info(...)	log_msg(LOG_LVL_INFO, __VA_ARGS__)
#define log_debug(...)	log_msg(LOG_LVL_DEBUG, __VA_ARGS__)

#endif
