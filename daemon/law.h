/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * law: the feedback controllers (queue-limit, polling, zerocopy) and the guardrails they share.
 *
 * Every law is a pure function (state, filtered signals, policy) -> at most one bounded step
 * plus a reason: no I/O, no clock, no globals, so it is tested in closed loop against plant
 * models (tests/unit/plant.c). One call per queue per valid tick. The caller (the daemon's
 * decide stage) then runs the proposal through guard_review() and hands an accepted step to
 * the actuator journal; it copies law_step.learn back into law_state.learn on every tick,
 * applied or not, because a law's memory is keyed on the knob values it observes, never on
 * what it proposed.
 *
 * Units are in every name: _ns, _us, _bytes, _per_s; knob values are in the knob's own unit
 * (law_knob_unit()). A signal the kernel does not give is LAW_UNKNOWN (NaN): test it with
 * law_known(), never compare it.
 */
#ifndef VQ_LAW_H
#define VQ_LAW_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#define LAW_UNKNOWN		NAN
/* a law's reason with its figures; a held one adds the guard's words before it */
#define LAW_REASON_MAX		320
/* knob value of a knob the queue does not have (no BQL, not a vqpair, no per-NAPI knobs) */
#define LAW_KNOB_ABSENT		INT64_MIN

static inline bool law_known(double v)
{
	return !isnan(v);
}

/* The knobs the laws move, named as the kernel / ethtool / vqpair name them. */
enum law_knob {
	LK_BQL_LIMIT_MAX,	/* bytes, BQL limit_max */
	LK_BQL_LIMIT_MIN,	/* bytes, BQL limit_min */
	LK_TX_RING_SIZE,	/* descriptors, disruptive */
	LK_TX_FULL_MODE,	/* vqpair: 0 stop, 1 drop */
	LK_RX_USECS,		/* us, coalesce rx-usecs */
	LK_RX_FRAMES,		/* frames, coalesce rx-frames */
	LK_DEFER_HARD_IRQS,	/* count, NAPI defer-hard-irqs */
	LK_GRO_FLUSH_TIMEOUT,	/* ns, NAPI gro-flush-timeout */
	LK_BUSYLOOP_US,		/* us, vqpair busyloop-us */
	LK_BACKEND_WEIGHT,	/* packets, vqpair backend-weight (a worker turn) */
	LK_TX_NAPI,		/* bool, vqpair tx-napi (virtio_net napi_tx) */
	LK_ZEROCOPY,		/* bool, vqpair zerocopy */
	LK_ZEROCOPY_MIN_BYTES,	/* bytes, vqpair zerocopy-min-bytes */
	LK_ZEROCOPY_MAX_PENDING,/* buffers, vqpair zerocopy-max-pending */
	LK_NUM,
	LK_NONE = LK_NUM,	/* law_step.knob when the law holds */
};

/*
 * One queue's signals over the last interval, already filtered by the sampler. Rates are
 * per second over the interval; gauges are the interval's mean unless named _peak.
 */
struct law_signals {
	bool valid;			/* false: reset, new generation, carrier change, ... */
	uint64_t interval_ns;
	/*
	 * The ticks this interval stands for, in base ticks (vqtuned --interval): 1 at a fixed
	 * tick; while the tick is paced (vqtuned(8) INTERVAL PACING), the interval in force
	 * over --interval, rounded down. A law's backoffs (zerocopy re-probe, busyloop
	 * re-search) count these, so they last the same time paced or not. 0 is taken as 1
	 * (law_ticks()).
	 */
	uint32_t ticks;
	/* TX queue (qstats, BQL sysfs, tc) */
	double tx_bytes_per_s;
	double tx_packets_per_s;
	double tx_stop_per_s;		/* qstats tx-stop */
	double tx_wake_per_s;		/* qstats tx-wake */
	double tx_drops_per_s;		/* ring-full drops (vqpair tx-drop-ring-full) */
	double bql_inflight_bytes;	/* BQL inflight, mean */
	double qdisc_backlog_bytes;	/* qdisc backlog in front of the queue, mean */
	/*
	 * That qdisc is one FIFO (pfifo_fast, pfifo, bfifo; tcq.h tcq_kind_fifo()): every
	 * packet waits behind its whole backlog, so what BQL keeps out of the driver waits in
	 * the qdisc instead, in the same line. false: another qdisc, noqueue, or unknown.
	 */
	bool qdisc_fifo;
	/*
	 * BQL held the stack back (dql inflight at its limit) while the qdisc had data: a
	 * stop that qstats tx-stop does not count (it counts driver stops only; BQL's
	 * __QUEUE_STATE_STACK_XOFF is not one). The law treats it as a stop.
	 */
	bool bql_limited;
	double bql_limit_bytes;		/* dql's own limit now (BQL sysfs "limit"), or unknown */
	double capacity_bytes_per_s;	/* line rate (ethtool speed) or LAW_UNKNOWN */
	/* RX side / polling */
	double rx_packets_per_s;
	double events_per_s;		/* interrupts + kicks that woke a poller */
	/*
	 * p99 of the queue's RX delivery latency in the driver, ns: from the peer's xmit to
	 * the stack, so it holds the RX hold (rx-usecs, gro-flush-timeout) and the NAPI wait
	 * (vqpair RX_DELIVERY_HIST). A lower bound of a request's latency: qdisc, the other
	 * direction and the application are outside it. LAW_UNKNOWN where unmeasured.
	 */
	double latency_p99_ns;
	double busyloop_hits_per_s;	/* vqpair busyloop-hits */
	double busyloop_misses_per_s;	/* vqpair busyloop-misses */
	double worker_runs_per_s;	/* vqpair worker-runs: backend turns over the TX ring */
	double tx_events_per_s;		/* vqpair tx-events: TX completion interrupts */
	/* zerocopy (vqpair) */
	double zc_sent_per_s;		/* zerocopy-sent */
	double zc_fallbacks_per_s;	/* zerocopy-fallbacks: eligible but over max-pending */
	double zc_pending;		/* zerocopy-pending, mean */
	double zc_completion_ns;	/* completion-sum-ns / completion-count, mean */
	double tx_ring_size;		/* TX ring descriptors (vqpair tx-ring-size), unknown: 0/NaN */
};

/* law_signals.ticks, 0 taken as 1. */
static inline uint32_t law_ticks(const struct law_signals *sig)
{
	return sig->ticks ? sig->ticks : 1;
}

/* Per-knob bounds of a policy; step_abs_max lets a knob leave 0, where a factor cannot. */
struct law_bounds {
	int64_t min, max;
	int64_t step_abs_max;
};

struct law_policy {
	/* objectives */
	uint64_t qlimit_target_delay_ns;	/* driver queueing delay bound */
	uint64_t latency_target_ns;		/* request/response p99 target for polling */
	double event_budget_per_s;		/* interrupts+kicks per queue the CPU may take */
	uint64_t busyloop_hit_value_ns;		/* a busyloop hit saves a kick + wakeup */
	uint64_t zc_latency_target_ns;		/* "prompt" zerocopy completion */
	int64_t zc_breakeven_bytes;		/* send size where zerocopy beats a copy */
	struct law_bounds bounds[LK_NUM];
	bool allow_disruptive;
	/* guard */
	uint32_t cooldown_ticks;		/* min ticks between two steps of one knob */
	uint32_t settle_ticks;			/* ticks after a step before judging it */
	uint32_t hold_ticks;			/* hold after a rollback or oscillation */
	uint32_t osc_window_ticks;		/* window of the oscillation detector */
	uint32_t osc_reversals_max;		/* reversals allowed inside that window */
	double hysteresis;			/* relative dead band of a step (0.04 = 4%) */
	double step_factor_max;			/* a step multiplies or divides by <= this */
	double rollback_worse;			/* relative objective loss that rolls back */
};

/* What a law remembers between ticks (keyed on observed knob values; see the top). */
struct law_learn {
	/* queue-limit: completion period learned while starving, and its context */
	double ql_period_ns;
	double ql_period_pkt_bytes;
	int64_t ql_period_zerocopy;		/* vqpair zerocopy knob when P was learned */
	double ql_peak_bytes_per_s;		/* capacity estimate without a line rate */
	uint32_t ql_starve_ticks;		/* consecutive starving intervals ... */
	int64_t ql_starve_limit_bytes;		/* ... at this limit_max */
	/* probes above a capped limit without a line rate (law_qlimit.c ql_probe()) */
	int64_t ql_probe_limit_bytes;		/* limit_max a probe started from, 0: none */
	double ql_probe_rate;			/* the best rate at that limit */
	double ql_probe_failed_rate;		/* a probe from this rate did not raise it ... */
	int64_t ql_probe_failed_limit_bytes;	/* ... from this limit_max */
	bool ql_seen_full;			/* held a queue once (law_qlimit.c) */
	/* polling: busyloop search (law_poll.c) */
	int64_t bl_base_us;			/* the last value whose move paid */
	double bl_base_hit;			/* hit fraction of all spins there */
	int64_t bl_failed_us;			/* the last probe that did not pay */
	int64_t bl_step_us;			/* signed; 0: no search running */
	double bl_ctx_pps;			/* packet rate the search started at */
	bool bl_settled, bl_moved, bl_tried_up;
	bool bl_nohit;				/* a search from 0 ended on a spin hitting nothing */
	uint32_t bl_retry_ticks;		/* backoff of searches from 0 that did not pay */
	uint32_t bl_quiet_ticks;		/* base ticks settled since the last search */
	uint32_t bl_ctx_ticks;			/* consecutive ticks its context has moved */
	/* polling: tx-napi off starved the queue at this packet rate (0: never) */
	double tn_starved_pps;
	/* zerocopy: backoff of re-enable probes */
	uint32_t zc_off_ticks;			/* base ticks seen off in a row (law_ticks()) */
	uint32_t zc_retry_ticks;		/* current re-enable backoff, 0: none */
	bool zc_seen_on;			/* the last interval had zerocopy on */
	double zc_copy_bytes_per_s;		/* TX rate seen in copy mode (decaying peak), 0: none */
	double zc_budget_peak;			/* prompt (a + f) x T, decaying peak, buffers */
};

struct law_state {
	int64_t knob[LK_NUM];		/* current values, LAW_KNOB_ABSENT if missing */
	struct law_learn learn;
};

struct law_step {
	enum law_knob knob;		/* LK_NONE: hold */
	int64_t old_value, new_value;
	bool evaluate;			/* the guard may roll it back if the cost worsens */
	/*
	 * The law undoes its own last step, which it judged did not pay (a search's way back
	 * to its base): the oscillation guard lets it through and holds after it, so a hold
	 * never strands the knob on a probe the law has already rejected.
	 */
	bool retreat;
	struct law_learn learn;		/* copy into law_state.learn after every call */
	char reason[LAW_REASON_MAX];
};

/* Why a knob is held until guard_knob.hold_until_tick: each named in the held reason. */
enum guard_hold_why {
	GUARD_HOLD_NONE,
	GUARD_HOLD_ROLLBACK,		/* its step made the law's objective worse: undone */
	GUARD_HOLD_FLOOR,		/* its step broke the throughput floor: undone (decide.c) */
	GUARD_HOLD_OSCILLATION,		/* too many direction reversals in the window */
	GUARD_HOLD_FAILED,		/* the write failed: kernel or journal (decide.c) */
};

/* Guard state of one knob of one queue. All ticks count from 1; 0 means "never". */
#define GUARD_REV_MAX	16
struct guard_knob {
	uint64_t last_step_tick;
	int last_dir;			/* -1 down, +1 up, 0 none yet */
	uint64_t rev_tick[GUARD_REV_MAX];	/* ring of ticks of direction reversals */
	uint32_t rev_next;
	uint64_t hold_until_tick;
	int hold_dir;			/* +1 / -1: only steps that way are held; 0: all */
	enum guard_hold_why hold_why;	/* what started the hold */
	uint64_t hold_from_tick;	/* the tick it started */
	bool eval_pending;
	int64_t eval_old, eval_new;
	double eval_cost;		/* objective before the step */
	uint64_t eval_tick;
};

struct guard_input {
	enum law_knob knob;		/* the knob @g guards */
	uint64_t tick;
	bool valid;			/* the interval's signals are usable */
	bool pinned;			/* manual set or outside write: never move it */
	int64_t value;			/* the knob's value now, read back */
	double cost;			/* the law's objective now (lower is better), or NaN */
};

enum guard_verdict {
	GUARD_NONE,			/* nothing proposed, nothing to undo */
	GUARD_APPLY,			/* *out is the (bounded) step to write */
	GUARD_ROLLBACK,			/* *out undoes the last step */
	GUARD_HOLD,			/* a step was refused; out->reason says why */
};

/* Knob table: name as the kernel spells it, unit, and whether a write resets queues. */
const char *law_knob_name(enum law_knob k);
const char *law_knob_unit(enum law_knob k);
bool law_knob_disruptive(enum law_knob k);

/* The balanced defaults; every constant's reason is beside it in guard.c. */
void law_policy_defaults(struct law_policy *p);
/* A state with every knob absent and an empty memory. */
void law_state_init(struct law_state *st);

/*
 * The laws. Each fills *out (always: knob LK_NONE and a reason when holding) and returns 1
 * when it proposes a step, 0 when it holds, -EINVAL on a NULL argument. They never return a
 * value outside policy bounds. Math and stability: the header comment of each file.
 */
int law_qlimit_step(const struct law_state *st, const struct law_signals *sig,
		    const struct law_policy *pol, struct law_step *out);
int law_poll_step(const struct law_state *st, const struct law_signals *sig,
		  const struct law_policy *pol, struct law_step *out);
int law_zc_step(const struct law_state *st, const struct law_signals *sig,
		const struct law_policy *pol, struct law_step *out);

/* Objectives for the guard's rollback check (lower is better; NaN when not computable). */
double law_qlimit_cost(const struct law_state *st, const struct law_signals *sig,
		       const struct law_policy *pol);
double law_poll_cost(const struct law_state *st, const struct law_signals *sig,
		     const struct law_policy *pol);
double law_zc_cost(const struct law_state *st, const struct law_signals *sig,
		   const struct law_policy *pol);

/*
 * Review @want (a law's proposal for knob want->knob, or LK_NONE) against the guardrails of
 * @g for that knob and produce the verdict; *out holds the step to write (APPLY, ROLLBACK)
 * or the reason of the refusal (HOLD). Deterministic, no I/O; updates only *g, and only as
 * if the returned step were written (the caller must write it or call guard_forget()).
 * Order: invalid interval, pin, rollback of a step that worsened the cost, hold, cooldown,
 * disruptive consent, hysteresis, step bound, oscillation. Returns the verdict.
 */
enum guard_verdict guard_review(struct guard_knob *g, const struct law_step *want,
				const struct guard_input *in, const struct law_policy *pol,
				struct law_step *out);
/* The knobs each law moves, as masks of (1 << enum law_knob), for guard_tick(). */
#define LAW_KNOB_BIT(k)		(1u << (k))
#define LAW_QLIMIT_KNOBS	(LAW_KNOB_BIT(LK_BQL_LIMIT_MAX) |			\
				 LAW_KNOB_BIT(LK_BQL_LIMIT_MIN) |			\
				 LAW_KNOB_BIT(LK_TX_RING_SIZE) | LAW_KNOB_BIT(LK_TX_FULL_MODE))
#define LAW_POLL_KNOBS		(LAW_KNOB_BIT(LK_RX_USECS) | LAW_KNOB_BIT(LK_RX_FRAMES) | \
				 LAW_KNOB_BIT(LK_DEFER_HARD_IRQS) |			\
				 LAW_KNOB_BIT(LK_GRO_FLUSH_TIMEOUT) |			\
				 LAW_KNOB_BIT(LK_BUSYLOOP_US) |			\
				 LAW_KNOB_BIT(LK_BACKEND_WEIGHT) |			\
				 LAW_KNOB_BIT(LK_TX_NAPI))
#define LAW_ZC_KNOBS		(LAW_KNOB_BIT(LK_ZEROCOPY) |				\
				 LAW_KNOB_BIT(LK_ZEROCOPY_MIN_BYTES) |			\
				 LAW_KNOB_BIT(LK_ZEROCOPY_MAX_PENDING))

/*
 * One tick of one law on one queue, as the daemon's decide stage runs it: every present knob
 * of @st in @knob_mask (the law's, LAW_*_KNOBS) is reviewed, so pending judgements run even
 * when the law proposes nothing, and with this law's @cost only. Accepted values are written
 * into st->knob and listed in done[] (returns how many, 0..LK_NUM); a refusal lands in
 * *held. Copies want->learn into st->learn. Bit k of @pinned_mask pins knob k. @g holds all
 * knobs of the queue (all laws share it): a step is judged (rolled back if worse) only when
 * it is the one change of the queue in its window; a step whose baseline followed another
 * change, or that another change overlaps, is left unjudged, since the cost cannot tell them
 * apart. The caller writes done[] through the actuator journal; on a failed write it puts
 * the old value back into st->knob and calls guard_forget() for that knob.
 */
int guard_tick(struct guard_knob g[LK_NUM], struct law_state *st, const struct law_step *want,
	       uint32_t knob_mask, uint64_t tick, bool valid, double cost, uint32_t pinned_mask,
	       const struct law_policy *pol, struct law_step done[LK_NUM], struct law_step *held);
/* Forget the guard's memory of a knob (write failed, knob released after a pin). */
void guard_forget(struct guard_knob *g);
/*
 * Hold the knob of @g from @tick for @hold_ticks ticks because of @why: its reviews until
 * then are GUARD_HOLD, their reason naming @why and @tick ("held bql-limit-max until tick
 * 45: its write failed at tick 15 ..."). @dir +1 or -1 holds only steps that way (a rolled
 * back step's direction: the law may still move the other way, away from what was undone);
 * 0 holds every step. The guard's own rollback and oscillation holds use it, and so does
 * the decide stage for a failed write and a throughput-floor rollback.
 */
void guard_hold_for(struct guard_knob *g, enum guard_hold_why why, uint64_t tick,
		    uint32_t hold_ticks, int dir);

/* Helpers the laws share (guard.c): clamp to bounds, relative change, reason writer. */
int64_t law_clamp(const struct law_policy *pol, enum law_knob k, double v);
double law_rel_change(int64_t from, int64_t to);
int law_propose(struct law_step *out, enum law_knob k, int64_t old_value, int64_t new_value,
		bool evaluate, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
int law_hold(struct law_step *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
