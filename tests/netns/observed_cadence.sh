#!/bin/bash
# How often devices are sampled (daemon/sample.c SMP_OBSERVED_NS): a managed device every
# tick, an observed (read-only) one every 10 s; a namespace where nothing is managed is not
# read at all in between. vqtuned runs inside namespace C with a 100 ms tick and --netns A:
# A's veth end va is managed, C's end vc is observed, and C holds nothing managed.
# - va's queue sample is one tick old at most, its interval one tick;
# - vc's queue interval is the 10 s cadence, and between two of its samples its counters
#   stand still while pings cross the pair, then take them in; again with a managed veth
#   end vd in C (--manage vd), so that C is read every tick while vc keeps its own sample.
source "$(dirname "$0")/lib.sh"
vq_init
TICK_MS=100
OBSERVED_MS=10000	# SMP_OBSERVED_NS
ROOM_MS=1500		# a loaded machine's lateness on top of a sample's due time
A=$(vq_netns a) && C=$(vq_netns c) || exit $KSFT_FAIL
vq_veth "$A" va "$C" vc || exit $KSFT_FAIL
VQ_DAEMON_NETNS=$C vq_daemon --netns "$A" --interval $TICK_MS || exit $KSFT_FAIL

# queues DEV: "sampled_ns interval_ns" of DEV's queue view (the device counters' sample)
queues() {
	curl -s --unix-socket "$VQ_SOCK" "http://localhost/v1/devices/$1/queues" |
		vq_json 'str(d["sampled_ns"]) + " " + str(d["interval_ns"])'
}
rx_packets() {
	curl -s --unix-socket "$VQ_SOCK" "http://localhost/v1/devices/$1" | vq_json 'd["rx_packets"]'
}
ms() { echo $(($1 / 1000000)); }

check "va is managed" True "$(curl -s --unix-socket "$VQ_SOCK" \
	"http://localhost/v1/devices/$A:va" | vq_json 'd["managed"]')"
check "vc is observed" False "$(curl -s --unix-socket "$VQ_SOCK" \
	http://localhost/v1/devices/vc | vq_json 'd["managed"]')"
sleep 1
read -r s1 i1 < <(queues "$A:va")
check_true "va (managed): interval one tick ($(ms "$i1") ms)" \
	test "$(ms "$i1")" -ge $((TICK_MS / 2)) -a "$(ms "$i1")" -le $((TICK_MS * 3))
sleep 0.5
read -r s2 _ < <(queues "$A:va")
check_true "va (managed): its sample moves on with the ticks ($(ms $((s2 - s1))) ms over a 0.5 s sleep)" \
	test "$(ms $((s2 - s1)))" -ge $((TICK_MS * 3))

# vc_cadence WHAT: vc's samples 10 s apart, its counters still in between (WHAT: its namespace)
vc_cadence() {
	local c0 c1 ci c2 t0 p0 p1 k
	# wait for a sample that follows another (its interval is then the cadence)
	read -r c0 _ < <(queues vc)
	t0=$SECONDS
	while read -r c1 ci < <(queues vc); [ "$c1" = "$c0" ] && [ $((SECONDS - t0)) -le 13 ]; do
		sleep 0.2
	done
	check_true "vc (observed, $1): a sample followed within 13 s" test "$c1" != "$c0"
	check_true "vc (observed, $1): its interval is the 10 s cadence ($(ms "$ci") ms)" \
		test "$(ms "$ci")" -ge $((OBSERVED_MS - TICK_MS)) -a \
		"$(ms "$ci")" -le $((OBSERVED_MS + ROOM_MS))
	# right after that sample: pings cross, vc's counters stand still until its next one
	p0=$(rx_packets vc)
	ip netns exec "$A" ping -q -c 10 -i 0.1 192.0.2.2 >/dev/null
	check "ping A -> C (vq_veth's addresses)" 0 $?
	k=$(ip -n "$C" -s -j link show vc | vq_json 'd[0]["stats64"]["rx"]["packets"]')
	read -r c2 _ < <(queues vc)
	if [ "$c2" = "$c1" ]; then
		check "vc ($1): its rx packets in the view stand still between samples" "$p0" \
			"$(rx_packets vc)"
	else
		vq_log "vc sampled during the pings (a slow machine): the stand-still check is moot"
	fi
	t0=$SECONDS
	while p1=$(rx_packets vc); [ "$p1" -lt "$k" ] && [ $((SECONDS - t0)) -le 13 ]; do
		sleep 0.2
	done
	check_true "vc ($1): its rx packets reach the kernel's $k by its next sample ($p1)" \
		test "$p1" -ge "$k"
}
vc_cadence "a namespace nothing managed is in"
# C read every tick for a managed veth end vd (--manage vd): vc, observed, keeps its sample
vq_daemon_stop
check "daemon exit status on SIGTERM" 0 $?
ip -n "$C" link add vd type veth peer name vd2 || exit $KSFT_FAIL
VQ_DAEMON_NETNS=$C vq_daemon --netns "$A" --manage vd --interval $TICK_MS || exit $KSFT_FAIL
check "vd is managed (--manage)" True "$(curl -s --unix-socket "$VQ_SOCK" \
	http://localhost/v1/devices/vd | vq_json 'd["managed"]')"
vc_cadence "its namespace read every tick"
vq_done
