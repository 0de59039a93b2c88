#!/bin/sh
# Deleting the netns that holds one end takes the pair down (as veth), under traffic;
# so does deleting a netns that holds both ends. Then the module still unloads.
. /tests/lib.sh
trap cleanup EXIT
pair_up 2
/sbin/ip netns exec $NSB iperf3 -s -B $IPB > /dev/null 2>&1 &
server=$!
sleep 0.5
/sbin/ip netns exec $NSA iperf3 -c $IPB -t 30 > /dev/null 2>&1 &
PIDS="$server $!"
sleep 3
[ "$(stat tx-packets)" -gt 0 ] || fail "no traffic"
# a netns lives while a process is in it: end the server, then drop the last reference
kill $server
wait $server
/sbin/ip netns del $NSB
# netns cleanup runs from a workqueue after the last reference goes: allow it 30 s
i=0
while [ $i -lt 60 ] && ina /sbin/ip link show $FRONT > /dev/null 2>&1; do
	sleep 0.5
	i=$((i + 1))
done
echo "front gone after $i half-seconds" 
ina /sbin/ip link show $FRONT > /dev/null 2>&1 && fail "front survived its peer's netns"
cleanup
PIDS=""

/sbin/ip netns add $NSA
/sbin/ip netns exec $NSA vqpairctl link-add $FRONT $BACK 2 || fail "link-add in netns"
/sbin/ip netns del $NSA
sleep 1
rmmod vqpair || fail "rmmod after netns deletions"
insmod /lib/vqpair/vqpair.ko || fail "reload"
ok "netns deletion"
