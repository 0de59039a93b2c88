#!/bin/sh
# tx-full-mode: with the backend slowed (injected completion delay) the ring fills.
# drop mode counts drops and never stops the queue; stop mode counts tx-stop/tx-wake and
# drops nothing. BQL is opened wide (limit_min) so the ring, not BQL, is the limit.
. /tests/lib.sh
trap cleanup EXIT

run_mode() {
	pair_up 1
	set_knob tx-ring-size 16 tx-full-mode "$1"
	bql 0 limit_min 10000000
	dbg 0 completion_delay_us 2000
	tcp -u -b 0 -l 1200 -t 2 || fail "iperf3 udp"
	drops=$(stat tx-drop-ring-full) stops=$(stat tx-stop) wakes=$(stat tx-wake)
	echo "mode $1: drops $drops stops $stops wakes $wakes"
	cleanup
}

run_mode 1
[ "$drops" -gt 0 ] || fail "drop mode: no drops counted"
[ "$stops" = 0 ] || fail "drop mode: the queue was stopped $stops times"
run_mode 0
[ "$drops" = 0 ] || fail "stop mode: $drops drops"
[ "$stops" -gt 0 ] && [ "$wakes" -gt 0 ] || fail "stop mode: no tx-stop/tx-wake"
ok "drop and stop modes"
