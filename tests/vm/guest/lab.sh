#!/bin/sh
# The lab's body, shared by its two variants:
#   guest  (kernel cmdline vqmode=lab, run by /init; the host side is scripts/lab_vm.sh):
#          the second pair is two virtio_net NICs QEMU joined on a hub;
#   host   (scripts/lab_netns.sh, on a host whose kernel loads vqpair.ko): the second pair
#          is a veth pair, and every path, name and address below comes from its env.
# Two device pairs, each end in its own network namespace so that traffic really crosses
# the device:
#   vq  vqpair   vqf0 (netns vqa, 10.77.0.1) <-> vqb0 (netns vqb, 10.77.0.2), 2 queue pairs
#   vn  virtio   vn0  (netns vna, 10.78.0.1) <-> vn1  (netns vnb, 10.78.0.2): two
#                virtio_net NICs QEMU joined on a hub                  (LAB_PAIR2=virtio_net)
#   ve  veth     ve0  (netns vea, 10.78.0.1) <-> ve1  (netns veb, 10.78.0.2), 2 channels,
#                GRO on so veth runs NAPI                              (LAB_PAIR2=veth)
# In the guest the third NIC (QEMU user networking, 10.0.2.15) stays in the root namespace
# and carries vqtuned's TCP API to the host. Two passes of the same phases, on both pairs at
# once: "default" with vqtuned observing (no knob moves), "active" with vqtuned --policy
# balanced. Then the knob values vqtuned ended on and its controller event counts, SIGTERM,
# and the check that every knob is back to the value it had before vqtuned first started.
# The lab creates its namespaces (refusing names that already exist) and deletes those, and
# only those, on exit, also on SIGINT/SIGTERM.
#
# Settings: the environment, then /etc/vqlab.env (LAB_ENV; a cpio segment the host appends
# to the guest's initramfs). Defaults are the guest's:
#   LAB_PHASE_S  seconds per phase (20)      LAB_POLICY  the active pass's policy file
#   LAB_TOKEN    file with the API's bearer token (/etc/vqtune/token)
#   LAB_LIB      the guest tests' lib.sh (/tests/lib.sh)
#   LAB_POLICY_DIR  where observe.json and balanced.json are (/policies)
#   LAB_TMP      scratch directory (/tmp)    LAB_RUN  vqtuned's socket and state (/run/vqtune)
#   LAB_LISTEN   vqtuned --listen (0.0.0.0:9477)
#   LAB_API_NIC  1: bring up QEMU's user-networking NIC for the API (guest); 0: none
#   LAB_PAIR2    virtio_net (QEMU hub NICs) or veth
#   LAB_NS_PREFIX  prefix of the namespace names (none; the host's entry point sets one)
#   LAB_NETNS_LOG  file to which each namespace name is appended before it is created
# Output: lines "LAB <what> ..." (the protocol is in scripts/lab_vm.sh).
LAB_ENV=${LAB_ENV-/etc/vqlab.env}
# shellcheck disable=SC1090
[ -n "$LAB_ENV" ] && [ -f "$LAB_ENV" ] && . "$LAB_ENV"
# shellcheck disable=SC1090
. "${LAB_LIB:-/tests/lib.sh}"

PHASE_S=${LAB_PHASE_S:-20}
# each phase's first quarter is not measured, in both passes (5 s of 20, 10 ticks at
# TICK_MS): the active pass's controllers move the knobs for the new traffic then (the
# bench's warm-up at the lab's scale) and TCP's slow start is left out, so the table
# compares settled knobs with the defaults, not the transition. 0 below 4 s phases.
SETTLE_S=$((PHASE_S / 4))
MEAS_S=$((PHASE_S - SETTLE_S))
POLICY_DIR=${LAB_POLICY_DIR:-/policies}
POLICY=${LAB_POLICY:-$POLICY_DIR/balanced.json}
TOKEN=${LAB_TOKEN:-/etc/vqtune/token}
LTMP=${LAB_TMP:-/tmp}
LISTEN=${LAB_LISTEN:-0.0.0.0:9477}
API_NIC=${LAB_API_NIC:-1}
PAIR2=${LAB_PAIR2:-virtio_net}
NSP=${LAB_NS_PREFIX:-}
PHASES="bulk rr rrbulk slow"
# the vqtuned instance and its files
SOCK=${LAB_RUN:-/run/vqtune}/vqtuned.sock
STATE=${LAB_RUN:-/run/vqtune}/state
DLOG=$LTMP/vqtuned.log
# a 500 ms tick: a 20 s phase is 40 samples, enough for the guard's settle/hold windows
TICK_MS=500
# TCG boots vqtuned and its netlink sockets slowly: wait this long for the API socket
DAEMON_START_S=30
# bulk: iperf3 streams (as many as the queue pairs times two, so both queues carry flows)
BULK_STREAMS=4
# queue pairs of the vqpair pair, channels of the veth pair
QUEUES=2
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
# busybox's nc, netstat and usleep, also on a host where they are not on PATH (in the guest
# they are the same applets); busybox-static is in scripts/packages/vm.txt
BB=""
command -v busybox > /dev/null 2>&1 && BB=busybox

# pair fields: pf PAIR FIELD (A, B namespaces; DA, DB devices; IPB the B side's address)
# (LABEL the driver's name in the table). P2 is the second pair's key: vn or ve.
NSA=${NSP}vqa NSB=${NSP}vqb
vq_A=$NSA vq_B=$NSB vq_DA=$FRONT vq_DB=$BACK vq_IPB=$IPB vq_LABEL=vqpair
vn_A=${NSP}vna vn_B=${NSP}vnb vn_DA=vn0 vn_DB=vn1 vn_IPA=10.78.0.1 vn_IPB=10.78.0.2
vn_LABEL=virtio_net
ve_A=${NSP}vea ve_B=${NSP}veb ve_DA=ve0 ve_DB=ve1 ve_IPA=10.78.0.1 ve_IPB=10.78.0.2
ve_LABEL=veth
case $PAIR2 in
virtio_net) P2=vn ;;
veth)	P2=ve ;;
*)	echo "LAB fail LAB_PAIR2=$PAIR2: virtio_net or veth"; echo "LAB end 1"; exit 1 ;;
esac
pf() { eval echo "\$${1}_$2"; }
NSALL="$(pf vq A) $(pf vq B) $(pf $P2 A) $(pf $P2 B)"
DEVS="$(pf vq A):$(pf vq DA) $(pf vq B):$(pf vq DB) $(pf $P2 A):$(pf $P2 DA) $(pf $P2 B):$(pf $P2 DB)"

fail() { echo "LAB fail $*"; echo "LAB end 1"; exit 1; }
SRV=""
DPID=""
# the namespaces this run created (only these are deleted)
CREATED=""
# process groups of the slow phase's readers (setsid), killed on the way out
READERS=$LTMP/lab/readers

lab_cleanup() {
	local p
	for p in $SRV; do kill "$p" 2>/dev/null; done
	for p in $SRV; do wait "$p" 2>/dev/null; done
	if [ -f $READERS ]; then
		for p in $(cat $READERS); do kill -TERM -$p 2>/dev/null; done
		rm -f $READERS
	fi
	stop_daemon
	for p in $CREATED; do /sbin/ip netns del $p 2>/dev/null; done
	sleep 1
}

# claim_netns: the lab's namespace names are free, then each is recorded as the lab's own
# (LAB_NETNS_LOG too) before it is created
claim_netns() {
	local n
	for n in $NSALL; do
		[ -e /run/netns/$n ] && fail "netns $n exists already (not this lab's: left alone)"
	done
	for n in $NSALL; do
		CREATED="$CREATED $n"
		[ -n "${LAB_NETNS_LOG:-}" ] && echo $n >> "$LAB_NETNS_LOG"
	done
}

# ---- set-up -----------------------------------------------------------------------------
nic_by_mac() {
	local d
	for d in /sys/class/net/*; do
		[ "$(cat $d/address)" = "$1" ] && { basename $d; return 0; }
	done
	return 1
}

# pair2_addr: addresses, lo and the links up, a ping across (both ends in their namespaces)
pair2_addr() {
	local A B n
	A=$(pf $P2 A) B=$(pf $P2 B)
	/sbin/ip netns exec $A /sbin/ip addr add $(pf $P2 IPA)/24 dev $(pf $P2 DA)
	/sbin/ip netns exec $B /sbin/ip addr add $(pf $P2 IPB)/24 dev $(pf $P2 DB)
	for n in $A:$(pf $P2 DA) $B:$(pf $P2 DB); do
		/sbin/ip netns exec ${n%:*} /sbin/ip link set lo up
		/sbin/ip netns exec ${n%:*} /sbin/ip link set ${n#*:} up
	done
	/sbin/ip netns exec $A ping -c 1 -W 5 $(pf $P2 IPB) > /dev/null ||
		fail "no ping across $(pf $P2 LABEL)"
}

vn_up() {
	local a b
	a=$(nic_by_mac 52:54:00:76:00:01) && b=$(nic_by_mac 52:54:00:76:00:02) ||
		fail "no virtio_net hub pair (QEMU NICS hubpair; /lib/kmods loaded?)"
	/sbin/ip netns add $vn_A && /sbin/ip netns add $vn_B || fail "netns add"
	/sbin/ip link set $a name vn0 && /sbin/ip link set $b name vn1 || fail "rename"
	/sbin/ip link set vn0 netns $vn_A && /sbin/ip link set vn1 netns $vn_B || fail "move"
	pair2_addr
}

# a veth pair made inside its namespaces (nothing of it ever in the root namespace); GRO on
# gives veth its NAPIs, one per rx channel (the NAPI knobs)
ve_up() {
	/sbin/ip netns add $ve_A && /sbin/ip netns add $ve_B || fail "netns add"
	/sbin/ip -n $ve_A link add $ve_DA numtxqueues $QUEUES numrxqueues $QUEUES type veth \
		peer name $ve_DB netns $ve_B numtxqueues $QUEUES numrxqueues $QUEUES ||
		fail "veth pair (veth module?)"
	/sbin/ip netns exec $ve_A ethtool -K $ve_DA gro on > /dev/null
	/sbin/ip netns exec $ve_B ethtool -K $ve_DB gro on > /dev/null
	pair2_addr
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
		case $dev in $FRONT|$BACK) /sbin/ip netns exec $ns vqpairctl show $dev ;; esac
		/sbin/ip netns exec $ns ethtool -c $dev 2>&1
		/sbin/ip netns exec $ns ethtool -g $dev 2>&1
		/sbin/ip netns exec $ns ethtool -l $dev 2>&1
		/sbin/ip netns exec $ns sh -c "cd /sys/class/net/$dev && grep -H . napi_defer_hard_irqs \
			gro_flush_timeout threaded queues/tx-*/byte_queue_limits/limit_m* \
			queues/tx-*/byte_queue_limits/hold_time" 2>/dev/null
		command -v vqprobe > /dev/null &&
			/sbin/ip netns exec $ns vqprobe $dev show | grep '^napi '
	done > "$1"
}

# ---- vqtuned ------------------------------------------------------------------------------
# start_daemon POLICY [probe]: 0 when the API socket is up; else the log is shown and 1.
# A probe watches no namespace: the root namespace's devices are observed read-only, so
# whatever the policy says, nothing can be written.
start_daemon() {
	local ns="" n
	for n in $NSALL; do ns="$ns --netns $n"; done
	[ "${2:-}" = probe ] && ns=""
	mkdir -p "$(dirname $SOCK)"
	rm -f $SOCK
	# shellcheck disable=SC2086
	vqtuned -s $SOCK -S $STATE $ns --listen $LISTEN --token-file $TOKEN \
		--interval $TICK_MS --policy "$1" > $DLOG 2>&1 &
	DPID=$!
	local n=0
	while [ $n -lt $((DAEMON_START_S * 10)) ]; do
		[ -S $SOCK ] && return 0
		kill -0 $DPID 2>/dev/null || break
		$BB usleep 100000
		n=$((n + 1))
	done
	sed 's/^<[0-7]>//; s/^/LAB daemon-log /' $DLOG
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
	grep -E 'restored|restore' $DLOG | tail -2 | sed 's/^<[0-7]>//; s/^/LAB daemon-log /'
	DPID=""
}

# ---- workload -----------------------------------------------------------------------------
start_servers() {
	local p
	for p in vq $P2; do
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

# phase_NAME PAIR OUT: run the phase for PHASE_S seconds, measure its last MEAS_S, write
# "key=value ..." to OUT
# iperf3 -O: the first SETTLE_S seconds are left out of its figures (it runs SETTLE_S + MEAS_S)
phase_bulk() {
	/sbin/ip netns exec $(pf $1 A) iperf3 -c $(pf $1 IPB) -P $BULK_STREAMS -t $MEAS_S \
		-O $SETTLE_S -f m > $2.iperf 2>&1
	echo "gbps=$(gbps $2.iperf)" > $2
}

# rr_settle PAIR SECONDS: the same ping-pong, not measured (none for 0 s)
rr_settle() {
	[ "$2" -gt 0 ] || return 0
	/sbin/ip netns exec $(pf $1 A) sockperf pp -i $(pf $1 IPB) -p $RR_PORT -t $2 \
		> /dev/null 2>&1
}

# the measured run is a second shorter when a settling run came first: each sockperf start
# costs about that on TCG, and the phase keeps its length
phase_rr() {
	local t=$MEAS_S
	[ $SETTLE_S -gt 0 ] && [ $t -gt $RR_MIN_S ] && t=$((t - 1))
	rr_settle $1 $SETTLE_S
	/sbin/ip netns exec $(pf $1 A) sockperf pp -i $(pf $1 IPB) -p $RR_PORT -t $t \
		> $2.sp 2>&1
	lat $2.sp > $2
}

# request/response under bulk: the rr runs start after iperf3's streams are up and end
# before they do (two sockperf starts cost ~2 s on TCG: a 20 s phase's ping-pong ran ~1 s
# past the bulk when the measured run was 13 s)
phase_rrbulk() {
	local ip w=$((SETTLE_S - 1)) t=$((MEAS_S - 1))
	[ $w -gt 0 ] && t=$((t - 2))
	[ $t -ge $RR_MIN_S ] || t=$RR_MIN_S
	/sbin/ip netns exec $(pf $1 A) iperf3 -c $(pf $1 IPB) -P $BULK_STREAMS -t $MEAS_S \
		-O $SETTLE_S -f m > $2.iperf 2>&1 &
	ip=$!
	sleep 1
	rr_settle $1 $w
	/sbin/ip netns exec $(pf $1 A) sockperf pp -i $(pf $1 IPB) -p $RR_PORT -t $t > $2.sp 2>&1
	wait $ip
	echo "gbps=$(gbps $2.iperf) $(lat $2.sp)" > $2
}

slow_reader() {
	$BB nc -l -p "$1" | while :; do
		dd bs=$SLOW_READ_BYTES count=1 of=/dev/null 2>/dev/null
		$BB usleep $SLOW_READ_GAP_US
	done
}

rx_bytes() { /sbin/ip netns exec $(pf $1 B) cat /sys/class/net/$(pf $1 DB)/statistics/rx_bytes; }

# bulk into receivers that read slowly; Gbit/s from the B device's rx_bytes
phase_slow() {
	local i rd="" tx="" b0 b1 t0 t1 p
	for i in $(seq $SLOW_STREAMS); do
		/sbin/ip netns exec $(pf $1 B) setsid sh "$SELF" slow-reader \
			$((SLOW_PORT0 + i)) > /dev/null 2>&1 &
		rd="$rd $!"
		echo $! >> $READERS
	done
	i=0
	while [ $i -lt $SLOW_LISTEN_WAIT_TENTHS ] && [ "$(/sbin/ip netns exec $(pf $1 B) $BB netstat -ltn |
		grep -c ":$((SLOW_PORT0 + 1)) \|:$((SLOW_PORT0 + SLOW_STREAMS)) ")" -lt 2 ]; do
		$BB usleep 100000
		i=$((i + 1))
	done
	for i in $(seq $SLOW_STREAMS); do
		/sbin/ip netns exec $(pf $1 A) sockperf tp --tcp -i $(pf $1 IPB) \
			-p $((SLOW_PORT0 + i)) -m $SLOW_MSG_BYTES -t $((PHASE_S - 1)) > $2.tp$i 2>&1 &
		tx="$tx $!"
	done
	sleep $SETTLE_S
	b0=$(rx_bytes $1) t0=$(cut -d' ' -f1 /proc/uptime)
	sleep $((MEAS_S - 1))
	b1=$(rx_bytes $1) t1=$(cut -d' ' -f1 /proc/uptime)
	for p in $tx; do kill $p 2>/dev/null; done
	# setsid made each reader a process group leader: the group is nc and the read loop
	for p in $rd; do kill -TERM -$p 2>/dev/null; done
	for p in $tx $rd; do wait $p 2>/dev/null; done
	for p in $rd; do sed -i "/^$p\$/d" $READERS; done
	awk -v b="$((b1 - b0))" -v a="$t0" -v z="$t1" \
		'BEGIN { printf "gbps=%.3f\n", (z > a ? b * 8 / (z - a) / 1e9 : 0) }' > $2
}

# run_pass PASS: every phase on both pairs at once; "LAB phase" at each start, then results
run_pass() {
	local ph p w o
	for ph in $PHASES; do
		echo "LAB phase $1 $ph $PHASE_S $MEAS_S"
		w=""
		for p in vq $P2; do
			o=$LTMP/lab/$1.$p.$ph
			echo "gbps=-" > $o
			phase_$ph $p $o &
			w="$w $!"
		done
		wait $w
		for p in vq $P2; do
			echo "LAB result $1 $p $ph $(cat $LTMP/lab/$1.$p.$ph)"
		done
	done
}

# ---- report -------------------------------------------------------------------------------
# LAB knob DEV KNOB INSTANCE ORIGINAL VALUE: every knob vqtuned changed (knobs table columns:
# KNOB [INSTANCE] VALUE UNIT MIN MAX ORIGINAL PROVIDER FLAGS; INSTANCE may be empty), then
# LAB knobs-read DEV once its table was read whole (the report tells "every knob at its
# original value" from "not read" by it)
report_knobs() {
	local d
	for d in $DEVS; do
		vqtunectl -s $SOCK knobs $d > $LTMP/lab/knobs.$d || continue
		# the table's rows follow its KNOB header; "ro:" lines under it say why a knob is
		# read-only, "rule:" lines which values a driver takes
		awk -v d=$d '$1 == "ro:" || $1 == "rule:" || NF == 0 { next }
			f && $(NF - 2) != "-" {
			print "LAB knob", d, $1, NF == 9 ? $2 : "-", $(NF - 2), $(NF - 6) } /^KNOB/ { f = 1 }' \
			$LTMP/lab/knobs.$d
		echo "LAB knobs-read $d"
	done
}

# LAB TAG DEV CONTROLLER MANUAL OUTSIDE: the running vqtuned's journal, paged (events text
# lines are "ID TIME WHO [CONTROLLER ACTION] NETNS:DEV KNOB[/INSTANCE] OLD -> NEW (REASON)":
# the device is looked for in the first fields rather than at a fixed column). TAG: events
# after the active pass; default-events before the default pass's vqtuned stops (it writes
# nothing, so any entry there is someone else's write, which the table then flags)
report_events() {
	local since=0 last tag=${1:-events}
	: > $LTMP/lab/events
	while :; do
		vqtunectl -s $SOCK events --since $since > $LTMP/lab/ev.page || break
		[ -s $LTMP/lab/ev.page ] || break
		cat $LTMP/lab/ev.page >> $LTMP/lab/events
		last=$(tail -1 $LTMP/lab/ev.page | awk '{print $1}')
		[ "$last" -gt "$since" ] 2>/dev/null || break
		since=$last
	done
	[ $tag = events ] && echo "LAB events-total $(grep -c . $LTMP/lab/events)"
	for d in $DEVS; do
		awk -v d=$d -v t=$tag '{ for (i = 4; i <= 7 && i <= NF; i++) if ($i == d) {
			n[$3]++; break } } END {
			print "LAB", t, d, n["controller"] + 0, n["manual"] + 0, n["outside"] + 0 }' \
			$LTMP/lab/events
	done
}

# ---- main ---------------------------------------------------------------------------------
lab_main() {
	trap lab_cleanup EXIT
	trap 'exit 130' INT TERM
	echo "LAB begin $(uname -r) phase $PHASE_S s policy $POLICY"
	[ -s "$TOKEN" ] || fail "no token file $TOKEN"
	mkdir -p $LTMP/lab
	claim_netns
	local api=$LISTEN
	if [ "$API_NIC" = 1 ]; then
		api_up
		api=10.0.2.15:${LISTEN##*:}
	fi
	pair_up $QUEUES
	${P2}_up
	snap $LTMP/knobs.before
	for p in vq $P2; do
		echo "LAB pair $p $(pf $p LABEL) $(pf $p A):$(pf $p DA) $(pf $p B):$(pf $p DB)"
	done
	echo "LAB setup $(pf vq A):$(pf vq DA) $(pf vq B):$(pf vq DB) (vqpair)" \
		"$(pf $P2 A):$(pf $P2 DA) $(pf $P2 B):$(pf $P2 DB) ($(pf $P2 LABEL)) api $api"

	# the active policy first, alone: a refusal ends the lab before any measurement
	start_daemon "$POLICY" probe || fail "vqtuned refused --policy $POLICY (see daemon-log)"
	stop_daemon

	start_servers
	start_daemon $POLICY_DIR/observe.json || fail "vqtuned did not start in observe mode"
	echo "LAB api-up observe"
	run_pass default
	report_events default-events
	stop_daemon

	start_daemon "$POLICY" || fail "vqtuned refused --policy $POLICY (see daemon-log)"
	echo "LAB api-up $(basename $POLICY .json)"
	run_pass active
	report_knobs
	report_events
	stop_daemon
	snap $LTMP/knobs.after
	if cmp -s $LTMP/knobs.before $LTMP/knobs.after; then
		echo "LAB restore ok $(grep -c . $LTMP/knobs.before) lines compared"
	else
		echo "LAB restore FAIL"
		diff $LTMP/knobs.before $LTMP/knobs.after | sed 's/^/LAB restore-diff /'
		return 1
	fi
}

SELF=$0
if [ "${1:-}" = slow-reader ]; then
	slow_reader "$2"
	exit 0
fi
lab_main
rc=$?
echo "LAB end $rc"
exit $rc
