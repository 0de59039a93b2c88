// SPDX-License-Identifier: GPL-2.0-only
/* plant: the models of tests/unit/plant.h; see there for what each one represents. */
#include <math.h>
#include <string.h>

#include "plant.h"

#define NS_PER_S	1e9
#define NS_PER_US	1e3
/* virtio_net stops a TX queue with fewer than 2 + MAX_SKB_FRAGS (17) free descriptors */
#define PLANT_RING_RESERVE	19

void plant_txq_init(struct plant_txq *p)
{
	p->now_ns = 0;
	p->arrive_credit = 0;
	p->qdisc_pkts = 0;
	p->inflight_bytes = p->unsent_bytes = p->sent_bytes = 0;
	p->compl_due_ns = 0;
	p->stopped = false;
}

/* Packets join the qdisc; beyond its cap they are dropped (a tail-drop qdisc). */
static void txq_arrive(struct plant_txq *p, double dt_s)
{
	p->arrive_credit += p->offered_bytes_per_s * dt_s;
	while (p->arrive_credit >= p->pkt_bytes) {
		if ((double)p->qdisc_pkts * p->pkt_bytes < p->qdisc_cap_bytes)
			p->qdisc_pkts++;
		p->arrive_credit -= p->pkt_bytes;
	}
}

/* dev_queue_xmit while the queue runs: BQL stops it once inflight exceeds the limit. */
static void txq_enqueue(struct plant_txq *p, double *stops)
{
	while (!p->stopped && p->qdisc_pkts) {
		p->qdisc_pkts--;
		p->inflight_bytes += p->pkt_bytes;
		p->unsent_bytes += p->pkt_bytes;
		if (p->inflight_bytes > (double)p->limit_bytes) {
			p->stopped = true;
			(*stops)++;
		}
	}
}

/* The wire; returns bytes sent this step. */
static double txq_wire(struct plant_txq *p, double dt_s)
{
	/* an idle wire saves nothing up */
	double send = fmin(p->drain_bytes_per_s * dt_s, p->unsent_bytes);

	p->unsent_bytes -= send;
	p->sent_bytes += send;
	if (send > 0 && !p->compl_due_ns)
		p->compl_due_ns = p->now_ns + p->compl_period_ns;
	return send;
}

/* TX completion: whole packets sent are freed; a stopped queue wakes below its limit. */
static void txq_complete(struct plant_txq *p, double *wakes)
{
	double pkts = floor(p->sent_bytes / p->pkt_bytes);

	if (pkts < 1 || (pkts < p->compl_frames && p->now_ns < p->compl_due_ns))
		return;
	p->sent_bytes -= pkts * p->pkt_bytes;
	p->inflight_bytes -= pkts * p->pkt_bytes;
	p->compl_due_ns = p->sent_bytes > 0 ? p->now_ns + p->compl_period_ns : 0;
	if (p->stopped && p->inflight_bytes <= (double)p->limit_bytes) {
		p->stopped = false;
		(*wakes)++;
	}
}

void plant_txq_run(struct plant_txq *p, uint64_t interval_ns, struct law_signals *sig)
{
	double dt_s = PLANT_DT_NS / NS_PER_S, secs = interval_ns / NS_PER_S;
	double stops = 0, wakes = 0, wire = 0, inflight = 0, backlog = 0, unsent = 0;
	uint64_t end = p->now_ns + interval_ns, steps = 0;

	p->starved_ns = 0;
	while (p->now_ns < end) {
		txq_arrive(p, dt_s);
		txq_enqueue(p, &stops);
		wire += txq_wire(p, dt_s);
		if (p->unsent_bytes <= 0 && p->qdisc_pkts)
			p->starved_ns += PLANT_DT_NS;
		p->now_ns += PLANT_DT_NS;
		txq_complete(p, &wakes);
		txq_enqueue(p, &stops);
		inflight += p->inflight_bytes;
		unsent += p->unsent_bytes;
		backlog += (double)p->qdisc_pkts * p->pkt_bytes;
		steps++;
	}
	memset(sig, 0, sizeof(*sig));
	sig->valid = true;
	sig->interval_ns = interval_ns;
	sig->tx_bytes_per_s = wire / secs;
	sig->tx_packets_per_s = wire / p->pkt_bytes / secs;
	sig->tx_stop_per_s = p->hide_stack_stops ? 0 : stops / secs;
	sig->tx_wake_per_s = p->hide_stack_stops ? 0 : wakes / secs;
	sig->bql_limited = p->hide_stack_stops && stops > 0;
	/*
	 * The plant has no dql. Real dql grows its limit after an interval in which the wire
	 * went idle while data waited, and settles under a cap that is big enough: so "dql"
	 * sits at the cap when the interval starved, and well under it otherwise.
	 */
	sig->bql_limit_bytes = !p->hide_stack_stops ? LAW_UNKNOWN :
		p->starved_ns > 0 || p->dql_always_capped ? (double)p->limit_bytes :
		(double)p->limit_bytes / 2;
	sig->tx_drops_per_s = 0;
	sig->bql_inflight_bytes = inflight / steps;
	sig->qdisc_backlog_bytes = backlog / steps;
	sig->capacity_bytes_per_s = p->drain_bytes_per_s;
	p->delay_mean_ns = unsent / steps / p->drain_bytes_per_s * NS_PER_S;
	sig->rx_packets_per_s = sig->events_per_s = sig->latency_p99_ns = LAW_UNKNOWN;
	sig->busyloop_hits_per_s = sig->busyloop_misses_per_s = LAW_UNKNOWN;
	sig->zc_sent_per_s = sig->zc_fallbacks_per_s = LAW_UNKNOWN;
	sig->zc_pending = sig->zc_completion_ns = LAW_UNKNOWN;
}

double plant_txq_period_ns(const struct plant_txq *p)
{
	double frames_ns = (double)p->compl_frames * p->pkt_bytes / p->drain_bytes_per_s * NS_PER_S;

	return fmin((double)p->compl_period_ns, frames_ns);
}

double plant_txq_optimum_bytes(const struct plant_txq *p, uint64_t target_ns, double headroom)
{
	double per = plant_txq_period_ns(p), t = (double)target_ns;

	/* a completion frees whole packets: the floor holds one more */
	if (per > t)
		return p->drain_bytes_per_s / NS_PER_S * per * (1 + headroom) + p->pkt_bytes;
	return p->drain_bytes_per_s / NS_PER_S * t;
}

static double poll_hold_ns(const struct plant_poll *p)
{
	if (p->napi_mode)
		return p->defer_hard_irqs > 0 ? (double)p->gro_flush_timeout_ns : 0;
	return (double)p->rx_usecs * NS_PER_US;
}

/* fraction of gaps a spin of @s_us catches */
static double poll_hit(const struct plant_poll *p, double s_us)
{
	return p->short_frac * fmin(s_us, p->short_gap_us) / p->short_gap_us;
}

void plant_poll_run(const struct plant_poll *p, uint64_t interval_ns, struct law_signals *sig)
{
	double lam = p->pkts_per_s, u_s = poll_hold_ns(p) / NS_PER_S;
	double h = p->busyloop_us > 0 ? poll_hit(p, (double)p->busyloop_us) : 0;
	double batch = 1 + p->eta * lam * u_s;

	if (p->rx_frames > 0 && batch > (double)p->rx_frames)
		batch = (double)p->rx_frames;
	memset(sig, 0, sizeof(*sig));
	sig->valid = true;
	sig->interval_ns = interval_ns;
	sig->rx_packets_per_s = lam;
	sig->events_per_s = lam / batch;
	sig->latency_p99_ns = p->base_ns + u_s * NS_PER_S;
	sig->bql_limited = false;
	sig->bql_limit_bytes = LAW_UNKNOWN;
	sig->busyloop_hits_per_s = lam * h;
	sig->busyloop_misses_per_s = p->busyloop_us > 0 ? lam * (1 - h) : 0;
	sig->tx_bytes_per_s = sig->tx_packets_per_s = sig->tx_stop_per_s = LAW_UNKNOWN;
	sig->tx_wake_per_s = sig->tx_drops_per_s = sig->bql_inflight_bytes = LAW_UNKNOWN;
	sig->qdisc_backlog_bytes = sig->capacity_bytes_per_s = LAW_UNKNOWN;
	sig->zc_sent_per_s = sig->zc_fallbacks_per_s = LAW_UNKNOWN;
	sig->zc_pending = sig->zc_completion_ns = LAW_UNKNOWN;
	if (p->tx_known)
		sig->tx_packets_per_s = lam;
}

double plant_poll_hold_optimum_ns(const struct plant_poll *p, double budget_per_s,
				  double target_ns)
{
	double lam = p->pkts_per_s;
	double u = lam > budget_per_s ? (lam / budget_per_s - 1) / (lam * p->eta) * NS_PER_S : 0;

	return fmax(0, fmin(u, target_ns - p->base_ns));
}

double plant_poll_busyloop_optimum_us(const struct plant_poll *p, double hit_value_us)
{
	double g = p->short_gap_us, pf = p->short_frac;
	/* J(g) = W p - E[spin(g)], E[spin(g)] = g - p g / 2 (uniform short gaps) */
	double j = hit_value_us * pf - (g - pf * g / 2);

	return j > 0 ? g : 0;
}

void plant_zc_run(struct plant_zc *p, uint64_t interval_ns, struct law_signals *sig)
{
	double dt_s = PLANT_DT_NS / NS_PER_S, secs = interval_ns / NS_PER_S;
	double zc = 0, fb = 0, sent = 0, compl = 0, pend_sum = 0;
	bool eligible = p->zerocopy && p->send_bytes >= (uint64_t)p->min_bytes;
	uint64_t t, steps = 0;

	p->stalled_ns = 0;
	for (t = 0; t < interval_ns; t += PLANT_DT_NS, steps++) {
		double c = fmin(p->pending, fmin(p->consumer_per_s * dt_s,
						 p->pending * PLANT_DT_NS / p->base_ns));
		double s = p->sends_per_s * dt_s, adm = 0;

		p->pending -= c;
		compl += c;
		if (p->pending > (double)p->ring_size - PLANT_RING_RESERVE ||	/* pinned */
		    (p->sock_limit > 0 && p->pending >= p->sock_limit)) {	/* throttled */
			s = 0;
			p->stalled_ns += PLANT_DT_NS;
		}
		if (eligible)
			adm = fmin(s, fmax(0, (double)p->max_pending - p->pending));
		p->pending += adm;
		zc += adm;
		fb += eligible ? s - adm : 0;
		sent += s;
		pend_sum += p->pending;
	}
	memset(sig, 0, sizeof(*sig));
	sig->valid = true;
	sig->interval_ns = interval_ns;
	sig->tx_packets_per_s = sent / secs;
	sig->tx_bytes_per_s = sent * p->send_bytes / secs;
	sig->tx_stop_per_s = p->stalled_ns > 0 ? 1 / secs : 0;
	sig->bql_limited = false;
	sig->bql_limit_bytes = LAW_UNKNOWN;
	sig->zc_sent_per_s = p->zerocopy ? zc / secs : LAW_UNKNOWN;
	sig->zc_fallbacks_per_s = p->zerocopy ? fb / secs : LAW_UNKNOWN;
	sig->zc_pending = pend_sum / steps;
	/* Little's law over the interval: mean pending / completion rate */
	sig->zc_completion_ns = compl > 0 ? sig->zc_pending / (compl / secs) * NS_PER_S :
		LAW_UNKNOWN;
	sig->tx_wake_per_s = sig->tx_drops_per_s = sig->bql_inflight_bytes = LAW_UNKNOWN;
	sig->qdisc_backlog_bytes = sig->capacity_bytes_per_s = LAW_UNKNOWN;
	sig->rx_packets_per_s = sig->events_per_s = sig->latency_p99_ns = LAW_UNKNOWN;
	sig->busyloop_hits_per_s = sig->busyloop_misses_per_s = LAW_UNKNOWN;
	sig->tx_ring_size = p->report_ring ? p->ring_size : LAW_UNKNOWN;
}

void plant_zc_optimum(const struct plant_zc *p, double target_ns, int64_t min_pending,
		      int64_t *zerocopy, double *max_pending)
{
	double t_s = target_ns / NS_PER_S;

	if (p->consumer_per_s > p->sends_per_s) {
		*zerocopy = 1;
		*max_pending = p->sends_per_s * t_s;
		return;
	}
	*max_pending = p->consumer_per_s * t_s;
	*zerocopy = *max_pending >= (double)min_pending;
}

void trace_record(struct trace *t, const struct law_state *st, const struct law_step *done,
		  int ndone)
{
	int i;

	if (t->n >= TRACE_MAX_TICKS)
		return;
	memcpy(t->val[t->n], st->knob, sizeof(t->val[0]));
	memset(t->dir[t->n], 0, sizeof(t->dir[0]));
	for (i = 0; i < ndone; i++) {
		t->dir[t->n][done[i].knob] = done[i].new_value > done[i].old_value ? 1 : -1;
		t->steps++;
		if (!strncmp(done[i].reason, "rollback", 8))
			t->rollbacks++;
	}
	t->n++;
}

uint32_t trace_reversals(const struct trace *t, enum law_knob k, uint32_t from, uint32_t to)
{
	uint32_t i, n = 0;
	int last = 0;

	for (i = from; i < to && i < t->n; i++) {
		if (!t->dir[i][k])
			continue;
		if (last && t->dir[i][k] != last)
			n++;
		last = t->dir[i][k];
	}
	return n;
}

static bool trace_near(double v, double target, double tol)
{
	return target ? fabs(v - target) <= tol * fabs(target) : fabs(v) <= tol;
}

uint32_t trace_settled_at(const struct trace *t, enum law_knob k, uint32_t from, uint32_t to,
			  double target, double tol)
{
	uint32_t i = to < t->n ? to : t->n;

	while (i > from && trace_near((double)t->val[i - 1][k], target, tol))
		i--;
	return i == (to < t->n ? to : t->n) ? to : i;
}

bool trace_in_bounds(const struct trace *t, const struct law_policy *pol)
{
	uint32_t i;
	int k;

	for (i = 0; i < t->n; i++)
		for (k = 0; k < LK_NUM; k++)
			if (t->val[i][k] != LAW_KNOB_ABSENT &&
			    (t->val[i][k] < pol->bounds[k].min ||
			     t->val[i][k] > pol->bounds[k].max))
				return false;
	return true;
}

static double jitter_u(uint64_t *seed, double frac)
{
	uint64_t x = *seed;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*seed = x;
	return frac * (2.0 * (double)(x >> 11) / (double)(1ULL << 53) - 1.0);
}

void plant_jitter(struct law_signals *sig, uint64_t *seed, double frac)
{
	double *f[] = {
		&sig->tx_bytes_per_s, &sig->tx_packets_per_s, &sig->tx_stop_per_s,
		&sig->tx_wake_per_s, &sig->bql_inflight_bytes, &sig->qdisc_backlog_bytes,
		&sig->rx_packets_per_s, &sig->events_per_s, &sig->latency_p99_ns,
		&sig->busyloop_hits_per_s, &sig->busyloop_misses_per_s, &sig->zc_sent_per_s,
		&sig->zc_fallbacks_per_s, &sig->zc_pending, &sig->zc_completion_ns,
	};
	size_t i;

	for (i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (law_known(*f[i]))
			*f[i] *= 1 + jitter_u(seed, frac);
}
