// SPDX-License-Identifier: GPL-2.0-only
/*
 * fake_view: view.h for test_api only. Each call records its arguments in fake_* globals
 * (test_api.c declares them) and answers a small fixed object, so the test can check what
 * api.c delivered after routing and decoding.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apierr.h"
#include "util.h"
#include "view.h"
#include "vqtune_api.h"

/* Longest recorded argument; test names are short. */
#define FAKE_ARG_MAX_BYTES	256

char fake_dev[FAKE_ARG_MAX_BYTES];
char fake_knob[FAKE_ARG_MAX_BYTES];
char fake_queue[FAKE_ARG_MAX_BYTES];	/* "(null)" when api.c passed NULL */
char fake_napi_id[FAKE_ARG_MAX_BYTES];	/* the same for napi_id */
char fake_body[FAKE_ARG_MAX_BYTES];	/* compact dump of the last body */
char fake_route[FAKE_ARG_MAX_BYTES];	/* name of the last view_* called */
int fake_pause = -1;
uint64_t fake_since;
unsigned int fake_limit;
int fake_calls;

static void record(const char *route, const char *dev, const char *knob)
{
	fake_calls++;
	snprintf(fake_route, sizeof(fake_route), "%s", route);
	snprintf(fake_dev, sizeof(fake_dev), "%s", dev ? dev : "");
	snprintf(fake_knob, sizeof(fake_knob), "%s", knob ? knob : "");
}

/* A device called "missing" does not exist: lets the test see a view's 404 pass through. */
static int dev_reply(const char *dev, json_t **out)
{
	if (!strcmp(dev, "missing")) {
		*out = apierr_new(VQ_ERR_NOT_FOUND, NULL, "no device %s", dev);
		return 404;
	}
	*out = json_pack("{s:o, s:s}", "name", util_json_str(dev), "route", fake_route);
	return 200;
}

int view_status(json_t **out)
{
	record("status", NULL, NULL);
	*out = json_pack("{s:s}", "version", VQ_VERSION);
	return 200;
}

int view_devices(json_t **out)
{
	record("devices", NULL, NULL);
	*out = json_pack("{s:[]}", "devices");
	return 200;
}

int view_device(const char *dev, json_t **out)
{
	record("device", dev, NULL);
	return dev_reply(dev, out);
}

int view_queues(const char *dev, json_t **out)
{
	record("queues", dev, NULL);
	return dev_reply(dev, out);
}

int view_knob_set(const char *dev, const char *knob, json_t *body, json_t **out)
{
	char *s = json_dumps(body, JSON_COMPACT | JSON_SORT_KEYS);

	record("knob_set", dev, knob);
	snprintf(fake_body, sizeof(fake_body), "%s", s ? s : "");
	free(s);
	return dev_reply(dev, out);
}

int view_knob_release(const char *dev, const char *knob, const char *queue,
		      const char *napi_id, json_t **out)
{
	record("knob_release", dev, knob);
	snprintf(fake_queue, sizeof(fake_queue), "%s", queue ? queue : "(null)");
	snprintf(fake_napi_id, sizeof(fake_napi_id), "%s", napi_id ? napi_id : "(null)");
	return dev_reply(dev, out);
}

int view_pause(const char *dev, int pause, json_t **out)
{
	record("pause", dev, NULL);
	fake_pause = pause;
	return dev_reply(dev, out);
}

int view_policy_get(json_t **out)
{
	record("policy_get", NULL, NULL);
	*out = json_pack("{s:{s:s, s:s}}", "policy", "name", "observe", "mode", "observe");
	return 200;
}

int view_policy_put(json_t *body, const char *text, size_t len, json_t **out)
{
	(void)text, (void)len;
	char *s = json_dumps(body, JSON_COMPACT | JSON_SORT_KEYS);

	record("policy_put", NULL, NULL);
	snprintf(fake_body, sizeof(fake_body), "%s", s ? s : "");
	free(s);
	*out = json_pack("{s:O}", "policy", body);
	return 200;
}

int view_events(uint64_t since, unsigned int limit, json_t **out)
{
	record("events", NULL, NULL);
	fake_since = since;
	fake_limit = limit;
	*out = json_pack("{s:[], s:I}", "events", "next", (json_int_t)since + 1);
	return 200;
}

int view_restore(json_t **out)
{
	record("restore", NULL, NULL);
	*out = json_pack("{s:i, s:[]}", "restored", 0, "failed");
	return 200;
}

int view_metrics(char **text, size_t *len)
{
	static const char m[] = "# TYPE vqtune_up gauge\nvqtune_up 1\n";

	record("metrics", NULL, NULL);
	*text = strdup(m);
	*len = sizeof(m) - 1;
	return *text ? 200 : 500;
}
