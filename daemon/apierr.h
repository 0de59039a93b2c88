/* SPDX-License-Identifier: GPL-2.0-only */
/* apierr: the API's error object {"error":{"code","message"[,"field"]}} (docs/api.md). */
#ifndef VQ_APIERR_H
#define VQ_APIERR_H

#include <jansson.h>

/* New reference; @field may be NULL. @code: a VQ_ERR_* from include/vqtune_api.h. */
json_t *apierr_new(const char *code, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
