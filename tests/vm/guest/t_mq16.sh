#!/bin/sh
# 16 queue pairs: TCP streams plus UDP flows from many source ports put traffic on every
# TX queue; every queue's counters move and the per-queue sums match the device total.
. /tests/lib.sh
trap cleanup EXIT
NQ=16
pair_up $NQ
[ "$(ina vqpairctl show $FRONT | awk '$1 == "queues" {print $2}')" = $NQ ] || fail "queues"
ina ethtool -l $FRONT | grep -q "Combined:.*$NQ" || fail "ethtool -l does not show $NQ"
tcp -P 16 -t 2 || fail "iperf3 -P 16"
# 512 source ports: the chance that a queue gets none of them is 16 * (15/16)^512 ~ 0
ina vqpairctl udp-flows $IPB 9 512 || fail "udp flows"
sleep 1
# the total is bracketed by reads before and after the per-queue dump: a late packet of
# the flows (a TCP FIN retransmit, ARP) may pass between two reads on a loaded host
t0=$(stat tx-packets)
ina vqpairctl stats $FRONT -q > /tmp/q
t1=$(stat tx-packets)
q=0
while [ $q -lt $NQ ]; do
	p=$(awk -v q="q$q" '$1 == q && $2 == "tx-packets" {print $3}' /tmp/q)
	[ "${p:-0}" -gt 0 ] || fail "queue $q carried no packets"
	q=$((q + 1))
done
sum=$(awk '$2 == "tx-packets" {s += $3} END {print s}' /tmp/q)
[ "$sum" -ge "$t0" ] && [ "$sum" -le "$t1" ] ||
	fail "per-queue sum $sum outside the totals read around it [$t0, $t1]"
echo "tx-packets over $NQ queues: $(awk '$2 == "tx-packets" {printf "%s ", $3}' /tmp/q)"
ok "16 queue pairs"
