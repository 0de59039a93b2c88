#!/bin/sh
# BQL on the front's TX: the standard byte_queue_limits sysfs works; lowering limit_max
# lowers the peak bytes in flight. Completions are coalesced (tx-usecs) so that dql has
# a reason to grow its limit.
. /tests/lib.sh
trap cleanup EXIT

run_bql() {
	pair_up 1
	set_knob tx-usecs 500 tx-frames 64
	[ -n "$1" ] && bql 0 limit_max "$1"
	tcp -t 2 || fail "iperf3"
	peak=$(stat tx-inflight-peak-bytes)
	lim=$(ina cat /sys/class/net/$FRONT/queues/tx-0/byte_queue_limits/limit)
	echo "limit_max ${1:-default}: peak inflight $peak bytes, dql limit $lim"
	cleanup
}
run_bql ""
peak0=$peak
run_bql 4000
[ "$lim" -le 4000 ] || fail "dql limit $lim above limit_max"
[ "$peak" -lt "$peak0" ] || fail "peak inflight not lower ($peak >= $peak0)"
ok "limit_max lowers peak inflight"
