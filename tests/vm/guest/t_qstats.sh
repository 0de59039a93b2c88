#!/bin/sh
# netdev qstats (kernels with netdev_stat_ops, >= 6.10): the standard per-queue counters of
# the front equal vqpair's own per-queue stats. Where the netdev genl family is absent
# (6.1), vqpair's per-queue stats are the fallback vqtuned reads (decide_signals.c): there
# the same stop/wake traffic must show in them, queue by queue, and sum to the device's
# ethtool -S totals.
. /tests/lib.sh
trap cleanup EXIT
pair_up 2
ina vqpairctl qstats $FRONT > /dev/null 2>&1
rc=$?
case $rc in
0) NQ=1 ;;
4) NQ=0 ;;
*) fail "qstats dump exit $rc" ;;
esac
set_knob tx-ring-size 16
bql 0 limit_min 10000000
bql 1 limit_min 10000000
# held-back completions fill the 16 descriptors: the queue must stop and wake
dbg 0 completion_delay_us 1000
dbg 1 completion_delay_us 1000
# UDP: TCP small queues keep one stream far below 16 descriptors, a UDP blast does not
tcp -u -b 0 -l 1200 -P 2 -t 2 || fail "iperf3"
sleep 1
if [ $NQ = 0 ]; then
	# the device totals bracket the per-queue read: a late packet (ARP) moves them, never
	# past the read after
	ina ethtool -S $FRONT > /tmp/es0 || fail "ethtool -S"
	ina vqpairctl stats $FRONT -q > /tmp/vq || fail "vqpair stats"
	ina ethtool -S $FRONT > /tmp/es1 || fail "ethtool -S"
	cat /tmp/vq
	for s in tx-packets tx-bytes tx-stop tx-wake; do
		for q in 0 1; do
			v=$(awk -v q=q$q -v s=$s '$1 == q && $2 == s {print $3}' /tmp/vq)
			[ -n "$v" ] || fail "queue $q $s missing from vqpair stats"
		done
		sum=$(awk -v s=$s '$2 == s {n += $3} END {print n + 0}' /tmp/vq)
		t0=$(awk -v s="$s:" '$1 == s {print $2}' /tmp/es0)
		t1=$(awk -v s="$s:" '$1 == s {print $2}' /tmp/es1)
		[ -n "$t0" ] && [ "$t0" -le "$sum" ] && [ "$sum" -le "$t1" ] ||
			fail "$s: queues sum to $sum, ethtool -S says '$t0' before, '$t1' after"
	done
	[ "$(awk '$2 == "tx-stop" {s += $3} END {print s + 0}' /tmp/vq)" -gt 0 ] ||
		fail "no tx-stop in vqpair stats with a 16-descriptor ring"
	ok "no netdev family on $(uname -r): vqpair per-queue stats carry tx-stop/tx-wake"
	exit 0
fi
ina vqpairctl qstats $FRONT > /tmp/nq || fail "qstats dump"
ina vqpairctl stats $FRONT -q > /tmp/vq
cat /tmp/nq
for q in 0 1; do
	for s in tx-packets tx-bytes tx-stop tx-wake; do
		n=$(awk -v q=$q -v s=$s '$1 == "tx" && $2 == q && $3 == s {print $4}' /tmp/nq)
		v=$(awk -v q=q$q -v s=$s '$1 == q && $2 == s {print $3}' /tmp/vq)
		[ -n "$n" ] && [ "$n" = "$v" ] || fail "queue $q $s: qstats '$n' vqpair '$v'"
	done
done
[ "$(awk '$1 == "tx" && $3 == "tx-stop" {s += $4} END {print s + 0}' /tmp/nq)" -gt 0 ] ||
	fail "no tx-stop in qstats with a 16-descriptor ring"
ok "netdev qstats"
