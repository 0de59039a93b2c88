#!/bin/bash
# A device-wide NAPI knob written while a veth has no NAPI (GRO off: the sysfs file, instance
# "") stays owed and restorable once the veth gains a NAPI and the views list per-NAPI
# instances instead: the sysfs file is still there and writing it sets every NAPI. Its manual
# pin holds each NAPI's instance too, so no controller moves what the operator set. A restore,
# and the SIGTERM one, put the original back on every NAPI; the journal owes nothing after.
source "$(dirname "$0")/lib.sh"
vq_init
A=$(vq_netns a) || exit $KSFT_FAIL
ip -n "$A" link add vc type veth peer name vd && ip -n "$A" link set vc up &&
	ip -n "$A" link set vd up || exit $KSFT_FAIL
vq_daemon --netns "$A" --interval 100 || exit $KSFT_FAIL
sysfs() { ip netns exec "$A" cat "/sys/class/net/vc/$1"; }
# the instances of KNOB on vc that the views list: "" (device-wide) or napi-N
insts() {
	vq_ctl --json knobs "$A:vc" | vq_json '" ".join(k["instance"] or "-" for k in d["knobs"]
		if k["name"] == "'"$1"'")'
}

check "no NAPI: gro-flush-timeout is device-wide" "-" "$(insts gro-flush-timeout)"
vq_ctl set "$A:vc" gro-flush-timeout 20000 >/dev/null
check "set gro-flush-timeout 20000 (device-wide): exit code" 0 $?
check "... the kernel's" 20000 "$(sysfs gro_flush_timeout)"

ip netns exec "$A" ethtool -K vc gro on >/dev/null || exit $KSFT_FAIL
for _ in $(seq 50); do
	[[ $(insts gro-flush-timeout) == napi-* ]] && break
	sleep 0.1
done
napi=$(insts gro-flush-timeout)
check_true "GRO on: the views list a per-NAPI instance ($napi)" test "${napi#napi-}" != "$napi"
check "... which holds the value written device-wide" 20000 \
	"$(vq_ctl --json knobs "$A:vc" | vq_json '[k["value"] for k in d["knobs"]
		if k["name"] == "gro-flush-timeout"][0]')"
check "... and is pinned by that write" True \
	"$(vq_ctl --json knobs "$A:vc" | vq_json '[k["pinned"] for k in d["knobs"]
		if k["name"] == "gro-flush-timeout"][0]')"
check "... and is changed from its original 0 (the knobs view)" "True 0" \
	"$(vq_ctl --json knobs "$A:vc" | vq_json '" ".join("%s %s" % (k["changed"], k["original"])
		for k in d["knobs"] if k["name"] == "gro-flush-timeout")')"
check "... a restore is still owed" 1 \
	"$(vq_api GET /v1/status | cut -d' ' -f2- | vq_json 'd["changed_knobs"]')"

out=$(vq_ctl restore 2>&1)
check "restore: exit code, and what it says" "0 restored 1, failed 0" "$? $out"
check "... the kernel's device-wide value" 0 "$(sysfs gro_flush_timeout)"
# the NAPI's own value comes with the next sample (a 100 ms tick)
napi_gft() {
	vq_ctl --json knobs "$A:vc" | vq_json '[k["value"] for k in d["knobs"]
		if k["name"] == "gro-flush-timeout"][0]'
}
for _ in $(seq 50); do
	[ "$(napi_gft)" = 0 ] && break
	sleep 0.1
done
check "... the NAPI's, as the next sample reads it" 0 "$(napi_gft)"
check "... nothing owed" 0 "$(vq_api GET /v1/status | cut -d' ' -f2- | vq_json 'd["changed_knobs"]')"

# the same through SIGTERM: GRO off, a device-wide write, GRO on, stop
ip netns exec "$A" ethtool -K vc gro off >/dev/null || exit $KSFT_FAIL
for _ in $(seq 50); do
	[ "$(insts defer-hard-irqs)" = "-" ] && break
	sleep 0.1
done
vq_ctl set "$A:vc" defer-hard-irqs 3 >/dev/null
check "GRO off again, set defer-hard-irqs 3 (device-wide): exit code" 0 $?
ip netns exec "$A" ethtool -K vc gro on >/dev/null || exit $KSFT_FAIL
for _ in $(seq 50); do
	[[ $(insts defer-hard-irqs) == napi-* ]] && break
	sleep 0.1
done
vq_daemon_stop TERM
check "SIGTERM: exit code" 0 $?
check "... the kernel's defer-hard-irqs restored" 0 "$(sysfs napi_defer_hard_irqs)"
vq_done
