#!/bin/bash
# `make run-netns`: the earlier namespace lab, without the module (the lab proper is
# `make run`, scripts/lab_run.sh). Two network namespaces joined by a veth pair
# (2 channels, GRO on so veth runs NAPI), iperf3 traffic that changes phase (bulk, paced,
# idle), vqtuned watching both namespaces, and `vqtunectl watch` on screen. Ctrl-C (or
# LAB_SECONDS elapsing) stops everything: vqtuned restores every knob it changed, the
# namespaces, processes and files are removed. Nothing touches the host's own interfaces.
#
#   LAB_SECONDS=N   stop by itself after N seconds (default: run until Ctrl-C; 30 when
#                   stdout is not a terminal)
#   LAB_LISTEN=A:P  also serve the API on TCP (default 127.0.0.1:9477 when that port is
#                   free; "" for none)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
VQTUNED=$ROOT/build/vqtuned
VQTUNECTL=$ROOT/build/vqtunectl
[ "$(id -u)" -eq 0 ] || { echo "lab: needs root (network namespaces)"; exit 1; }
[ -x "$VQTUNED" ] && [ -x "$VQTUNECTL" ] || { echo "lab: build first (make all)"; exit 1; }

ID=vqlab$$
A=$ID-a
B=$ID-b
TMP=$(mktemp -d /tmp/vqlab.XXXXXX)
SOCK=$TMP/vqtuned.sock
LISTEN=${LAB_LISTEN-127.0.0.1:9477}
# a default port already taken (another lab, an installed vqtuned) is no reason to fail
if [ -z "${LAB_LISTEN+set}" ] && ss -Htln 'sport = :9477' | grep -q .; then
	echo "lab: 127.0.0.1:9477 is in use: API on the unix socket only (set LAB_LISTEN=A:P)"
	LISTEN=
fi
if [ -t 1 ]; then SECONDS_MAX=${LAB_SECONDS:-0}; else SECONDS_MAX=${LAB_SECONDS:-30}; fi
PIDS=()

# messages that may find no reader any more (see cleanup)
say() { printf '%s\n' "$*" 2>/dev/null; }

cleanup() {
	trap - INT TERM EXIT
	# the reader of our output may be gone (| head, a closed tee): cleanup must still run
	trap '' PIPE
	local p
	say ""
	say "lab: stopping"
	# traffic first, then the daemon (SIGTERM restores every knob it changed)
	for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null; done
	for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null; done
	if [ -n "${DPID:-}" ]; then
		kill -TERM "$DPID" 2>/dev/null
		wait "$DPID"
		say "lab: vqtuned exited with $? (0: every knob restored)"
		say "$(grep -E 'restor' "$TMP/vqtuned.log" | tail -3)"
	fi
	ip netns del "$A" 2>/dev/null
	ip netns del "$B" 2>/dev/null
	rm -rf "$TMP"
	say "lab: namespaces $A $B removed"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

ip netns add "$A" && ip netns add "$B" || exit 1
ip -n "$A" link set lo up
ip -n "$B" link set lo up
ip -n "$A" link add veth-a numtxqueues 2 numrxqueues 2 type veth \
	peer name veth-b netns "$B" numtxqueues 2 numrxqueues 2 || exit 1
ip -n "$A" addr add 192.0.2.1/24 dev veth-a
ip -n "$B" addr add 192.0.2.2/24 dev veth-b
ip -n "$A" link set veth-a up
ip -n "$B" link set veth-b up
for ns in "$A:veth-a" "$B:veth-b"; do
	# GRO on gives veth its NAPIs (the knobs); TSO off routes all traffic through them
	ip netns exec "${ns%%:*}" ethtool -K "${ns#*:}" gro on tso off >/dev/null
done

args=(-s "$SOCK" -S "$TMP/state" --netns "$A" --netns "$B" --interval 500)
[ -n "$LISTEN" ] && args+=(--listen "$LISTEN")
"$VQTUNED" "${args[@]}" >"$TMP/vqtuned.log" 2>&1 &
DPID=$!
for _ in $(seq 50); do [ -S "$SOCK" ] && break; sleep 0.1; done
[ -S "$SOCK" ] || { echo "lab: vqtuned did not start:"; cat "$TMP/vqtuned.log"; exit 1; }

ip netns exec "$B" iperf3 -s >/dev/null 2>&1 &
PIDS+=($!)
sleep 0.3
# phases: bulk (2 streams, unpaced), paced 200 Mbit/s, idle; repeated
(
	while :; do
		ip netns exec "$A" iperf3 -c 192.0.2.2 -P 2 -t 10 >/dev/null 2>&1
		ip netns exec "$A" iperf3 -c 192.0.2.2 -b 200M -t 10 >/dev/null 2>&1
		sleep 5
	done
) &
PIDS+=($!)

cat <<TXT
lab: namespaces $A and $B, veth-a <-> veth-b (2 channels), iperf3 phases: bulk 10 s,
     paced 200 Mbit/s 10 s, idle 5 s. vqtuned (pid $DPID) watches both namespaces.
     Steer it from another terminal, e.g.:
       $VQTUNECTL -s $SOCK devices
       $VQTUNECTL -s $SOCK queues $B:veth-b
       $VQTUNECTL -s $SOCK set $B:veth-b gro-flush-timeout 20000
       $VQTUNECTL -s $SOCK events --follow
       curl -s ${LISTEN:+http://$LISTEN/metrics}
     Ctrl-C stops the lab and restores every knob.
TXT
sleep 1
watch_args=(-s "$SOCK" watch "$B:veth-b" --interval 1)
if [ "$SECONDS_MAX" -gt 0 ]; then
	watch_args+=(--count "$SECONDS_MAX")
fi
"$VQTUNECTL" "${watch_args[@]}"
