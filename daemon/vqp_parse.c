// SPDX-License-Identifier: GPL-2.0-only
/*
 * vqp_parse: the pure half of the vqpair provider (vqp.h): reply parsers (libmnl, the
 * attribute callback validates into tb[], unknown attributes are skipped), the latency
 * histogram quantile and the per-interval arithmetic. No socket, no device: unit-tested
 * on its own (tests/unit/test_vqp.c).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "vqp.h"

#define VQP_QSTAT_NAME_(id, nm) [VQPAIR_QSTAT_##id] = nm,
static const char *const vqp_qstat_names[VQPAIR_QSTAT_MAX + 1] = {
	VQPAIR_QSTATS(VQP_QSTAT_NAME_)
};
#define VQP_KNOB_NAME_(id, nm, lo, hi, dflt, unit) [VQPAIR_KNOB_##id] = nm,
static const char *const vqp_knob_names[VQPAIR_KNOB_MAX + 1] = {
	VQPAIR_KNOBS(VQP_KNOB_NAME_)
};

const char *vqp_qstat_name(int id)
{
	return id > 0 && id <= VQPAIR_QSTAT_MAX ? vqp_qstat_names[id] : NULL;
}

bool vqp_qstat_is_gauge(int id)
{
	return id == VQPAIR_QSTAT_ZC_PENDING || id == VQPAIR_QSTAT_ZC_PENDING_PEAK ||
	       id == VQPAIR_QSTAT_TX_INFLIGHT_PEAK;
}

const char *vqp_knob_name(int id)
{
	return id > 0 && id <= VQPAIR_KNOB_MAX ? vqp_knob_names[id] : NULL;
}

/* ---- parsers ---- */

static int vqp_top_attr_cb(const struct nlattr *attr, void *data)
{
	const struct nlattr **tb = data;
	int type = mnl_attr_get_type(attr);

	if (mnl_attr_type_valid(attr, VQPAIR_A_MAX) < 0)
		return MNL_CB_OK;
	switch (type) {
	case VQPAIR_A_IFINDEX:
	case VQPAIR_A_PEER_IFINDEX:
	case VQPAIR_A_PAIR_ID:
	case VQPAIR_A_NUM_QUEUES:
	case VQPAIR_A_QUEUE_ID:
		if (mnl_attr_validate(attr, MNL_TYPE_U32) < 0)
			return MNL_CB_ERROR;
		break;
	case VQPAIR_A_IFNAME:
		if (mnl_attr_validate(attr, MNL_TYPE_NUL_STRING) < 0 ||
		    mnl_attr_get_payload_len(attr) > IFNAMSIZ)
			return MNL_CB_ERROR;
		break;
	case VQPAIR_A_KNOBS:
	case VQPAIR_A_STATS:
		if (mnl_attr_validate(attr, MNL_TYPE_NESTED) < 0)
			return MNL_CB_ERROR;
		break;
	case VQPAIR_A_LAT_HIST:
	case VQPAIR_A_TX_DELIVERY_HIST:
	case VQPAIR_A_RX_DELIVERY_HIST:
		if (mnl_attr_get_payload_len(attr) != VQPAIR_LAT_BUCKETS * sizeof(uint64_t))
			return MNL_CB_ERROR;
		break;
	default:
		return MNL_CB_OK;	/* known to the UAPI, not read here */
	}
	tb[type] = attr;
	return MNL_CB_OK;
}

static int vqp_parse_top(const struct nlmsghdr *nlh, const struct nlattr **tb)
{
	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(struct genlmsghdr))
		return -EBADMSG;
	if (mnl_attr_parse(nlh, sizeof(struct genlmsghdr), vqp_top_attr_cb, tb) < 0)
		return -EBADMSG;
	return 0;
}

/* KNOBS nest: u32 per knob id; unknown ids (a newer module) are skipped. */
static int vqp_parse_knobs(const struct nlattr *nest, uint32_t *val, uint32_t *present)
{
	const struct nlattr *a;

	mnl_attr_for_each_nested(a, nest) {
		int k = mnl_attr_get_type(a);

		if (k < 1 || k > VQPAIR_KNOB_MAX)
			continue;
		if (mnl_attr_validate(a, MNL_TYPE_U32) < 0)
			return -EBADMSG;
		val[k] = mnl_attr_get_u32(a);
		*present |= 1u << k;
	}
	return 0;
}

/* the attribute of each enum vqp_hist */
static const int hist_attr[VQP_HIST_NUM] = {
	[VQP_HIST_COMPL] = VQPAIR_A_LAT_HIST,
	[VQP_HIST_TX_DELIVERY] = VQPAIR_A_TX_DELIVERY_HIST,
	[VQP_HIST_RX_DELIVERY] = VQPAIR_A_RX_DELIVERY_HIST,
};

int vqp_parse_qstats(const struct nlmsghdr *nlh, struct vqp_qmsg *m)
{
	const struct nlattr *tb[VQPAIR_A_MAX + 1] = {};
	const struct nlattr *a;
	int ret, h;

	ret = vqp_parse_top(nlh, tb);
	if (ret)
		return ret;
	if (!tb[VQPAIR_A_IFINDEX] || !tb[VQPAIR_A_QUEUE_ID])
		return -EBADMSG;
	memset(m, 0, sizeof(*m));
	m->ifindex = mnl_attr_get_u32(tb[VQPAIR_A_IFINDEX]);
	m->queue = mnl_attr_get_u32(tb[VQPAIR_A_QUEUE_ID]);
	if (tb[VQPAIR_A_KNOBS] && vqp_parse_knobs(tb[VQPAIR_A_KNOBS], m->knob, &m->knob_present))
		return -EBADMSG;
	if (tb[VQPAIR_A_STATS]) {
		mnl_attr_for_each_nested(a, tb[VQPAIR_A_STATS]) {
			int id = mnl_attr_get_type(a);

			/* type 0 is the 64-bit alignment pad of nla_put_u64_64bit() */
			if (id < 1 || id > VQPAIR_QSTAT_MAX)
				continue;
			if (mnl_attr_validate(a, MNL_TYPE_U64) < 0)
				return -EBADMSG;
			m->ctr[id] = mnl_attr_get_u64(a);
			m->stat_present |= 1ull << id;
		}
	}
	for (h = 0; h < VQP_HIST_NUM; h++) {
		if (!tb[hist_attr[h]])
			continue;
		/* netlink aligns payloads to 4 bytes only: copy, never cast */
		memcpy(m->hist[h], mnl_attr_get_payload(tb[hist_attr[h]]), sizeof(m->hist[h]));
		m->has_hist[h] = true;
	}
	return 0;
}

int vqp_parse_pair(const struct nlmsghdr *nlh, struct vqp_pair_info *p)
{
	const struct nlattr *tb[VQPAIR_A_MAX + 1] = {};
	int ret;

	ret = vqp_parse_top(nlh, tb);
	if (ret)
		return ret;
	if (!tb[VQPAIR_A_IFINDEX] || !tb[VQPAIR_A_NUM_QUEUES])
		return -EBADMSG;
	memset(p, 0, sizeof(*p));
	p->ifindex = mnl_attr_get_u32(tb[VQPAIR_A_IFINDEX]);
	p->num_queues = mnl_attr_get_u32(tb[VQPAIR_A_NUM_QUEUES]);
	if (tb[VQPAIR_A_PEER_IFINDEX])
		p->peer_ifindex = mnl_attr_get_u32(tb[VQPAIR_A_PEER_IFINDEX]);
	if (tb[VQPAIR_A_PAIR_ID])
		p->pair_id = mnl_attr_get_u32(tb[VQPAIR_A_PAIR_ID]);
	if (tb[VQPAIR_A_IFNAME])
		snprintf(p->ifname, sizeof(p->ifname), "%s", mnl_attr_get_str(tb[VQPAIR_A_IFNAME]));
	return 0;
}

/* ---- interval arithmetic ---- */

double vqp_hist_quantile(const uint64_t hist[VQPAIR_LAT_BUCKETS], double p)
{
	double total = 0, rank, cum = 0;
	int i;

	for (i = 0; i < VQPAIR_LAT_BUCKETS; i++)
		total += (double)hist[i];
	if (total <= 0 || !(p > 0 && p < 1))
		return NAN;
	rank = p * total;
	for (i = 0; i < VQPAIR_LAT_BUCKETS; i++) {
		double c = (double)hist[i], lo, hi;

		if (!hist[i])
			continue;
		if (cum + c >= rank) {
			lo = i ? ldexp(1.0, i) : 0.0;
			hi = ldexp(1.0, i + 1);
			return lo + (rank - cum) / c * (hi - lo);
		}
		cum += c;
	}
	return ldexp(1.0, VQPAIR_LAT_BUCKETS);	/* not reached: rank <= total */
}

/*
 * Growth of histogram @h since @t's reference into @delta; false when there is none to give
 * (not sent, first reading, new generation) or on a reset (a bucket shrank: *@reset).
 */
static bool vqp_hist_step(struct vqp_track *t, const struct vqp_qmsg *m, int h, uint32_t gen,
			  uint64_t delta[VQPAIR_LAT_BUCKETS], bool *reset)
{
	bool have = t->have_hist[h] && t->hist_gen[h] == gen, ok = true;
	int i;

	if (!m->has_hist[h]) {
		t->have_hist[h] = false;
		return false;
	}
	for (i = 0; have && i < VQPAIR_LAT_BUCKETS; i++) {
		if (m->hist[h][i] < t->hist[h][i])
			ok = false;
		delta[i] = m->hist[h][i] - t->hist[h][i];
	}
	memcpy(t->hist[h], m->hist[h], sizeof(t->hist[h]));
	t->have_hist[h] = true;
	t->hist_gen[h] = gen;
	if (!ok)
		*reset = true;
	return have && ok;
}

/* The p99s of the interval; false on a reset of any histogram. */
static bool vqp_hists_feed(struct vqp_queue *q, struct vqp_track *t, const struct vqp_qmsg *m,
			   uint32_t gen)
{
	uint64_t d[VQP_HIST_NUM][VQPAIR_LAT_BUCKETS];
	bool got[VQP_HIST_NUM], reset = false;
	int h;

	for (h = 0; h < VQP_HIST_NUM; h++)
		got[h] = vqp_hist_step(t, m, h, gen, d[h], &reset);
	q->compl_p99_ns = got[VQP_HIST_COMPL] ? vqp_hist_quantile(d[VQP_HIST_COMPL], 0.99) : NAN;
	q->tx_delivery_p99_ns = got[VQP_HIST_TX_DELIVERY] ?
		vqp_hist_quantile(d[VQP_HIST_TX_DELIVERY], 0.99) : NAN;
	q->rx_delivery_p99_ns = got[VQP_HIST_RX_DELIVERY] ?
		vqp_hist_quantile(d[VQP_HIST_RX_DELIVERY], 0.99) : NAN;
	return !reset;
}

void vqp_queue_feed(struct vqp_queue *q, struct vqp_track *t, const struct vqp_qmsg *m,
		    uint32_t gen, uint64_t dt_ns)
{
	const struct rate_ctr *cc = &t->rc[VQPAIR_QSTAT_COMPL_COUNT];
	const struct rate_ctr *cs = &t->rc[VQPAIR_QSTAT_COMPL_SUM_NS];
	uint64_t prev_cnt = cc->val, prev_sum = cs->val;
	int id, k;

	q->valid = true;
	for (id = 1; id <= VQPAIR_QSTAT_MAX; id++) {
		q->ctr[id] = m->ctr[id];
		q->rate[id] = NAN;
		if (!(m->stat_present & (1ull << id))) {
			/* an older module without this counter: no rate, no verdict */
			rate_forget(&t->rc[id]);
			continue;
		}
		if (vqp_qstat_is_gauge(id)) {
			q->rate[id] = (double)m->ctr[id];
			continue;
		}
		if (rate_feed(&t->rc[id], m->ctr[id], gen, dt_ns, &q->rate[id]) != RATE_OK)
			q->valid = false;
	}
	if (!vqp_hists_feed(q, t, m, gen))
		q->valid = false;
	q->compl_mean_ns = NAN;
	if (q->valid) {
		uint64_t dc = m->ctr[VQPAIR_QSTAT_COMPL_COUNT] - prev_cnt;

		if (dc && (m->stat_present & (1ull << VQPAIR_QSTAT_COMPL_COUNT)) &&
		    (m->stat_present & (1ull << VQPAIR_QSTAT_COMPL_SUM_NS)))
			q->compl_mean_ns = (double)(m->ctr[VQPAIR_QSTAT_COMPL_SUM_NS] - prev_sum) /
					   (double)dc;
	} else {
		for (id = 1; id <= VQPAIR_QSTAT_MAX; id++)
			if (!vqp_qstat_is_gauge(id))
				q->rate[id] = NAN;
		q->compl_p99_ns = NAN;
		q->tx_delivery_p99_ns = NAN;
		q->rx_delivery_p99_ns = NAN;
	}
	for (k = 1; k <= VQPAIR_KNOB_MAX; k++)
		if (m->knob_present & (1u << k))
			q->knob[k] = m->knob[k];
}
