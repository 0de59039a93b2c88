// SPDX-License-Identifier: GPL-2.0
/*
 * Prints include/vqpair.h in the line format of kmod/vqpair.spec, so `make kmod-spec-check`
 * can diff the two: the header is what the module, the test client and the daemon compile
 * against; the spec is the reviewed, human-readable contract. They must not drift.
 */
#include <stdio.h>
#include "../../include/vqpair.h"

#define KNOB_LINE_(id, nm, lo, hi, dflt, unit) \
	printf("knob %d %s %d %d %d %s\n", VQPAIR_KNOB_##id, nm, lo, hi, dflt, unit);
#define QSTAT_LINE_(id, nm) printf("qstat %d %s\n", VQPAIR_QSTAT_##id, nm);

int main(void)
{
	printf("family %s %d\n", VQPAIR_GENL_NAME, VQPAIR_GENL_VERSION);
	printf("mcgrp %s\n", VQPAIR_MCGRP_EVENTS);
	printf("cmd %d pair-get\n", VQPAIR_CMD_PAIR_GET);
	printf("cmd %d qstats-get\n", VQPAIR_CMD_QSTATS_GET);
	printf("cmd %d knob-set\n", VQPAIR_CMD_KNOB_SET);
	printf("cmd %d knob-ntf\n", VQPAIR_CMD_KNOB_NTF);
	printf("attr %d ifindex u32\n", VQPAIR_A_IFINDEX);
	printf("attr %d peer-ifindex u32\n", VQPAIR_A_PEER_IFINDEX);
	printf("attr %d ifname string\n", VQPAIR_A_IFNAME);
	printf("attr %d pair-id u32\n", VQPAIR_A_PAIR_ID);
	printf("attr %d num-queues u32\n", VQPAIR_A_NUM_QUEUES);
	printf("attr %d queue-id u32\n", VQPAIR_A_QUEUE_ID);
	printf("attr %d knobs nest\n", VQPAIR_A_KNOBS);
	printf("attr %d stats nest\n", VQPAIR_A_STATS);
	printf("attr %d lat-hist binary\n", VQPAIR_A_LAT_HIST);
	printf("attr %d knob u32\n", VQPAIR_A_KNOB);
	printf("attr %d old u32\n", VQPAIR_A_OLD);
	printf("attr %d new u32\n", VQPAIR_A_NEW);
	printf("attr %d pad pad\n", VQPAIR_A_PAD);
	printf("attr %d tx-delivery-hist binary\n", VQPAIR_A_TX_DELIVERY_HIST);
	printf("attr %d rx-delivery-hist binary\n", VQPAIR_A_RX_DELIVERY_HIST);
	printf("limit max-queues %d\n", VQPAIR_MAX_QUEUES);
	printf("limit lat-buckets %d\n", VQPAIR_LAT_BUCKETS);
	VQPAIR_KNOBS(KNOB_LINE_)
	VQPAIR_QSTATS(QSTAT_LINE_)
	return 0;
}
