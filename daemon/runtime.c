// SPDX-License-Identifier: GPL-2.0-only
#include <stddef.h>

#include "runtime.h"

struct runtime runtime;

const char *tick_part_name(enum tick_part tp)
{
	static const char *const name[TP_NUM] = {
		[TP_LINKS] = "rtnl-links", [TP_STATS] = "rtnl-stats",
		[TP_QUEUES] = "sysfs-queues", [TP_NETDEV] = "netdev", [TP_QDISC] = "qdisc",
		[TP_BQL] = "bql", [TP_ETHTOOL] = "ethtool", [TP_ETHTOOL_STATS] = "ethtool-stats",
		[TP_VQPAIR] = "vqpair", [TP_OUTSIDE] = "outside-check", [TP_CONTROL] = "control",
		[TP_WRITES] = "knob-writes",
	};

	return (unsigned int)tp < TP_NUM ? name[tp] : NULL;
}
