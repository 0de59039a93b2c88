#!/bin/sh
# netdev qstats (kernels with netdev_stat_ops, >= 6.10): the standard per-queue counters of
# the front equal vqpair's own per-queue stats. Skips where the netdev family is absent.
. /tests/lib.sh
trap cleanup EXIT
pair_up 2
ina vqpairctl qstats $FRONT > /dev/null 2>&1
[ $? = 4 ] && skip "no netdev genl family on $(uname -r)"
set_knob tx-ring-size 16
bql 0 limit_min 10000000
bql 1 limit_min 10000000
# held-back completions fill the 16 descriptors: the queue must stop and wake
dbg 0 completion_delay_us 1000
dbg 1 completion_delay_us 1000
# UDP: TCP small queues keep one stream far below 16 descriptors, a UDP blast does not
tcp -u -b 0 -l 1200 -P 2 -t 2 || fail "iperf3"
sleep 1
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
