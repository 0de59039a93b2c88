#!/bin/sh
# Stock iproute2 (no vqpair plugin) creates a pair with `ip link add NAME type vqpair`: the
# back gets the default name vqpb<N>; numtxqueues/numrxqueues set the queue pairs; deleting
# the front removes both ends.
. /tests/lib.sh
trap cleanup EXIT
/sbin/ip netns add $NSA || fail "netns add"
ina /sbin/ip link add vqf9 numtxqueues 3 numrxqueues 3 type vqpair || fail "ip link add"
back=$(ina /sbin/ip -o link show | awk -F': ' '$2 ~ /^vqpb[0-9]+@/ { sub(/@.*/, "", $2); print $2; exit }')
[ -n "$back" ] || fail "no vqpb<N> back device: $(ina /sbin/ip -o link show)"
ina /sbin/ip link set "$back" name vqb9 || fail "rename the back"
[ "$(ina sh -c 'ls -d /sys/class/net/vqf9/queues/tx-* | wc -l')" = 3 ] || fail "front tx queues"
[ "$(ina sh -c 'ls -d /sys/class/net/vqb9/queues/rx-* | wc -l')" = 3 ] || fail "back rx queues"
[ "$(ina vqpairctl get vqf9 tx-ring-size)" = 256 ] || fail "genl on the ip-made pair"
ina /sbin/ip link del vqf9 || fail "ip link del"
ina /sbin/ip link show vqb9 >/dev/null 2>&1 && fail "the back outlived the front"
ok "ip link add/del with stock iproute2"
