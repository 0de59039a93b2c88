#!/bin/bash
# A write to a device vqtuned only observes is 403 read_only with a "reason" the daemon
# gives from IFF_LOOPBACK, never from the name: in the daemon's own namespace (A) the
# loopback device is renamed lo7 and a veth is called lo; in a watched namespace (W) lo is
# the loopback device. lo7 and W:lo are "loopback", the veth lo is "not_managed", and
# vqtunectl words each by that reason (--json keeps the API's message). A knob name that does
# not exist is named before the device's verdict. Nothing is written, no event is recorded.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_extra.sh"
vq_init
A=$(vq_netns a) && W=$(vq_netns w) || exit $KSFT_FAIL
# a loopback device can be renamed only while down
ip -n "$A" link set lo down && ip -n "$A" link set lo name lo7 || exit $KSFT_FAIL
ip -n "$A" link add lo type veth peer name lop || exit $KSFT_FAIL
check "lo7 in $A is the loopback device" loopback \
	"$(ip -n "$A" -o link show lo7 | grep -o 'link/loopback' | cut -d/ -f2)"
check "lo in $A is a veth" veth "$(ip -n "$A" -d -o link show lo | grep -ow veth)"

# the daemon runs in A, so A's devices are its "own interfaces"; it watches W
VQ_SOCK=$VQ_TMP/vqtuned.sock
ip netns exec "$A" "$VQTUNED" -s "$VQ_SOCK" -S "$VQ_TMP/state" --netns "$W" --interval 100 \
	>>"$VQ_TMP/vqtuned.log" 2>&1 &
VQ_DPID=$!
VQ_PIDS+=("$VQ_DPID")
for _ in $(seq 100); do
	vq_healthy && break
	kill -0 "$VQ_DPID" 2>/dev/null || break
	sleep 0.1
done
vq_healthy || { echo "vqtuned did not start:"; cat "$VQ_TMP/vqtuned.log"; exit $KSFT_FAIL; }
events() { vq_api GET /v1/status | cut -d' ' -f2- | vq_json 'd["events"]'; }
ev0=$(events)

managed() { vq_api GET "/v1/devices/$1" | cut -d' ' -f2- | vq_json 'd["managed"]'; }
check "-:lo7 is observed read-only" False "$(managed -:lo7)"
check "-:lo (a veth) is observed read-only" False "$(managed -:lo)"
check "$W:lo is observed read-only" False "$(managed "$W:lo")"

# API: code, field and reason of a refused PUT
refused() {	# SELECTOR: "STATUS|code|field|reason"
	local r
	r=$(vq_api PUT "/v1/devices/$1/knobs/gro-flush-timeout" '{"value":20000}')
	printf '%s|%s\n' "${r%% *}" "$(echo "${r#* }" |
		vq_json '"|".join(d["error"].get(k, "-") for k in ("code", "field", "reason"))')"
}
check "PUT -:lo7 (renamed loopback)" "403|read_only|dev|loopback" "$(refused -:lo7)"
check "PUT -:lo (veth called lo)" "403|read_only|dev|not_managed" "$(refused -:lo)"
check "PUT $W:lo (loopback, watched namespace)" "403|read_only|dev|loopback" "$(refused "$W:lo")"
r=$(vq_api POST "/v1/devices/-:lo7/pause")
check "pause -:lo7: status and reason" "403 loopback" \
	"${r%% *} $(echo "${r#* }" | vq_json 'd["error"]["reason"]')"

# CLI: the words follow the reason, not the name
LOOP="is a loopback device: vqtuned observes it and never writes it (--manage does not change \
that) (read_only, field dev)"
OWN="is observed read-only: vqtuned never writes the machine's own interfaces (those of its \
own namespace) unless it was started with --manage GLOB naming them (read_only, field dev)"
for c in "-:lo7|$LOOP" "$W:lo|$LOOP" "-:lo|$OWN"; do
	d=${c%%|*}
	vq_ctl set "$d" gro-flush-timeout 20000 >"$VQ_TMP/out" 2>"$VQ_TMP/err"
	check "set $d: exit code" 1 $?
	check "... stderr" "vqtunectl: $d ${c#*|}" "$(cat "$VQ_TMP/err")"
	check "... nothing on stdout" "" "$(cat "$VQ_TMP/out")"
done
vq_ctl release -:lo7 gro-flush-timeout >/dev/null 2>"$VQ_TMP/err"
check "release -:lo7: exit code" 1 $?
check "... stderr" "vqtunectl: -:lo7 $LOOP" "$(cat "$VQ_TMP/err")"
vq_ctl --json set -:lo gro-flush-timeout 20000 >/dev/null 2>"$VQ_TMP/err"
check "--json set -:lo: the API's message" "vqtunectl: device '-:lo' is observed read-only \
(not managed: see --manage) (read_only, field dev)" "$(cat "$VQ_TMP/err")"

# a knob name that does not exist is named first, on a read-only device too
for d in -:lo -:lo7 "$W:lo"; do
	vq_ctl set "$d" nosuch 5 >/dev/null 2>"$VQ_TMP/err"
	check "set $d nosuch 5: exit code (not found)" 4 $?
	check "... names the knob and where the names are" \
		"vqtunectl: no knob named 'nosuch' (vqtunectl knobs $d lists $d's knobs) \
(not_found, field knob)" "$(cat "$VQ_TMP/err")"
	vq_ctl release "$d" nosuch >/dev/null 2>"$VQ_TMP/err"
	check "release $d nosuch: exit code (not found)" 4 $?
	check "... names the knob and where the names are" \
		"vqtunectl: no knob named 'nosuch' (vqtunectl knobs $d lists $d's knobs) \
(not_found, field knob)" "$(cat "$VQ_TMP/err")"
done
r=$(vq_api PUT "/v1/devices/-:lo/knobs/nosuch" '{"value":5}')
check "PUT -:lo/knobs/nosuch: status, code, field" "404|not_found|knob" \
	"${r%% *}|$(echo "${r#* }" | vq_json '"|".join(d["error"][k] for k in ("code", "field"))')"

check "events count unchanged by the refused writes" "$ev0" "$(events)"
check "-:lo7 not paused" False "$(vq_api GET /v1/devices/-:lo7 | cut -d' ' -f2- |
	vq_json 'd["paused"]')"
vq_done
