// SPDX-License-Identifier: GPL-2.0-only
/*
 * ctl output: the text of `vqtunectl knobs DEV` shows a driver's rule on a knob's values
 * (docs/api.md "rule") once per knob name under the table, and nothing for knobs without
 * one. stdout is captured in a temporary file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <jansson.h>

#include "../../ctl/ctl.h"

/* what a knob table of two devices prints, at most */
#define OUT_MAX_BYTES	8192

/* Runs ctl_text_device(@dev) with stdout in a temporary file; the text in @out. */
static void device_text(json_t *dev, char *out, size_t len)
{
	FILE *f = tmpfile();
	int saved = dup(STDOUT_FILENO);
	size_t n;

	assert_non_null(f);
	assert_true(saved >= 0);
	fflush(stdout);
	assert_true(dup2(fileno(f), STDOUT_FILENO) >= 0);
	ctl_text_device(dev);
	fflush(stdout);
	assert_true(dup2(saved, STDOUT_FILENO) >= 0);
	close(saved);
	rewind(f);
	n = fread(out, 1, len - 1, f);
	out[n] = '\0';
	fclose(f);
}

static json_t *knob(const char *name, json_t *rule)
{
	return json_pack("{s:s, s:s, s:s, s:i, s:i, s:i, s:n, s:s, s:b, s:b, s:b, s:b, s:b, s:o}",
			 "name", name, "instance", "", "unit", "descriptors", "value", 256,
			 "min", 1, "max", 256, "original", "provider", "ethtool-rings",
			 "disruptive", 1, "pinned", 0, "controlled", 0, "changed", 0,
			 "writable", 1, "rule", rule);
}

static void test_rule_line(void **state)
{
	char out[OUT_MAX_BYTES];
	json_t *dev;

	(void)state;
	dev = json_pack("{s:s, s:s, s:i, s:s, s:s, s:i, s:i, s:i, s:i, s:b, s:s, s:b, s:[ooo]}",
			"name", "vn0", "netns", "vna", "ifindex", 2, "driver", "virtio_net",
			"oper_state", "up", "mtu", 1500, "tx_queues", 1, "rx_queues", 1,
			"generation", 1, "managed", 1, "mode", "observe", "paused", 0, "knobs",
			knob("rx-ring-size", json_string("power of two")),
			knob("tx-ring-size", json_string("power of two")),
			knob("rx-usecs", json_null()));
	assert_non_null(dev);
	device_text(dev, out, sizeof(out));
	assert_non_null(strstr(out, "\n  rule: rx-ring-size: power of two (the driver refuses "
			       "other values in MIN..MAX)\n"));
	assert_non_null(strstr(out, "\n  rule: tx-ring-size: power of two (the driver refuses "
			       "other values in MIN..MAX)\n"));
	assert_null(strstr(out, "rule: rx-usecs"));
	json_decref(dev);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rule_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
