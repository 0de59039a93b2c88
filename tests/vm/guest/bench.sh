#!/bin/sh
# vqpair vs veth TCP throughput in the same guest: one iperf3 stream, each link between two
# namespaces, same addresses and duration. Prints "bench: ..." lines for tests/vm/run.sh.
. /tests/lib.sh
trap cleanup EXIT
DUR=${VQ_BENCH_S:-5}
gbps() { awk '/sender/ {for (i = 1; i <= NF; i++) if ($i ~ /bits\/sec/) {v = $(i-1); u = $i}}
	END {if (u ~ /^M/) v /= 1000; printf "%.2f\n", v}' /tmp/iperf.out; }

pair_up 1
tcp -t $DUR || fail "iperf3 vqpair"
vq=$(gbps)
cleanup

insmod /lib/vqpair/veth.ko 2>/dev/null
/sbin/ip netns add $NSA
/sbin/ip netns add $NSB
/sbin/ip link add $FRONT type veth peer name $BACK || fail "veth"
/sbin/ip link set $FRONT netns $NSA
/sbin/ip link set $BACK netns $NSB
ina /sbin/ip addr add $IPA/24 dev $FRONT
inb /sbin/ip addr add $IPB/24 dev $BACK
ina /sbin/ip link set $FRONT up
inb /sbin/ip link set $BACK up
ina ping -c 1 -W 5 $IPB > /dev/null || fail "veth ping"
tcp -t $DUR || fail "iperf3 veth"
ve=$(gbps)
echo "bench: vqpair $vq Gbit/s veth $ve Gbit/s ratio $(awk -v a="$vq" -v b="$ve" 'BEGIN {printf "%.2f", b ? a / b : 0}') (TCP, 1 stream, ${DUR}s, TCG guest)"
