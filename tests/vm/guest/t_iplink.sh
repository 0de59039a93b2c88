#!/bin/sh
# Stock iproute2 (no vqpair plugin) creates a pair with `ip link add NAME type vqpair`: the
# back gets the default name vqpb<N>; numtxqueues/numrxqueues set the queue pairs; deleting
# the front removes both ends. With the plugin, `... type vqpair peer name X` names the back.
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

# with the plugin (build/ip/link_vqpair.so), the peer is named in the same command, as veth's
[ -f /lib/ip/link_vqpair.so ] || fail "the initramfs has no /lib/ip/link_vqpair.so"
IP_LIB_DIR=/lib/ip ina /sbin/ip link add vqf8 numtxqueues 2 numrxqueues 2 type vqpair \
	peer name vqb8 || fail "ip link add ... peer name"
ina /sbin/ip link show vqb8 >/dev/null 2>&1 || fail "no back named vqb8"
[ "$(ina sh -c 'ls -d /sys/class/net/vqb8/queues/tx-* | wc -l')" = 2 ] || fail "back tx queues"
IP_LIB_DIR=/lib/ip ina /sbin/ip link add vqf7 type vqpair peer nam x 2>/dev/null &&
	fail "a malformed peer clause was accepted"
ina /sbin/ip link del vqb8 || fail "ip link del of the back"
ina /sbin/ip link show vqf8 >/dev/null 2>&1 && fail "the front outlived the back"
ok "ip link add ... type vqpair peer name (plugin)"
