#!/bin/sh
# The delivery latency histograms (include/vqpair.h TX_DELIVERY_HIST, RX_DELIVERY_HIST)
# count every delivered packet once, in the log2(ns) bucket of its own delay:
#   rx: rx-usecs 5000 with rx-frames 64 holds a lone ping reply for the coalescing timer,
#       so every reply lands at >= 2^21 ns (2.10 ms; an hrtimer never fires early); with
#       rx-usecs 0 the median reply is delivered well under that. The front's one NAPI also
#       reaps TX completions, and the request's completion would run it before the RX
#       timer: tx-usecs 10000 keeps that event later than the RX hold. The completion is
#       pushed when the backend hands the request to the back, so its timer still cuts a
#       hold short when the back's stack answers more than 10 - 2.10 = 7.9 ms after that
#       (with the bound at 2^22 ns, 5.8 ms: a TCG guest on 6.1 did that for 1 reply in 20).
#   tx: a stalled backend (debugfs stall) holds a ping request in the TX ring until it is
#       released 400 ms later: that request lands at >= 2^28 ns (268 ms).
. /tests/lib.sh
trap cleanup EXIT

PINGS=20
RX_HOLD_BUCKET=21	# 2^21 ns = 2.10 ms < rx-usecs 5000
TX_STALL_BUCKET=28	# 2^28 ns = 268 ms < the 400 ms stall

# hist_at NAME FROM: packets counted in buckets >= FROM of histogram NAME (all queues)
hist_at() {
	ina vqpairctl stats $FRONT |
		awk -v p="$1-hist-" -v lo="$2" 'index($1, p) == 1 {
			i = substr($1, length(p) + 1); if (i + 0 >= lo) s += $2 } END { print s + 0 }'
}

pair_up 1
# a static neighbour: an ARP probe stuck behind the stall must not hold the ping back
mac=$(inb cat /sys/class/net/$BACK/address)
ina /sbin/ip neigh replace $IPB lladdr "$mac" dev $FRONT nud permanent || fail "neigh"

# ---- rx: default coalescing, then a 5 ms hold ----
rx0=$(hist_at rx-delivery 0) tx0=$(hist_at tx-delivery 0) slow0=$(hist_at rx-delivery $RX_HOLD_BUCKET)
ina ping -q -c $PINGS -i 0.05 $IPB > /dev/null || fail "ping"
rx1=$(hist_at rx-delivery 0) tx1=$(hist_at tx-delivery 0) slow1=$(hist_at rx-delivery $RX_HOLD_BUCKET)
echo "rx-usecs 0: rx delivered $((rx1 - rx0)), tx delivered $((tx1 - tx0)), rx >= 2^$RX_HOLD_BUCKET ns $((slow1 - slow0))"
[ $((rx1 - rx0)) -ge $PINGS ] || fail "rx-delivery counted $((rx1 - rx0)) of $PINGS replies"
[ $((tx1 - tx0)) -ge $PINGS ] || fail "tx-delivery counted $((tx1 - tx0)) of $PINGS requests"
[ $(((slow1 - slow0) * 2)) -lt $((rx1 - rx0)) ] ||
	fail "without coalescing $((slow1 - slow0)) of $((rx1 - rx0)) replies took >= 2^$RX_HOLD_BUCKET ns"

set_knob rx-usecs 5000 rx-frames 64 tx-usecs 10000 tx-frames 64
rx0=$(hist_at rx-delivery 0) slow0=$(hist_at rx-delivery $RX_HOLD_BUCKET)
ina ping -q -c $PINGS -i 0.05 $IPB > /dev/null || fail "ping with rx-usecs 5000"
rx1=$(hist_at rx-delivery 0) slow1=$(hist_at rx-delivery $RX_HOLD_BUCKET)
echo "rx-usecs 5000: rx delivered $((rx1 - rx0)), >= 2^$RX_HOLD_BUCKET ns $((slow1 - slow0))"
[ $((rx1 - rx0)) -ge $PINGS ] || fail "rx-delivery counted $((rx1 - rx0)) of $PINGS replies"
[ $((slow1 - slow0)) -ge $PINGS ] || {
	ina vqpairctl stats $FRONT | grep -E '^(rx-delivery-hist|tx-events|rx-events)' >&2
	fail "rx-usecs 5000: only $((slow1 - slow0)) of $((rx1 - rx0)) replies at >= 2^$RX_HOLD_BUCKET ns"
}
set_knob rx-usecs 0 rx-frames 1 tx-usecs 0 tx-frames 1
ok "rx-delivery: every reply held by rx-usecs 5000 counts >= 2.10 ms"

# ---- tx: one request held by a stalled backend ----
slow0=$(hist_at tx-delivery $TX_STALL_BUCKET)
dbg 0 stall 1
ina ping -q -c 1 -W 5 $IPB > /dev/null &
PIDS="$PIDS $!"
sleep 0.4
dbg 0 stall 0
wait $! || fail "ping after the stall"
slow1=$(hist_at tx-delivery $TX_STALL_BUCKET)
echo "stall 400 ms: tx delivered at >= 2^$TX_STALL_BUCKET ns: $((slow1 - slow0))"
[ $((slow1 - slow0)) -ge 1 ] || fail "the stalled request is not in a bucket >= 2^$TX_STALL_BUCKET ns"
ok "tx-delivery: a request held 400 ms by a stalled backend counts >= 268 ms"
