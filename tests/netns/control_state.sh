#!/bin/bash
# The decide stage seen through the real daemon on real veth devices: with the balanced
# policy (mode active) each queue's controller object shows the state and the laws' last
# decisions, knobs an enabled law moves are "controlled" until a manual set pins them,
# pause/resume, a policy whose select does not match, mode advise, and the controller
# metrics. (The knobs moving under load, restore under control and outside writers
# fighting a controller are tested on vqpair in the VM tier: tests/vm/guest/t_control.sh.)
source "$(dirname "$0")/lib.sh"
vq_init
A=$(vq_netns a) && B=$(vq_netns b) || exit $KSFT_FAIL
vq_veth "$A" va "$B" vb 1 || exit $KSFT_FAIL
vq_daemon --netns "$A" --netns "$B" --interval 100 \
	--policy "$VQ_ROOT/policies/balanced.json" || exit $KSFT_FAIL

queues() { vq_ctl --json queues "$B:vb"; }
# ctl_of DIR: the controller object of queue 0 in direction DIR
ctl_of() { queues | vq_json "[q['controller'] for q in d['queues'] if q['direction']=='$1'][0]$2"; }
knob_flag() {
	vq_ctl --json device "$B:vb" |
		vq_json "[k['$2'] for k in d['knobs'] if k['name']=='$1'][0]"
}
# wait_for DESC EXPECTED CMD...: poll up to 3 s
wait_for() {
	local d=$1 want=$2 got; shift 2
	for _ in $(seq 30); do
		got=$("$@" 2>/dev/null)
		[ "$got" == "$want" ] && break
		sleep 0.1
	done
	check "$d" "$want" "$got"
}

ip netns exec "$A" ping -c 20 -i 0.05 -q 192.0.2.2 >/dev/null
wait_for "rx queue 0: state active" active ctl_of rx "['state']"
check "rx queue 0: the polling law ran (decision hold)" hold "$(ctl_of rx "['laws']['polling']['decision']")"
check_true "... with its reason ($(ctl_of rx "['laws']['polling']['reason']"))" \
	test -n "$(ctl_of rx "['laws']['polling']['reason']")"
check "tx queue 0: its laws are qlimit and zerocopy" "['qlimit', 'zerocopy']" \
	"$(ctl_of tx "['laws'].keys()" | tr -d '\n' | sed 's/dict_keys(\(.*\))/\1/')"
check "gro-flush-timeout is controlled" True "$(knob_flag gro-flush-timeout controlled)"
check "threaded is no law's knob: not controlled" False "$(knob_flag threaded controlled)"
check "device list: mode active" active \
	"$(vq_ctl --json devices | vq_json "[x['mode'] for x in d['devices'] if x['name']=='vb'][0]")"
check_true "vqtunectl queues shows the CONTROL column" \
	bash -c "'$VQTUNECTL' -s '$VQ_SOCK' queues '$B:vb' | grep -q 'polling=hold'"

# a manual set pins: no longer controlled; release gives it back
vq_ctl set "$B:vb" gro-flush-timeout 20000 >/dev/null
check "manual set: exit code" 0 $?
check "... pinned knob not controlled" False "$(knob_flag gro-flush-timeout controlled)"
vq_ctl release "$B:vb" gro-flush-timeout >/dev/null
check "release: controlled again" True "$(knob_flag gro-flush-timeout controlled)"

# pause / resume
vq_ctl pause "$B:vb" >/dev/null
wait_for "paused: state" paused ctl_of rx "['state']"
check "paused: not controlled" False "$(knob_flag gro-flush-timeout controlled)"
vq_ctl resume "$B:vb" >/dev/null
wait_for "resumed: state" active ctl_of rx "['state']"

# a policy that selects other devices, then mode advise
python3 - "$VQ_ROOT/policies/balanced.json" "$VQ_TMP/other.json" "$VQ_TMP/advise.json" <<'EOF'
import json, sys
p = json.load(open(sys.argv[1]))
p["select"]["names"] = ["eth*"]
json.dump(p, open(sys.argv[2], "w"))
p["select"]["names"] = []
p["mode"] = "advise"
json.dump(p, open(sys.argv[3], "w"))
EOF
vq_ctl policy load "$VQ_TMP/other.json" >/dev/null
check "policy selecting eth*: exit code" 0 $?
wait_for "vb not selected" not-selected ctl_of rx "['state']"
vq_ctl policy load "$VQ_TMP/advise.json" >/dev/null
wait_for "mode advise: state" advise ctl_of rx "['state']"
check "mode advise: still controlled (decided, not written)" True \
	"$(knob_flag gro-flush-timeout controlled)"

# metrics
m=$(curl -s --unix-socket "$VQ_SOCK" http://localhost/metrics)
check_true "metrics: vqtune_controller_decisions_total{decision=\"applied\"}" \
	grep -q '^vqtune_controller_decisions_total{decision="applied"} ' <<<"$m"
check_true "metrics: polling steps of vb queue 0" \
	grep -qE "^vqtune_queue_controller_steps_total\{device=\"vb\",netns=\"$B\",queue=\"0\",controller=\"polling\"\} 0$" <<<"$m"

# nothing was changed by a controller here: SIGTERM restores only the manual set's knob
vq_daemon_stop TERM
check "vqtuned exit after SIGTERM" 0 $?
check_true "... restored 1 knob (the manual set)" grep -q "restored 1 knob" "$VQ_TMP/vqtuned.log"
vq_done
