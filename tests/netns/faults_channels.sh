#!/bin/bash
# Queue counts that change under traffic: `ethtool -L vb rx 1 tx 1` and back to 2 during an
# iperf3 run, with /queues sampled every ~100 ms throughout. No rate may be negative or a
# spike (more than SPIKE_X times the highest rate of the second before the first change,
# the signature of a counter reset or a generation mix-up); the generation grows by exactly
# one per change, the queue count goes 2 -> 1 -> 2, and the interval across each change
# carries no rate (valid:false) or shows the new queue count. Then a tun device: channels
# that the driver reports but cannot set are listed read-only and refused with a 4xx.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/lib_extra.sh"
vq_init
QUEUES=2
TRAFFIC_S=8		# iperf3 run; the two changes happen well inside it
WARMUP_S=1.5		# before sampling: the TCP stream reaches a steady rate
BASE_MS=1500		# sampling before the first change (>= the 1 s spike baseline)
HOLD_MS=2000		# time spent with one queue before going back to two
TAIL_MS=2000		# sampling after the second change
SAMPLE_S=0.1		# sampling period asked for (one daemon tick)
SPIKE_X=3		# a rate above 3x the pre-change peak is a spike
MIN_SAMPLES=20		# of ~55 asked for: curl alone takes ~100 ms when the machine is busy
MIN_BASE=3		# samples in the baseline second, for its peak to mean something
RATE=200M		# iperf3 bit/s cap: steady traffic that leaves CPU for the sampler
PORT=$((20000 + $$ % 20000))
A=$(vq_netns a) && B=$(vq_netns b) || exit $KSFT_FAIL
vq_veth "$A" va "$B" vb "$QUEUES" || exit $KSFT_FAIL
vq_daemon --netns "$A" --netns "$B" --interval 100 || exit $KSFT_FAIL

ip netns exec "$B" iperf3 -s -1 -p "$PORT" >"$VQ_TMP/iperf_s.log" 2>&1 &
SRV=$!
VQ_PIDS+=("$SRV")
sleep 0.5
ip netns exec "$A" iperf3 -c 192.0.2.2 -p "$PORT" -t "$TRAFFIC_S" -b "$RATE" \
	>"$VQ_TMP/iperf_c.log" 2>&1 &
CLI=$!
VQ_PIDS+=("$CLI")
sleep "$WARMUP_S"

mkdir "$VQ_TMP/q"
# NOW in ms from bash's own clock, and a sleep on a private fifo: no fork but curl's per
# sample, so the sampler keeps its period on a loaded 2-core machine
now_ms() { local t=${EPOCHREALTIME/[.,]/}; NOW=$((t / 1000)); }
mkfifo "$VQ_TMP/tick"
exec {TICK_FD}<>"$VQ_TMP/tick"
now_ms; t1=$((NOW + BASE_MS)); t2=$((t1 + HOLD_MS)); tend=$((t2 + TAIL_MS))
i=0 step=0
while now_ms; [ "$NOW" -lt "$tend" ]; do
	i=$((i + 1))
	curl -s -m 2 --unix-socket "$VQ_SOCK" "http://localhost/v1/devices/$B:vb/queues" \
		>"$VQ_TMP/q/$i.json"
	echo "$i $NOW" >>"$VQ_TMP/q/index"	# when the sample was asked for
	now_ms
	if [ $step -eq 0 ] && [ "$NOW" -ge "$t1" ]; then
		ip netns exec "$B" ethtool -L vb rx 1 tx 1
		check "ethtool -L vb rx 1 tx 1" 0 $?
		now_ms; echo "$NOW" >"$VQ_TMP/q/change1"
		step=1
	elif [ $step -eq 1 ] && [ "$NOW" -ge "$t2" ]; then
		ip netns exec "$B" ethtool -L vb rx "$QUEUES" tx "$QUEUES"
		check "ethtool -L vb rx $QUEUES tx $QUEUES" 0 $?
		now_ms; echo "$NOW" >"$VQ_TMP/q/change2"
		step=2
	fi
	read -r -t "$SAMPLE_S" -u "$TICK_FD"
done
exec {TICK_FD}>&-
kill "$CLI" "$SRV" 2>/dev/null
wait "$CLI" "$SRV" 2>/dev/null
check "both channel changes made" 2 "$step"
# triage aid: the daemon counts queues in its private sysfs mounts of A and B; 1 instead
# of 3 here means they were taken away (e.g. by another vqtuned instance that exited)
n_sysfs=$(grep -c ' - sysfs ' "/proc/$VQ_DPID/mountinfo")
vq_log "sysfs mounts in vqtuned's mount namespace: $n_sysfs"
check_true "daemon alive and /healthz 200 after the changes" vq_healthy

python3 - "$VQ_TMP/q" "$SPIKE_X" >"$VQ_TMP/verdict" <<'EOF'
import json, os, sys
qdir, spike_x = sys.argv[1], float(sys.argv[2])
c1 = int(open(os.path.join(qdir, "change1")).read())
c2 = int(open(os.path.join(qdir, "change2")).read())
samples = []
for line in open(os.path.join(qdir, "index")):
    i, ts = line.split()
    try:
        d = json.load(open(os.path.join(qdir, i + ".json")))
    except ValueError:
        continue
    samples.append((int(ts), d))

def rates(d):
    """(key, value) of every rate in one sample; None (no rate) skipped."""
    for k, v in (d["totals"].get("rates") or {}).items():
        if v is not None:
            yield "totals." + k, v
    for q in d["queues"]:
        for k, v in (q.get("rates") or {}).items():
            if v is not None:
                yield "%s%d.%s" % (q["direction"], q["queue"], k), v

def rxq(d):
    return sum(1 for q in d["queues"] if q["direction"] == "rx")

def invalid(d):
    return d.get("valid") is False or any(
        q.get("valid") is False for q in d["queues"] if q.get("source") != "none")

print("samples", len(samples))
neg = [(ts, k, v) for ts, d in samples for k, v in rates(d) if v < 0]
print("negative", len(neg), neg[:3])
base = {}
for ts, d in samples:
    if c1 - 1000 <= ts < c1:
        for k, v in rates(d):
            base[k] = max(base.get(k, 0.0), v)
print("baseline_samples", sum(1 for ts, _ in samples if c1 - 1000 <= ts < c1))
print("baseline_rx_bytes_per_s", int(base.get("totals.rx_bytes_per_s", 0)))
spikes = [(ts - c1, k, v, base[k]) for ts, d in samples if ts >= c1 for k, v in rates(d)
          if base.get(k, 0) > 0 and v > spike_x * base[k]]
print("spikes", len(spikes), spikes[:3])
gens = [d["generation"] for _, d in samples]
print("generation_growth", gens[-1] - gens[0])
seq = []
for _, d in samples:
    if not seq or seq[-1] != rxq(d):
        seq.append(rxq(d))
print("rx_queue_counts", "->".join(map(str, seq)))
for name, c in (("change1", c1), ("change2", c2)):
    before = [d for ts, d in samples if ts < c]
    after = [d for ts, d in samples if c <= ts < c + 1000]
    prev = rxq(before[-1]) if before else None
    marked = sum(1 for d in after if invalid(d) or rxq(d) != prev)
    print(name + "_after", [(ts - c, d["generation"], rxq(d), d.get("valid"),
                             [q.get("valid") for q in d["queues"] if q.get("source") != "none"])
                            for ts, d in samples if c - 300 <= ts < c + 1000])
    print(name + "_marked", "yes" if marked else "no")
EOF
vq_log "$(tr '\n' ';' <"$VQ_TMP/verdict")"
v() { awk -v k="$1" '$1 == k { $1 = ""; sub(/^ /, ""); print; exit }' "$VQ_TMP/verdict"; }
check_true "at least $MIN_SAMPLES samples ($(v samples))" test "$(v samples)" -ge "$MIN_SAMPLES"
check_true "at least $MIN_BASE samples in the 1 s baseline ($(v baseline_samples))" \
	test "$(v baseline_samples)" -ge "$MIN_BASE"
check_true "traffic seen before the change ($(v baseline_rx_bytes_per_s) B/s)" \
	test "$(v baseline_rx_bytes_per_s)" -gt 0
check "no negative rate" "0 []" "$(v negative)"
check "no rate above ${SPIKE_X}x the pre-change peak" "0 []" "$(v spikes)"
check "generation grows by 2 over the two changes" 2 "$(v generation_growth)"
check "rx queue count in the JSON" "2->1->2" "$(v rx_queue_counts)"
check "interval across change 1 invalid or recounted" yes "$(v change1_marked)"
check "interval across change 2 invalid or recounted" yes "$(v change2_marked)"

# A driver that reports channels but cannot set them (tun: .get_channels, no .set_channels,
# drivers/net/tun.c; vqpair is the same), standing in for vqpair, whose module this host
# cannot load. Its combined-channels is listed read-only with the reason, and a write is a
# 4xx naming the knob and the reason, not the kernel's 502, with or without consent.
ip -n "$B" tuntap add tp0 mode tap || exit $KSFT_FAIL
vq_wait_code 200 GET "/v1/devices/$B:tp0" 5 >/dev/null
knob() {
	vq_api GET "/v1/devices/$B:$1" | cut -d' ' -f2- |
		vq_json "[(k['writable'], k.get('read_only_reason')) for k in d['knobs'] if k['name'] == '$2']"
}
REASON='the tun driver cannot change its channel counts (no ethtool set_channels)'
check "tp0 combined-channels: not writable, with the reason" "[(False, '$REASON')]" \
	"$(knob tp0 combined-channels)"
check "vb rx-channels (veth has set_channels): writable, no reason" "[(True, None)]" \
	"$(knob vb rx-channels)"
vq_ctl knobs "$B:tp0" >"$VQ_TMP/knobs"
check_true "vqtunectl knobs: combined-channels flagged ro ($(grep combined "$VQ_TMP/knobs" | head -1))" \
	grep -Eq '^combined-channels .* disruptive,ro$' "$VQ_TMP/knobs"
check_true "vqtunectl knobs: the reason under the table" \
	grep -qxF "  ro: combined-channels: $REASON" "$VQ_TMP/knobs"
ev0=$(vq_api GET /v1/status | cut -d' ' -f2- | vq_json 'd["events"]')
for body in '{"value":1,"disruptive":true}' '{"value":1}'; do
	out=$(vq_api PUT "/v1/devices/$B:tp0/knobs/combined-channels" "$body")
	check "PUT $body on tp0 combined-channels: status" 422 "${out%% *}"
	check "... error code, field and message" \
		"unsupported|knob|combined-channels is not writable on tp0: $REASON" \
		"$(cut -d' ' -f2- <<<"$out" |
			vq_json 'd["error"]["code"] + "|" + d["error"]["field"] + "|" + d["error"]["message"]')"
done
vq_ctl set "$B:tp0" combined-channels 1 --disruptive >/dev/null 2>"$VQ_TMP/err"
check "vqtunectl set of it: exit code (1: the server refused)" 1 $?
check_true "... stderr names the knob and the reason ($(cat "$VQ_TMP/err"))" \
	grep -qF "combined-channels is not writable on tp0: $REASON (unsupported, field knob)" \
	"$VQ_TMP/err"
check "no event journalled for the refused writes" "$ev0" \
	"$(vq_api GET /v1/status | cut -d' ' -f2- | vq_json 'd["events"]')"
vq_done
