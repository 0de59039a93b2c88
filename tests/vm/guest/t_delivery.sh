#!/bin/sh
# The delivery latency histograms (include/vqpair.h TX_DELIVERY_HIST, RX_DELIVERY_HIST)
# count every delivered packet once, in the log2(ns) bucket of its own delay:
#   rx: rx-usecs 5000 with rx-frames 64 holds a lone request for the coalescing timer, so
#       every one lands at >= 2^21 ns (2.10 ms; an hrtimer never fires early); with
#       rx-usecs 0 the median is delivered well under that. The pings go from the back to
#       the front: the front's one NAPI also reaps TX completions, so a TX event during a
#       hold would cut it short, and the front transmits only its reply, after the hold.
#       (Pinging the other way, the request's completion timer raced the hold whenever the
#       back's stack took more than tx-usecs - 2.10 ms to answer: 1 in 20 on a TCG 6.1.)
#       IPv6 is off on both ends and both neighbours are static, so nothing else is sent.
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
# static neighbours and no IPv6: an ARP probe stuck behind the stall must not hold the ping
# back, and no packet but the ping's may reach the front's NAPI during an RX hold
for n in $NSA:$FRONT $NSB:$BACK; do
	/sbin/ip netns exec ${n%:*} sh -c "echo 1 > /proc/sys/net/ipv6/conf/${n#*:}/disable_ipv6" ||
		fail "disable_ipv6 on ${n#*:}"
done
mac=$(inb cat /sys/class/net/$BACK/address)
ina /sbin/ip neigh replace $IPB lladdr "$mac" dev $FRONT nud permanent || fail "neigh"
mac=$(ina cat /sys/class/net/$FRONT/address)
inb /sbin/ip neigh replace $IPA lladdr "$mac" dev $BACK nud permanent || fail "neigh"

# ---- rx: default coalescing, then a 5 ms hold; the back pings the front ----
rx0=$(hist_at rx-delivery 0) tx0=$(hist_at tx-delivery 0) slow0=$(hist_at rx-delivery $RX_HOLD_BUCKET)
inb ping -q -c $PINGS -i 0.05 $IPA > /dev/null || fail "ping"
rx1=$(hist_at rx-delivery 0) tx1=$(hist_at tx-delivery 0) slow1=$(hist_at rx-delivery $RX_HOLD_BUCKET)
echo "rx-usecs 0: rx delivered $((rx1 - rx0)), tx delivered $((tx1 - tx0)), rx >= 2^$RX_HOLD_BUCKET ns $((slow1 - slow0))"
[ $((rx1 - rx0)) -ge $PINGS ] || fail "rx-delivery counted $((rx1 - rx0)) of $PINGS requests"
[ $((tx1 - tx0)) -ge $PINGS ] || fail "tx-delivery counted $((tx1 - tx0)) of $PINGS replies"
[ $(((slow1 - slow0) * 2)) -lt $((rx1 - rx0)) ] ||
	fail "without coalescing $((slow1 - slow0)) of $((rx1 - rx0)) requests took >= 2^$RX_HOLD_BUCKET ns"

set_knob rx-usecs 5000 rx-frames 64
rx0=$(hist_at rx-delivery 0) slow0=$(hist_at rx-delivery $RX_HOLD_BUCKET)
inb ping -q -c $PINGS -i 0.05 $IPA > /dev/null || fail "ping with rx-usecs 5000"
rx1=$(hist_at rx-delivery 0) slow1=$(hist_at rx-delivery $RX_HOLD_BUCKET)
echo "rx-usecs 5000: rx delivered $((rx1 - rx0)), >= 2^$RX_HOLD_BUCKET ns $((slow1 - slow0))"
[ $((rx1 - rx0)) -ge $PINGS ] || fail "rx-delivery counted $((rx1 - rx0)) of $PINGS requests"
[ $((slow1 - slow0)) -ge $PINGS ] || {
	ina vqpairctl stats $FRONT | grep -E '^(rx-delivery-hist|tx-events|rx-events)' >&2
	fail "rx-usecs 5000: only $((slow1 - slow0)) of $((rx1 - rx0)) requests at >= 2^$RX_HOLD_BUCKET ns"
}
set_knob rx-usecs 0 rx-frames 1
ok "rx-delivery: every request held by rx-usecs 5000 counts >= 2.10 ms"

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
