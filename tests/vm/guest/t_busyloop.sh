#!/bin/sh
# busyloop-us > 0: the worker polls before sleeping, so it counts spins and hits and needs
# fewer kicks per packet than with busyloop-us 0 (vhost busyloop_timeout). Paced UDP
# (2,500 packets/s, a packet every 400 us) makes the gaps shorter than the busyloop
# (1000 us) and longer than one worker run, so without busyloop nearly every packet kicks.
. /tests/lib.sh
trap cleanup EXIT

run_busy() {
	pair_up 1
	set_knob busyloop-us "$1"
	tcp -u -b 20M -l 1000 -t 2 || fail "iperf3"
	kicks=$(stat kicks) pkts=$(stat tx-packets)
	spins=$(stat busyloop-spins) hits=$(stat busyloop-hits)
	kpp=$(ratio "$kicks" "$pkts" 1000)
	echo "busyloop-us $1: packets $pkts kicks $kicks (x1000/pkt $kpp) spins $spins hits $hits"
	cleanup
}

run_busy 0
kpp0=$kpp
[ "$spins" = 0 ] || fail "spins with busyloop-us 0"
run_busy 1000
[ "$spins" -gt 0 ] && [ "$hits" -gt 0 ] || fail "no busyloop spins/hits"
[ $((kpp * 2)) -lt "$kpp0" ] || fail "kicks per packet not halved by busyloop ($kpp vs $kpp0)"
ok "busyloop lowers kicks"
