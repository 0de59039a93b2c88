#!/bin/sh
# rmmod under traffic: the module unloads while iperf3 runs across a 4-queue pair, the
# devices go with it, and the kernel log stays clean (checked by /init after each test).
. /tests/lib.sh
trap cleanup EXIT
pair_up 4
/sbin/ip netns exec $NSB iperf3 -s -B $IPB > /dev/null 2>&1 &
PIDS="$!"
sleep 0.5
/sbin/ip netns exec $NSA iperf3 -c $IPB -P 4 -t 30 > /dev/null 2>&1 &
PIDS="$PIDS $!"
sleep 3
[ "$(stat tx-packets)" -gt 0 ] || fail "no traffic before rmmod"
rmmod vqpair || fail "rmmod under traffic"
grep -q '^vqpair ' /proc/modules && fail "module still loaded"
ina /sbin/ip link show $FRONT > /dev/null 2>&1 && fail "front survived rmmod"
inb /sbin/ip link show $BACK > /dev/null 2>&1 && fail "back survived rmmod"
insmod /lib/vqpair/vqpair.ko || fail "reload"
ok "rmmod under traffic"
