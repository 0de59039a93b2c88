#!/bin/sh
# The lab's guest side (kernel cmdline vqmode=lab, run by /init; the host side is
# scripts/lab_vm.sh). Two device pairs, each end in its own network namespace so that
# traffic really crosses the device:
#   vq  vqpair   vqf0 (netns vqa, 10.77.0.1) <-> vqb0 (netns vqb, 10.77.0.2), 2 queue pairs
#   vn  virtio   vn0  (netns vna, 10.78.0.1) <-> vn1  (netns vnb, 10.78.0.2): two
#                virtio_net NICs QEMU joined on a hub
# The third NIC (QEMU user networking, 10.0.2.15) stays in the root namespace and carries
# vqtuned's TCP API to the host. Two passes of the same phases, on both pairs at once:
# "default" with vqtuned observing (no knob moves), "active" with vqtuned --policy balanced.
# Then the knob values vqtuned ended on and its controller event counts, SIGTERM, and the
# check that every knob is back to the value it had before vqtuned first started.
#
# Settings come from /etc/vqlab.env (a cpio segment the host appends to the initramfs):
#   LAB_PHASE_S  seconds per phase     LAB_POLICY  the active pass's policy file
#   LAB_TOKEN    file with the API's bearer token
# Output for the host: lines "LAB <what> ..." (the protocol is in scripts/lab_vm.sh).
. /tests/lib.sh
[ -f /etc/vqlab.env ] && . /etc/vqlab.env

PHASE_S=${LAB_PHASE_S:-20}
POLICY=${LAB_POLICY:-/policies/balanced.json}
TOKEN=${LAB_TOKEN:-/etc/vqtune/token}
API_PORT=9477
PHASES="bulk rr rrbulk slow"
# the vqtuned instance and its files
SOCK=/run/vqtune/vqtuned.sock
STATE=/run/vqtune/state
DLOG=/tmp/vqtuned.log
DEVS="vqa:vqf0 vqb:vqb0 vna:vn0 vnb:vn1"
# a 500 ms tick: a 20 s phase is 40 samples, enough for the guard's settle/hold windows
TICK_MS=500
# TCG boots vqtuned and its netlink sockets slowly: wait this long for the API socket
DAEMON_START_S=30
# bulk: iperf3 streams (as many as the queue pairs times two, so both queues carry flows)
BULK_STREAMS=4
RR_PORT=11111
# slow consumer: one TCP stream per port (sockperf throughput mode, 64 KB messages; busybox
# nc stops sending after its first read of stdin), each into a reader that takes 64 KiB and
# then sleeps 20 ms (~26 Mbit/s a stream): the receive window closes and the sender's
# queue backs up behind the device
SLOW_PORT0=5301
SLOW_STREAMS=2
SLOW_MSG_BYTES=65000
SLOW_READ_BYTES=65536
SLOW_READ_GAP_US=20000
# readers start under load on TCG: wait this long (in 0.1 s steps) for their listen sockets
SLOW_LISTEN_WAIT_TENTHS=50
# a sockperf run needs its warm-up (400 ms) and a second of samples inside a phase
RR_MIN_S=2

# pair fields: pf PAIR FIELD (A, B namespaces; DA, DB devices; IPB the B side's address)
vq_A=$NSA vq_B=$NSB vq_DA=$FRONT vq_DB=$BACK vq_IPB=$IPB
vn_A=vna vn_B=vnb vn_DA=vn0 vn_DB=vn1 vn_IPA=10.78.0.1 vn_IPB=10.78.0.2
pf() { eval echo "\$${1}_$2"; }

fail() { echo "LAB fail $*"; echo "LAB end 1"; exit 1; }
SRV=""
DPID=""

lab_cleanup() {
	local p
	for p in $SRV; do kill "$p" 2>/dev/null; done
	for p in $SRV; do wait "$p" 2>/dev/null; done
	stop_daemon
	for p in $NSA $NSB vna vnb; do /sbin/ip netns del $p 2>/dev/null; done
	sleep 1
}

# ---- set-up -----------------------------------------------------------------------------
nic_by_mac() {
	local d
	for d in /sys/class/net/*; do
		[ "$(cat $d/address)" = "$1" ] && { basename $d; return 0; }
	done
	return 1
}

vn_up() {
	local a b
	a=$(nic_by_mac 52:54:00:76:00:01) && b=$(nic_by_mac 52:54:00:76:00:02) ||
		fail "no virtio_net hub pair (QEMU NICS hubpair; /lib/kmods loaded?)"
	/sbin/ip netns add vna && /sbin/ip netns add vnb || fail "netns add"
	/sbin/ip link set $a name vn0 && /sbin/ip link set $b name vn1 || fail "rename"
	/sbin/ip link set vn0 netns vna && /sbin/ip link set vn1 netns vnb || fail "move"
	/sbin/ip netns exec vna /sbin/ip addr add $vn_IPA/24 dev vn0
	/sbin/ip netns exec vnb /sbin/ip addr add $vn_IPB/24 dev vn1
	for n in vna:vn0 vnb:vn1; do
		/sbin/ip netns exec ${n%:*} /sbin/ip link set lo up
		/sbin/ip netns exec ${n%:*} /sbin/ip link set ${n#*:} up
	done
	/sbin/ip netns exec vna ping -c 1 -W 5 $vn_IPB > /dev/null || fail "no ping across virtio_net"
}

api_up() {
	local u
	u=$(nic_by_mac 52:54:00:76:00:10) || fail "no user-networking NIC for the API"
	/sbin/ip addr add 10.0.2.15/24 dev $u
	/sbin/ip link set $u up
}

# snap FILE: every knob value an independent reader sees (not vqtuned's own view):
# vqpairctl (vqpair genl, queue 0), ethtool coalesce/rings/channels, BQL and NAPI sysfs,
# per-NAPI settings over the netdev family (vqprobe, where the kernel has it)
snap() {
	local d ns dev
	for d in $DEVS; do
		ns=${d%%:*} dev=${d#*:}
		echo "== $d"
		case $dev in vq*) /sbin/ip netns exec $ns vqpairctl show $dev ;; esac
		/sbin/ip netns exec $ns ethtool -c $dev 2>&1
		/sbin/ip netns exec $ns ethtool -g $dev 2>&1
		/sbin/ip netns exec $ns ethtool -l $dev 2>&1
		/sbin/ip netns exec $ns sh -c "cd /sys/class/net/$dev && grep -H . napi_defer_hard_irqs \
			gro_flush_timeout threaded queues/tx-*/byte_queue_limits/limit_m* \
			queues/tx-*/byte_queue_limits/hold_time" 2>/dev/null
		[ -x /bin/vqprobe ] && /sbin/ip netns exec $ns vqprobe $dev show | grep '^napi '
	done > "$1"
}

# ---- vqtuned ------------------------------------------------------------------------------
# start_daemon POLICY [probe]: 0 when the API socket is up; else the log is shown and 1.
# A probe watches no namespace: the root namespace's devices are observed read-only, so
# whatever the policy says, nothing can be written.
start_daemon() {
	local ns="--netns $NSA --netns $NSB --netns vna --netns vnb"
	[ "${2:-}" = probe ] && ns=""
	mkdir -p /run/vqtune
	rm -f $SOCK
	# shellcheck disable=SC2086
	vqtuned -s $SOCK -S $STATE $ns --listen 0.0.0.0:$API_PORT --token-file $TOKEN \
		--interval $TICK_MS --policy "$1" > $DLOG 2>&1 &
	DPID=$!
	local n=0
	while [ $n -lt $((DAEMON_START_S * 10)) ]; do
		[ -S $SOCK ] && return 0
		kill -0 $DPID 2>/dev/null || break
		usleep 100000
		n=$((n + 1))
	done
	sed 's/^/LAB daemon-log /' $DLOG
	kill $DPID 2>/dev/null
	wait $DPID 2>/dev/null
	DPID=""
	return 1
}

# stop_daemon: SIGTERM (vqtuned restores every knob it changed); prints its exit status
stop_daemon() {
	[ -n "$DPID" ] || return 0
	kill -TERM $DPID
	wait $DPID
	echo "LAB daemon-exit $?"
	grep -E 'restored|restore' $DLOG | tail -2 | sed 's/^/LAB daemon-log /'
	DPID=""
}

# ---- workload -----------------------------------------------------------------------------
start_servers() {
	local p
	for p in vq vn; do
		/sbin/ip netns exec $(pf $p B) iperf3 -s -B $(pf $p IPB) > /dev/null 2>&1 &
		SRV="$SRV $!"
		/sbin/ip netns exec $(pf $p B) sockperf sr -i $(pf $p IPB) -p $RR_PORT > /dev/null 2>&1 &
		SRV="$SRV $!"
	done
	sleep 1
}

# iperf3 -f m output -> Gbit/s of the receiver's sum
gbps() {
	awk '/\[SUM\].*receiver/ { for (i = 1; i < NF; i++) if ($(i + 1) == "Mbits/sec") v = $i }
		END { if (v == "") print "-"; else printf "%.2f\n", v / 1000 }' "$1"
}
# sockperf pp output -> "p50=X p99=Y" in us
lat() {
	awk '/percentile 50.000/ { a = $NF } /percentile 99.000/ { b = $NF }
		END { printf "p50=%s p99=%s\n", a == "" ? "-" : int(a + 0.5), b == "" ? "-" : int(b + 0.5) }' "$1"
}

# phase_NAME PAIR OUT: run the phase for PHASE_S seconds, write "key=value ..." to OUT
phase_bulk() {
	/sbin/ip netns exec $(pf $1 A) iperf3 -c $(pf $1 IPB) -P $BULK_STREAMS -t $PHASE_S -f m \
		> $2.iperf 2>&1
	echo "gbps=$(gbps $2.iperf)" > $2
}

phase_rr() {
	/sbin/ip netns exec $(pf $1 A) sockperf pp -i $(pf $1 IPB) -p $RR_PORT -t $PHASE_S \
		> $2.sp 2>&1
	lat $2.sp > $2
}

# request/response under bulk: the rr run starts after iperf3's streams are up
phase_rrbulk() {
	local ip t=$((PHASE_S - 2))
	[ $t -ge $RR_MIN_S ] || t=$RR_MIN_S
	/sbin/ip netns exec $(pf $1 A) iperf3 -c $(pf $1 IPB) -P $BULK_STREAMS -t $PHASE_S -f m \
		> $2.iperf 2>&1 &
	ip=$!
	sleep 1
	/sbin/ip netns exec $(pf $1 A) sockperf pp -i $(pf $1 IPB) -p $RR_PORT -t $t > $2.sp 2>&1
	wait $ip
	echo "gbps=$(gbps $2.iperf) $(lat $2.sp)" > $2
}

slow_reader() {
	nc -l -p "$1" | while :; do
		dd bs=$SLOW_READ_BYTES count=1 of=/dev/null 2>/dev/null
		usleep $SLOW_READ_GAP_US
	done
}

rx_bytes() { /sbin/ip netns exec $(pf $1 B) cat /sys/class/net/$(pf $1 DB)/statistics/rx_bytes; }

# bulk into receivers that read slowly; Gbit/s from the B device's rx_bytes
phase_slow() {
	local i rd="" tx="" b0 b1 t0 t1 p
	for i in $(seq $SLOW_STREAMS); do
		/sbin/ip netns exec $(pf $1 B) setsid sh /tests/lab.sh slow-reader \
			$((SLOW_PORT0 + i)) > /dev/null 2>&1 &
		rd="$rd $!"
	done
	i=0
	while [ $i -lt $SLOW_LISTEN_WAIT_TENTHS ] && [ "$(/sbin/ip netns exec $(pf $1 B) netstat -ltn |
		grep -c ":$((SLOW_PORT0 + 1)) \|:$((SLOW_PORT0 + SLOW_STREAMS)) ")" -lt 2 ]; do
		usleep 100000
		i=$((i + 1))
	done
	b0=$(rx_bytes $1) t0=$(cut -d' ' -f1 /proc/uptime)
	for i in $(seq $SLOW_STREAMS); do
		/sbin/ip netns exec $(pf $1 A) sockperf tp --tcp -i $(pf $1 IPB) \
			-p $((SLOW_PORT0 + i)) -m $SLOW_MSG_BYTES -t $((PHASE_S - 1)) > $2.tp$i 2>&1 &
		tx="$tx $!"
	done
	sleep $((PHASE_S - 1))
	b1=$(rx_bytes $1) t1=$(cut -d' ' -f1 /proc/uptime)
	for p in $tx; do kill $p 2>/dev/null; done
	# setsid made each reader a process group leader: the group is nc and the read loop
	for p in $rd; do kill -TERM -$p 2>/dev/null; done
	for p in $tx $rd; do wait $p 2>/dev/null; done
	awk -v b="$((b1 - b0))" -v a="$t0" -v z="$t1" \
		'BEGIN { printf "gbps=%.3f\n", (z > a ? b * 8 / (z - a) / 1e9 : 0) }' > $2
}

# run_pass PASS: every phase on both pairs at once; "LAB phase" at each start, then results
run_pass() {
	local ph p w o
	mkdir -p /tmp/lab
	for ph in $PHASES; do
		echo "LAB phase $1 $ph $PHASE_S"
		w=""
		for p in vq vn; do
			o=/tmp/lab/$1.$p.$ph
			echo "gbps=-" > $o
			phase_$ph $p $o &
			w="$w $!"
		done
		wait $w
		for p in vq vn; do
			echo "LAB result $1 $p $ph $(cat /tmp/lab/$1.$p.$ph)"
		done
	done
}

# ---- report -------------------------------------------------------------------------------
# LAB knob DEV KNOB INSTANCE ORIGINAL VALUE: every knob vqtuned changed (knobs table columns:
# KNOB [INSTANCE] VALUE UNIT MIN MAX ORIGINAL PROVIDER FLAGS; INSTANCE may be empty)
report_knobs() {
	local d
	for d in $DEVS; do
		vqtunectl -s $SOCK knobs $d | awk -v d=$d 'f && $(NF - 2) != "-" {
			print "LAB knob", d, $1, NF == 9 ? $2 : "-", $(NF - 2), $(NF - 6) } /^KNOB/ { f = 1 }'
	done
}

# LAB events DEV CONTROLLER MANUAL OUTSIDE: the journal, paged (events text lines are
# "ID TIME WHO [CONTROLLER ACTION] NETNS:DEV KNOB[/INSTANCE] OLD -> NEW (REASON)": the
# device is looked for in the first fields rather than at a fixed column)
report_events() {
	local since=0 last
	: > /tmp/lab/events
	while :; do
		vqtunectl -s $SOCK events --since $since > /tmp/lab/ev.page || break
		[ -s /tmp/lab/ev.page ] || break
		cat /tmp/lab/ev.page >> /tmp/lab/events
		last=$(tail -1 /tmp/lab/ev.page | awk '{print $1}')
		[ "$last" -gt "$since" ] 2>/dev/null || break
		since=$last
	done
	echo "LAB events-total $(grep -c . /tmp/lab/events)"
	for d in $DEVS; do
		awk -v d=$d '{ for (i = 4; i <= 7 && i <= NF; i++) if ($i == d) { n[$3]++; break } } END {
			print "LAB events", d, n["controller"] + 0, n["manual"] + 0, n["outside"] + 0 }' \
			/tmp/lab/events
	done
}

# ---- main ---------------------------------------------------------------------------------
lab_main() {
	trap lab_cleanup EXIT
	echo "LAB begin $(uname -r) phase $PHASE_S s policy $POLICY"
	[ -s "$TOKEN" ] || fail "no token file $TOKEN"
	api_up
	pair_up 2
	vn_up
	snap /tmp/knobs.before
	echo "LAB setup vqa:vqf0 vqb:vqb0 (vqpair) vna:vn0 vnb:vn1 (virtio_net) api 10.0.2.15:$API_PORT"

	# the active policy first, alone: a refusal ends the lab before any measurement
	start_daemon "$POLICY" probe || fail "vqtuned refused --policy $POLICY (see daemon-log)"
	stop_daemon

	start_servers
	start_daemon /policies/observe.json || fail "vqtuned did not start in observe mode"
	echo "LAB api-up observe"
	run_pass default
	stop_daemon

	start_daemon "$POLICY" || fail "vqtuned refused --policy $POLICY (see daemon-log)"
	echo "LAB api-up $(basename $POLICY .json)"
	run_pass active
	report_knobs
	report_events
	stop_daemon
	snap /tmp/knobs.after
	if cmp -s /tmp/knobs.before /tmp/knobs.after; then
		echo "LAB restore ok $(grep -c . /tmp/knobs.before) lines compared"
	else
		echo "LAB restore FAIL"
		diff /tmp/knobs.before /tmp/knobs.after | sed 's/^/LAB restore-diff /'
		return 1
	fi
}

if [ "${1:-}" = slow-reader ]; then
	slow_reader "$2"
	exit 0
fi
lab_main
rc=$?
echo "LAB end $rc"
exit $rc
