/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * decide: the control stage of vqtuned. Once per tick, after sampling, for every device the
 * policy selects (policy_selects()) that is managed, not paused, and in mode advise or
 * active, it runs the enabled laws (law.h) per control unit through the guard (guard_tick())
 * and hands accepted steps to the actuator journal (act_set(), active mode) or records them
 * (advise mode). Every decision is an event with the controller, the decision and the
 * signals that drove it (act.h: act_context()).
 *
 * Control units: unit q owns TX queue q and RX queue q (and the NAPI serving RX queue q).
 * Queue-scoped knobs (BQL tx-N, vqpair tx-N, per-NAPI) belong to their unit; device-wide
 * knobs (ethtool coalesce and rings, device-wide NAPI sysfs) to unit 0, whose polling
 * signals are then the sum over all RX queues. Of a vqpair, only the front is controlled:
 * the back shares the pair's knobs.
 *
 * Decisions (the "decision" of events and views):
 *	applied   a step was written (active mode)
 *	rollback  a step that made the law's objective worse was undone (active mode)
 *	advised   a step the law and the guard accept, not written (advise mode)
 *	held      a step the law proposed and a guardrail refused (cooldown, pin, hold,
 *	          oscillation, disruptive consent)
 *	failed    the kernel or the journal refused a write (the knob keeps its value)
 * Advised and held decisions repeat every tick while their cause lasts: an event is emitted
 * when the (knob, value or reason) changes, and again at most every DECIDE_REPEAT_TICKS.
 */
#ifndef VQ_DECIDE_H
#define VQ_DECIDE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "law.h"
#include "policy.h"

struct device;
struct prom;

/* an unchanged advised/held decision is re-announced every this many ticks */
#define DECIDE_REPEAT_TICKS	60

enum decide_decision {
	DD_NONE,		/* the law holds: nothing to do */
	DD_APPLIED,
	DD_ROLLBACK,
	DD_ADVISED,
	DD_HELD,
	DD_FAILED,
	DD_NUM
};

const char *decide_decision_name(enum decide_decision d);
const char *decide_law_name(enum policy_ctl c);

/*
 * One tick of the control stage over every device (main loop, after smp_tick()). @ticks
 * is how many base ticks (--interval) this tick stands for: 1 at a fixed tick, the paced
 * interval over --interval while paced (vqtuned(8) INTERVAL PACING); 0 is taken as 1. The
 * guard's windows (cooldown, settle, hold, oscillation) and the laws' backoffs
 * (law_signals.ticks) count base ticks, so they last the same time paced or not.
 */
void decide_tick(unsigned int ticks);

/* Why @d is (not) controlled: "active", "advise", "observe", "paused", "unmanaged",
 * "not-selected", "back" (the back of a vqpair). */
const char *decide_state(const struct device *d);
/* Whether the policy's laws run on @d: decide_state() is "active" or "advise". */
bool decide_controlled(const struct device *d);
/* The devices managed (d->managed) and controlled (decide_controlled()) now, as
 * /v1/status and /metrics count them. */
void decide_device_counts(unsigned int *managed, unsigned int *controlled);

/*
 * The "controller" object of one queue in GET /v1/devices/{dev}/queues (docs/api.md):
 * state, and per law of that direction (TX: qlimit, zerocopy; RX: polling) the last
 * decision, knob, old/new value, reason, objective and tick. New reference.
 */
json_t *decide_queue_json(const struct device *d, unsigned int q, bool tx);

/*
 * Whether a controller may move instance @inst of knob @k of @d now: the device is
 * controlled (state active or advise), an enabled law moves that knob, and it is not
 * pinned (the "controlled" flag of GET /v1/devices/{dev}).
 */
bool decide_controls(const struct device *d, int k, const char *inst);

/* Control units of @d (0: none yet). */
unsigned int decide_units(const struct device *d);
/*
 * Of law @law on unit @q of @d: *steps = steps written (applied and rolled back), *objective
 * = the law's objective at its last run (lower is better, NAN unknown), *last = its last
 * decision. False when the unit has not run that law.
 */
bool decide_unit_law(const struct device *d, unsigned int q, enum policy_ctl law,
		     uint64_t *steps, double *objective, enum decide_decision *last);

/* Decisions counted since start, per kind (metrics, status). */
uint64_t decide_count(enum decide_decision dd);

/*
 * Fill @sig from the sample of @d for unit @q (exposed for tests): counters the device does
 * not give are LAW_UNKNOWN. Returns whether the interval is usable (also in sig->valid).
 */
bool decide_signals(const struct device *d, unsigned int q, struct law_signals *sig);

/* @sig as a JSON object of its known fields, in the signal's unit (event "signals"). */
json_t *decide_signals_json(const struct law_signals *sig);

#endif
