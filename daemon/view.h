/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * view: what each API route returns, computed from the daemon's state. api.c does HTTP;
 * these do the rest. Each returns an HTTP status and stores a new JSON reference in *out:
 * the reply body, or an error object from apierr_new() when status >= 400.
 * {dev} and {knob} are the URL-decoded path segments (docs/api.md).
 */
#ifndef VQ_VIEW_H
#define VQ_VIEW_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

struct device;

/*
 * The 409 conflict for a device selector @sel that dev_resolve() found ambiguous (-EEXIST):
 * a NAME in several namespaces, or, within one namespace, one device's raw name that is
 * another's display form (a name holding "\\xff" literally beside one holding the byte
 * 0xFF). The message lists every candidate (netns, ifindex, raw name or display form,
 * name_hex) with a percent-encoded selector that names it alone, checked by dev_resolve(),
 * never the selector the client sent. Returns 409 and stores the error object in *out.
 */
int view_dev_conflict(const char *sel, json_t **out);
/*
 * The device selector @sel names (dev_resolve()), in *d, with its settings and queue layout
 * read again if news says they changed since its last sample (smp_news_refresh()):
 * 0; else the error object in *out and 404 not_found (no such device) or 409 conflict
 * (view_dev_conflict()).
 */
int view_dev_find(const char *sel, struct device **d, json_t **out);
int view_status(json_t **out);
int view_devices(json_t **out);
int view_device(const char *dev, json_t **out);
int view_queues(const char *dev, json_t **out);
/* @body: the parsed request object (api.c checked it is a JSON object) */
int view_knob_set(const char *dev, const char *knob, json_t *body, json_t **out);
/*
 * @queue, @napi_id: the "queue" and "napi_id" query parameters as sent, or NULL; with both,
 * the instances that match both. Neither: every instance of the knob.
 */
int view_knob_release(const char *dev, const char *knob, const char *queue,
		      const char *napi_id, json_t **out);
int view_pause(const char *dev, int pause, json_t **out);
int view_policy_get(json_t **out);
/* @text/@len: the request body @body was parsed from, for the error's place (policy_parse()) */
int view_policy_put(json_t *body, const char *text, size_t len, json_t **out);
int view_events(uint64_t since, unsigned int limit, json_t **out);
int view_restore(json_t **out);
/* Prometheus text; *text is malloc'ed (caller frees). Returns 200 or 500. */
int view_metrics(char **text, size_t *len);

#endif
