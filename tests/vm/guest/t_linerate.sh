#!/bin/sh
# The backend's line rate (debugfs line_rate_mbit): with 200 Mbit/s set, a 4-stream iperf3
# gets 80-102% of it (TCP/IP headers are inside skb->len, so goodput sits a little under the
# rate); back at 0 (no line rate) the same transfer runs at least twice as fast. The driver's
# stops and BQL's limit under the limited bulk are printed for the reader.
. /tests/lib.sh
trap cleanup EXIT
RATE=200
pair_up 1
# Mbit/s of iperf3's SUM receiver line (the unit as iperf3 prints it)
mbit() {
	awk '/^\[SUM\].*receiver/ { for (i = 1; i <= NF; i++) if ($i ~ /bits\/sec$/) {
		v = $(i - 1); u = $i } }
		END { if (u ~ /^G/) v *= 1000; if (u ~ /^K/) v /= 1000; printf "%d\n", v }' \
		/tmp/iperf.out
}
dbg 0 line_rate_mbit $RATE || fail "set line_rate_mbit"
[ "$(cat /sys/kernel/debug/vqpair/*/q0/line_rate_mbit)" = $RATE ] || fail "line_rate_mbit reads back"
stops0=$(stat tx-stop)
tcp -P 4 -t 4 -O 1 || fail "iperf3 at $RATE Mbit/s"
limited=$(mbit)
stops1=$(stat tx-stop)
echo "line $RATE Mbit/s: iperf3 $limited Mbit/s, tx-stop +$((stops1 - stops0))"
[ "$limited" -ge $((RATE * 80 / 100)) ] && [ "$limited" -le $((RATE * 102 / 100)) ] ||
	fail "iperf3 $limited Mbit/s at a line rate of $RATE"
bql=$(ina cat /sys/class/net/$FRONT/queues/tx-0/byte_queue_limits/limit)
echo "BQL limit after the limited bulk: $bql"
dbg 0 line_rate_mbit 0 || fail "clear line_rate_mbit"
tcp -P 4 -t 4 -O 1 || fail "iperf3 without a line rate"
free=$(mbit)
echo "no line rate: iperf3 $free Mbit/s"
[ "$free" -ge $((limited * 2)) ] || fail "without a line rate $free Mbit/s, with $limited"
ok "line rate $RATE Mbit/s: $limited Mbit/s, none: $free Mbit/s"
