#!/bin/bash
# /metrics: promtool accepts it, counter families end in _total, a device's byte counter is
# the rtnl counter (between two reads of `ip -s`), the tick counter grows, the tick's cost
# comes by part (and /v1/status names the same parts). The TCP listener serves reads,
# refuses writes with 403 without a token file, and with one takes the right bearer token
# (200) and refuses a wrong one (401). A --listen that is not a numeric address with a port
# 1..65535 is refused at start, naming the option.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_extra.sh"
vq_init
TICK_WAIT_S=0.5		# > 2 ticks of 100 ms: the scrape holds a sample newer than our read
TOKEN=vqtune-test-token-$$-$RANDOM
A=$(vq_netns a) && B=$(vq_netns b) || exit $KSFT_FAIL
vq_veth "$A" va "$B" vb 2 || exit $KSFT_FAIL
for bad in 127.0.0.1:99999 127.0.0.1:0 localhost:9477 '[::1]:94x'; do
	"$VQTUNED" -s "$VQ_TMP/bad.sock" -S "$VQ_TMP/bad-state" --listen "$bad" \
		>"$VQ_TMP/bad.log" 2>&1
	check "--listen $bad refused: exit status" 2 $?
	check_true "... naming the option ($(head -1 "$VQ_TMP/bad.log"))" \
		grep -qF -- "--listen: '$bad' is not ADDR:PORT" "$VQ_TMP/bad.log"
done
vq_daemon_tcp --netns "$A" --netns "$B" --interval 100 ||
	{ echo "FAIL: no daemon"; exit $KSFT_FAIL; }
vq_log "TCP listener on 127.0.0.1:$VQ_PORT"
IFX=$(vq_ifindex "$B" vb)

ip netns exec "$A" ping -q -c 20 -i 0.05 192.0.2.2 >/dev/null
check "ping A -> B" 0 $?

scrape() { curl -s --unix-socket "$VQ_SOCK" http://localhost/metrics; }
rtnl_rx() { ip -n "$B" -s -j link show vb | vq_json 'd[0]["stats64"]["rx"]["bytes"]'; }
series() {	# series FILE NAME LABELS-REGEX: the value of the first matching series
	awk -v n="$2" -v l="$3" 'index($0, n "{") == 1 && $0 ~ l { print $NF; exit }' "$1"
}
r1=$(rtnl_rx)
sleep "$TICK_WAIT_S"
scrape >"$VQ_TMP/m1"
r2=$(rtnl_rx)
promtool check metrics <"$VQ_TMP/m1" >"$VQ_TMP/promtool.out" 2>&1
check "promtool check metrics exit code" 0 $?
[ -s "$VQ_TMP/promtool.out" ] && cat "$VQ_TMP/promtool.out"

lab="device=\"vb\",netns=\"$B\",direction=\"rx\""
m=$(series "$VQ_TMP/m1" vqtune_device_bytes_total "$lab")
check_true "vqtune_device_bytes_total{$lab} = $m > 0" test "${m:-0}" -gt 0
check_true "... and within the rtnl reads [$r1, $r2]" \
	test "${m:-x}" -ge "$r1" -a "${m:-x}" -le "$r2"
pk=$(series "$VQ_TMP/m1" vqtune_device_packets_total "$lab")
check_true "rx packets of vb >= 20 pings ($pk)" test "${pk:-0}" -ge 20
check "vqtune_device_info of vb" 1 "$(series "$VQ_TMP/m1" vqtune_device_info \
	"device=\"vb\",netns=\"$B\",.*ifindex=\"$IFX\",managed=\"1\"")"
ver=$(vq_api GET /v1/status | cut -d' ' -f2- | vq_json 'd["version"]')
check "vqtune_build_info carries the status version" 1 \
	"$(series "$VQ_TMP/m1" vqtune_build_info "version=\"$ver\"")"
check "vqtune_up (documented in vqtuned(8))" 1 \
	"$(awk '$1 == "vqtune_up" { print $2 }' "$VQ_TMP/m1")"
bad=$(awk '$1 == "#" && $2 == "TYPE" && $4 == "counter" && $3 !~ /_total$/ { print $3 }' \
	"$VQ_TMP/m1")
check "counter families not ending in _total" "" "$bad"
check_true "at least 5 counter families" \
	test "$(awk '$2 == "TYPE" && $4 == "counter"' "$VQ_TMP/m1" | wc -l)" -ge 5
t1=$(awk '$1 == "vqtune_ticks_total" { print $2 }' "$VQ_TMP/m1")
sleep "$TICK_WAIT_S"
t2=$(scrape | awk '$1 == "vqtune_ticks_total" { print $2 }')
check_true "vqtune_ticks_total grows between scrapes ($t1 -> $t2)" test "${t2:-0}" -gt "${t1:-0}"
# the tick's cost by part: every part named once; rtnl-stats (a dump per namespace and tick)
# and netdev took time; the parts add up to no more than the ticks' wall time
parts=$(awk -F'"' '/^vqtune_tick_part_seconds_total\{/ { print $2 }' "$VQ_TMP/m1" | sort | xargs)
check "vqtune_tick_part_seconds_total parts (vqtuned(8) TICK COST)" \
	"bql control ethtool ethtool-stats knob-writes netdev outside-check qdisc rtnl-links \
rtnl-stats sysfs-queues vqpair" "$parts"
part() { series "$VQ_TMP/m1" vqtune_tick_part_seconds_total "part=\"$1\""; }
check_true "rtnl-stats took time ($(part rtnl-stats) s)" awk -v v="$(part rtnl-stats)" \
	'BEGIN { exit !(v > 0) }'
check_true "netdev took time ($(part netdev) s)" awk -v v="$(part netdev)" 'BEGIN { exit !(v > 0) }'
sum=$(awk '/^vqtune_tick_part_seconds_total\{/ { s += $NF } END { printf "%.9f", s }' "$VQ_TMP/m1")
wall=$(awk '$1 == "vqtune_tick_seconds_total" { print $2 }' "$VQ_TMP/m1")
check_true "the parts ($sum s) within the ticks' wall time ($wall s)" awk -v s="$sum" -v w="$wall" \
	'BEGIN { exit !(s > 0 && s <= w) }'
# /v1/status carries the same parts, in ns
sp=$(vq_api GET /v1/status | cut -d' ' -f2- | vq_json '" ".join(sorted(d["tick_parts_ns"]))')
check "/v1/status tick_parts_ns names the same parts" "$parts" "$sp"
check_true "/v1/status tick_wall_ns > 0" test "$(vq_api GET /v1/status | cut -d' ' -f2- |
	vq_json 'd["tick_wall_ns"]')" -gt 0

# TCP, no token file: reads yes, writes 403
T=http://127.0.0.1:$VQ_PORT
pid=$(curl -s -m 5 "$T/v1/status" | vq_json 'd["pid"]')
check "GET /v1/status over TCP answered by our daemon (pid)" "$VQ_DPID" "$pid"
check "GET /metrics over TCP" 200 \
	"$(curl -s -m 5 -o "$VQ_TMP/m_tcp" -w '%{http_code}' "$T/metrics")"
check_true "TCP /metrics has vqtune_ticks_total" grep -q '^vqtune_ticks_total ' "$VQ_TMP/m_tcp"
put() {	# put BASE [TOKEN]: status of a defer-hard-irqs write on vb over TCP
	local h=()
	[ -n "${2-}" ] && h=(-H "Authorization: Bearer $2")
	curl -s -m 5 -o "$VQ_TMP/put.out" -w '%{http_code}' -X PUT "${h[@]}" \
		-H 'Content-Type: application/json' --data '{"value":6}' \
		"$1/v1/devices/$B:vb/knobs/defer-hard-irqs"
}
orig=$(vq_napi "$B" "$IFX" defer_hard_irqs)
check "PUT over TCP without a token file" 403 "$(put "$T")"
check "... error code" forbidden "$(vq_json 'd["error"]["code"]' <"$VQ_TMP/put.out")"
check "PUT over TCP with a token but no token file" 403 "$(put "$T" "$TOKEN")"
check "kernel value unchanged" "$orig" "$(vq_napi "$B" "$IFX" defer_hard_irqs)"
vq_daemon_stop
check "daemon exit status on SIGTERM" 0 $?

# TCP with a token file
printf '%s\n' "$TOKEN" >"$VQ_TMP/token"
chmod 600 "$VQ_TMP/token"
vq_daemon_tcp --netns "$A" --netns "$B" --interval 100 --token-file "$VQ_TMP/token" ||
	{ echo "FAIL: no daemon with a token file"; exit $KSFT_FAIL; }
T=http://127.0.0.1:$VQ_PORT
check "GET /v1/status over TCP answered by the new daemon (pid)" "$VQ_DPID" \
	"$(curl -s -m 5 "$T/v1/status" | vq_json 'd["pid"]')"
check "PUT over TCP with a wrong token" 401 "$(put "$T" "wrong-$TOKEN")"
check "... error code" unauthorized "$(vq_json 'd["error"]["code"]' <"$VQ_TMP/put.out")"
check "PUT over TCP with no token" 401 "$(put "$T")"
check "kernel value unchanged" "$orig" "$(vq_napi "$B" "$IFX" defer_hard_irqs)"
# vqtunectl says which option sends the token, and which token -T's file must hold
"$VQTUNECTL" -H "$T" set "$B:vb" defer-hard-irqs 6 2> "$VQ_TMP/ctl.err"
check "vqtunectl set over TCP with no token: exit 1" 1 $?
check "... names -T" "vqtunectl: writes on this listener need a bearer token: send the token \
of vqtuned's --token-file with -T FILE (unauthorized)" "$(cat "$VQ_TMP/ctl.err")"
printf 'wrong-%s\n' "$TOKEN" > "$VQ_TMP/wrong"
chmod 600 "$VQ_TMP/wrong"
"$VQTUNECTL" -H "$T" -T "$VQ_TMP/wrong" set "$B:vb" defer-hard-irqs 6 2> "$VQ_TMP/ctl.err"
check "vqtunectl set over TCP with a wrong token: exit 1" 1 $?
check "... says which token -T's file must hold" "vqtunectl: bearer token does not match: the \
file of -T must hold the token of vqtuned's --token-file (unauthorized)" "$(cat "$VQ_TMP/ctl.err")"
check "kernel value unchanged" "$orig" "$(vq_napi "$B" "$IFX" defer_hard_irqs)"
check "PUT over TCP with the right token" 200 "$(put "$T" "$TOKEN")"
check "kernel value written" 6 "$(vq_napi "$B" "$IFX" defer_hard_irqs)"
vq_ctl restore >/dev/null
check "restore exit code" 0 $?
check "kernel value restored" "$orig" "$(vq_napi "$B" "$IFX" defer_hard_irqs)"
vq_done
