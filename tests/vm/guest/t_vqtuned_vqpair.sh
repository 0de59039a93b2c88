#!/bin/sh
# vqtuned's vqpair provider against the module: the queues API shows the pair's per-queue
# counters (bracketed by vqpairctl reads before and after the daemon's sample), latency
# while traffic flows, the vqpair knobs only on the FRONT, PUTs of busyloop-us, zerocopy
# and tx-full-mode that reach the module (read back with vqpairctl), an out-of-range PUT
# refused naming the field, SIGTERM putting the original values back, the daemon's
# scheduler slice in force as this kernel allows it, and the back sampled every 10 s while
# the front is sampled every tick.
. /tests/lib.sh
trap cleanup EXIT
[ -x /bin/vqtuned ] && [ -x /bin/vqtunectl ] || skip "vqtuned/vqtunectl not in the initramfs"

TICK_MS=100
SETTLE_S=0.5		# > 2 ticks: the daemon holds a sample newer than the read before
VQDIR=/tmp/vqtuned
SOCK=$VQDIR/run/vqtuned.sock
STATE=$VQDIR/state
# originals set before the daemon starts: not the defaults, so a restore to a default fails
ORIG_BUSY=30 ORIG_ZC=0 ORIG_FULL=0

ctl() { vqtunectl -s $SOCK "$@"; }
# vqj KEY: the first "KEY": value inside the first "vqpair" object of a --json reply
vqj() {
	awk -v k="\"$1\":" 'f && $1 == k { v = $2; sub(/,$/, "", v); print v; exit }
		/"vqpair": \{/ { f = 1 }'
}

pair_up 1
# no IPv6 chatter (DAD, router solicitations): the pair carries only this test's packets
ina sysctl -w net.ipv6.conf.all.disable_ipv6=1 > /dev/null 2>&1
inb sysctl -w net.ipv6.conf.all.disable_ipv6=1 > /dev/null 2>&1
set_knob busyloop-us $ORIG_BUSY zerocopy $ORIG_ZC tx-full-mode $ORIG_FULL

mkdir -p $VQDIR/run
vqtuned -s $SOCK -S $STATE --netns $NSA --netns $NSB --interval $TICK_MS --sched-slice 100 \
	> $VQDIR/log 2>&1 &
DPID=$!
PIDS="$PIDS $DPID"
for _ in $(seq 50); do
	ctl status > /dev/null 2>&1 && break
	kill -0 $DPID 2>/dev/null || { cat $VQDIR/log; fail "vqtuned exited"; }
	sleep 0.2
done
ctl status > /dev/null || { cat $VQDIR/log; fail "vqtuned does not answer"; }
# the daemon's scheduler slice (daemon/slice.h): the 100 us of --sched-slice 100 where the
# kernel keeps a slice per task (6.12+); 0 before, and the start-up line says so
sl=$(ctl --json status | sed -n 's/.*"sched_slice_ns": *\([0-9]*\).*/\1/p')
case $(uname -r) in
[0-5].*|6.[0-9].*|6.1[01].*) want=0 ;;
*) want=100000 ;;
esac
[ "$sl" = "$want" ] || fail "status sched_slice_ns '$sl' on $(uname -r), not $want"
[ $want != 0 ] || grep -q "this kernel keeps no slice per task" $VQDIR/log ||
	{ cat $VQDIR/log; fail "the start-up log does not say the kernel keeps no slice per task"; }
ok "scheduler slice $sl ns on $(uname -r)"
# the first tick discovers the pair; a later one holds its first vqpair sample
for _ in $(seq 50); do
	ctl --json queues $NSA:$FRONT 2>/dev/null | grep -q '"vqpair"' && break
	sleep 0.2
done
ctl --json queues $NSA:$FRONT > /tmp/q.first 2>&1
grep -q '"vqpair"' /tmp/q.first ||
	{ cat /tmp/q.first; ctl devices; cat $VQDIR/log; fail "no vqpair object for $FRONT"; }

# ---- latency while traffic flows: any of a few API reads during a 4 s iperf3 ----
/sbin/ip netns exec $NSB iperf3 -s -1 -B $IPB > /dev/null 2>&1 &
SPID=$!
sleep 0.5
/sbin/ip netns exec $NSA iperf3 -c $IPB -t 4 > /tmp/iperf.out 2>&1 &
CPID=$!
PIDS="$PIDS $SPID $CPID"
got=0
for i in 1 2 3 4 5 6 7 8 9 10; do
	sleep 0.3
	ctl --json queues $NSA:$FRONT > /tmp/q.busy || fail "queues API"
	valid=$(vqj valid < /tmp/q.busy) p99=$(vqj completion_p99_ns < /tmp/q.busy)
	mean=$(vqj completion_mean_ns < /tmp/q.busy) rate=$(vqj tx_packets_per_s < /tmp/q.busy)
	# delivery: data front -> back (tx), its ACKs back -> front (rx)
	txd=$(vqj tx_delivery_p99_ns < /tmp/q.busy) rxd=$(vqj rx_delivery_p99_ns < /tmp/q.busy)
	echo "read $i: valid $valid tx_packets_per_s $rate completion mean $mean p99 $p99 ns," \
		"delivery p99 tx $txd rx $rxd ns"
	if [ "$valid" = true ] && awk -v m="$mean" -v p="$p99" -v r="$rate" -v t="$txd" \
		-v x="$rxd" 'BEGIN { exit !(m > 0 && p >= m / 2 && r > 0 && t > 0 && x > 0) }'; then
		got=1
		break
	fi
done
wait $CPID || { cat /tmp/iperf.out; fail "iperf3"; }
wait $SPID
PIDS=$DPID
if [ $got = 0 ]; then
	sed -n '/"vqpair"/,$p' /tmp/q.busy | head -60
	ctl status
	tail -20 $VQDIR/log
	fail "no latency (completion, delivery) or rate under load"
fi
ok "completion mean/p99 and rates under load"

# ---- counters: vqpairctl before <= API <= vqpairctl after ----
sleep 1
ina vqpairctl stats $FRONT -q > /tmp/s.before
sleep $SETTLE_S
ctl --json queues $NSA:$FRONT > /tmp/q.idle || fail "queues API"
ina vqpairctl stats $FRONT -q > /tmp/s.after
for n in tx-packets tx-bytes kicks worker-runs completion-count completion-sum-ns \
	 rx-packets tx-inflight-peak-bytes; do
	key=$(echo $n | tr - _)
	a=$(awk -v n=$n '$1 == "q0" && $2 == n { print $3 }' /tmp/s.before)
	c=$(awk -v n=$n '$1 == "q0" && $2 == n { print $3 }' /tmp/s.after)
	b=$(vqj $key < /tmp/q.idle)
	[ -n "$b" ] && [ "$b" -ge "$a" ] && [ "$b" -le "$c" ] ||
		fail "$n: API $b not within vqpairctl [$a, $c]"
done
pk=$(vqj tx_packets < /tmp/q.idle)
[ "$pk" -gt 1000 ] || fail "tx_packets $pk after a 3 s iperf3"
ok "API counters match vqpairctl (tx_packets $pk)"
ctl --json queues $NSB:$BACK | grep -q '"end": "back"' || fail "back not reported as back"

# ---- the back is sampled every 10 s (nothing acts on it), the front every tick ----
# smp DEV: "sampled_ns" of DEV's queues view (CLOCK_MONOTONIC of its last sample)
smp() { ctl --json queues $1 | awk '$1 == "\"sampled_ns\":" { v = $2; sub(/,$/, "", v); print v; exit }'; }
f_last=$(smp $NSA:$FRONT) b_last=$(smp $NSB:$BACK) gap=
polls=0 fmoved=0 bmoved=0 t_end=$(($(date +%s) + 12))
while [ "$(date +%s)" -lt $t_end ]; do
	sleep 0.5
	f=$(smp $NSA:$FRONT) b=$(smp $NSB:$BACK)
	polls=$((polls + 1))
	[ "$f" != "$f_last" ] && fmoved=$((fmoved + 1))
	f_last=$f
	if [ "$b" != "$b_last" ]; then
		bmoved=$((bmoved + 1))
		gap=$(((b - b_last) / 1000000))
		b_last=$b
	fi
done
# 12 s hold one or two of its samples, each the 10 s cadence after the one before
[ $bmoved -ge 1 ] && [ $bmoved -le 2 ] ||
	fail "the back's sample moved $bmoved times in 12 s, not once or twice"
[ "${gap:-0}" -ge 9500 ] && [ "$gap" -le 11500 ] ||
	fail "the back's samples are $gap ms apart, not the 10 s cadence"
[ $fmoved -ge $((polls - 1)) ] ||
	fail "the front's sample moved in only $fmoved of $polls reads 0.5 s apart"
ok "the back sampled every 10 s ($bmoved samples in 12 s, the last $gap ms after the one before), the front every tick ($fmoved of $polls reads moved)"

# ---- knobs only on the front ----
ctl --json knobs $NSA:$FRONT > /tmp/k.front
ctl --json knobs $NSB:$BACK > /tmp/k.back
for k in busyloop-us zerocopy tx-full-mode tx-napi napi-weight backend-weight \
	 zerocopy-min-bytes zerocopy-max-pending; do
	grep -q "\"name\": \"$k\"" /tmp/k.front || fail "front lacks knob $k"
	grep -q "\"name\": \"$k\"" /tmp/k.back && fail "back has knob $k"
done
grep -q '"provider": "vqpair"' /tmp/k.front || fail "no vqpair provider"
[ "$(grep -c '"name": "tx-ring-size"' /tmp/k.front)" -le 1 ] || fail "tx-ring-size twice"
# a set on the back end is refused, pointing to the front
if ctl set $NSB:$BACK busyloop-us 10 > /tmp/e.back 2>&1; then
	fail "busyloop-us set on the back end"
fi
grep -q "back end of a vqpair" /tmp/e.back && grep -q "front, $FRONT" /tmp/e.back ||
	{ cat /tmp/e.back; fail "a set on the back does not point to the front"; }
# so is a pause of the back end (its controllers run on the front)
if ctl pause $NSB:$BACK > /tmp/e.pause 2>&1; then
	fail "pause accepted on the back end"
fi
grep -q "back end of a vqpair" /tmp/e.pause && grep -q "paused on the front, $FRONT" /tmp/e.pause ||
	{ cat /tmp/e.pause; fail "a pause of the back does not point to the front"; }
# vqpair's queue-pair count is fixed: combined-channels is read-only, with the reason
grep -A14 '"name": "combined-channels"' /tmp/k.front | grep -q '"writable": false' &&
	grep -q 'cannot change its channel counts' /tmp/k.front ||
	fail "combined-channels not read-only on the front"
ok "vqpair knobs on the front only; the back points to it: $(cat /tmp/e.back)"

# ---- writes reach the module ----
ctl set $NSA:$FRONT busyloop-us 200 --queue 0 || fail "PUT busyloop-us"
ctl set $NSA:$FRONT zerocopy 1 --queue 0 || fail "PUT zerocopy"
ctl set $NSA:$FRONT tx-full-mode 1 || fail "PUT tx-full-mode"
[ "$(knob busyloop-us)" = 200 ] || fail "busyloop-us is $(knob busyloop-us), want 200"
[ "$(knob zerocopy)" = 1 ] || fail "zerocopy is $(knob zerocopy), want 1"
[ "$(knob tx-full-mode)" = 1 ] || fail "tx-full-mode is $(knob tx-full-mode), want 1"
ok "PUTs reached the module"
if ctl set $NSA:$FRONT busyloop-us 5000 > /tmp/e.out 2>&1; then
	fail "busyloop-us 5000 accepted"
fi
grep -q "value" /tmp/e.out && grep -q 1000 /tmp/e.out || { cat /tmp/e.out; fail "range error"; }
[ "$(knob busyloop-us)" = 200 ] || fail "a refused PUT changed busyloop-us"
ok "out-of-range PUT refused: $(cat /tmp/e.out)"

# ---- SIGTERM restores the originals ----
kill -TERM $DPID
wait $DPID
rc=$?
PIDS=""
[ $rc = 0 ] || { cat $VQDIR/log; fail "vqtuned exit $rc after SIGTERM"; }
[ "$(knob busyloop-us)" = $ORIG_BUSY ] || fail "busyloop-us $(knob busyloop-us) after stop"
[ "$(knob zerocopy)" = $ORIG_ZC ] || fail "zerocopy $(knob zerocopy) after stop"
[ "$(knob tx-full-mode)" = $ORIG_FULL ] || fail "tx-full-mode $(knob tx-full-mode) after stop"
grep -q "restored 3 knob" $VQDIR/log || { cat $VQDIR/log; fail "not 3 knobs restored"; }
ok "SIGTERM restored busyloop-us $ORIG_BUSY, zerocopy $ORIG_ZC, tx-full-mode $ORIG_FULL"
