#!/bin/bash
# Counters and rates of `vqtunectl queues` against iperf3: a veth pair with GRO on and 2
# channels across two namespaces, iperf3 for 5 s. The bytes the receiver counted over the run,
# and the rate the daemon reports in the steady middle of the run, agree with iperf3's own
# figures within 5%, both summed over the RX queues and in the device totals. veth has no
# qstats; its per-queue `ethtool -S` counters (rx_queue_N_xdp_*) count the packets its NAPI
# handles, and TSO packets bypass that NAPI, so the sender runs with TSO off; with it on,
# the view marks those queues as counting part of the device's traffic (counts_part).
source "$(dirname "$0")/lib.sh"
vq_init
A=$(vq_netns a) && B=$(vq_netns b) || exit $KSFT_FAIL
vq_veth "$A" va "$B" vb 2 || exit $KSFT_FAIL
vq_daemon --netns "$A" --netns "$B" --interval 500 || exit $KSFT_FAIL
TOL_PCT=5
DURATION_S=5
# paced, so the 2-core machine keeps time for the daemon and the sampler: 2 x 1 Gbit/s
STREAM_RATE=1G

ip netns exec "$A" ethtool -K va tso off >/dev/null

# "QUEUES DEVICE" rx bytes (counter or rate) of B:vb from one `vqtunectl --json queues`
rx() {
	vq_ctl --json queues "$B:vb" | vq_json "'%d %d' % (sum(q['$1']['$2'] or 0 for q in d['queues'] if q['direction']=='rx'), d['totals']$3)"
}
rx_bytes() { rx counters bytes "['rx_bytes']"; }
rx_rate() { rx rates bytes_per_s "['rates']['rx_bytes_per_s']"; }
check "RX queue counter source" ethtool "$(vq_ctl --json queues "$B:vb" | vq_json "','.join(sorted(set(q['source'] for q in d['queues'] if q['direction']=='rx')))")"
check "vb has 2 RX queues" 2 "$(vq_ctl --json queues "$B:vb" | vq_json "len([q for q in d['queues'] if q['direction']=='rx'])")"

ip netns exec "$B" iperf3 -s -1 -J >"$VQ_TMP/server.json" 2>&1 &
SRV=$!
VQ_PIDS+=("$SRV")
sleep 0.5
before=$(rx_bytes)
# sample the daemon's view all along the run; each sample carries its CLOCK_MONOTONIC read
# time and interval, so the rates can be integrated over exactly the window iperf3 reports
mkdir "$VQ_TMP/samples"
(
	i=0
	while :; do
		vq_ctl --json queues "$B:vb" >"$VQ_TMP/samples/$i.json"
		i=$((i + 1))
		sleep 0.2
	done
) &
SMP=$!
VQ_PIDS+=("$SMP")
# bash's EPOCHREALTIME costs no fork; convert to the daemon's CLOCK_MONOTONIC afterwards
offset_ns=$(python3 -c 'import time; print(time.time_ns() - time.monotonic_ns())')
t_launch=$EPOCHREALTIME
ip netns exec "$A" iperf3 -c 192.0.2.2 -P 2 -b "$STREAM_RATE" -t "$DURATION_S" -J >"$VQ_TMP/client.json"
check "iperf3 client exit code" 0 $?
sleep 0.7
kill "$SMP"
wait "$SRV"
sleep 1
after=$(rx_bytes)

# window: iperf3's own intervals 1..4 s (after slow start, before the end)
python3 - "$VQ_TMP" "$t_launch" "$offset_ns" >"$VQ_TMP/window" <<'PY'
import glob, json, sys
tmp, t_launch, offset = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
c = json.load(open(tmp + "/client.json"))
iv = [i["sum"] for i in c["intervals"] if i["sum"]["start"] >= 0.99 and i["sum"]["end"] <= 4.01]
w0 = t_launch * 1e9 - offset + iv[0]["start"] * 1e9
w1 = t_launch * 1e9 - offset + iv[-1]["end"] * 1e9
iperf = sum(i["bytes"] for i in iv)
samples = {}
for f in glob.glob(tmp + "/samples/*.json"):
    try:
        j = json.load(open(f))
    except ValueError:
        continue	# the sampler was killed mid-write
    samples[j["queues_sampled_ns"]] = j
def integrate(key_t, key_i, rate):
    got = cov = 0.0
    for j in samples.values():
        s, i = j[key_t], j[key_i]
        r = rate(j)
        if r is None or not i:
            continue
        ov = min(s, w1) - max(s - i, w0)
        if ov > 0:
            got += r * ov / 1e9
            cov += ov
    return got, cov / (w1 - w0)
def qrate(j):
    rs = [q["rates"].get("bytes_per_s") for q in j["queues"] if q["direction"] == "rx"]
    return None if None in rs else sum(rs)
q, qcov = integrate("queues_sampled_ns", "queues_interval_ns", qrate)
d, dcov = integrate("sampled_ns", "interval_ns", lambda j: j["totals"]["rates"]["rx_bytes_per_s"])
print("%d %d %d %.3f %.3f %.3f" % (iperf, q, d, qcov, dcov, (w1 - w0) / 1e9))
PY
read -r w_iperf w_q w_d w_qcov w_dcov w_len <"$VQ_TMP/window"
iperf_bytes=$(vq_json 'd["end"]["sum_received"]["bytes"]' <"$VQ_TMP/client.json")
iperf_rate=$(vq_json 'd["end"]["sum_received"]["bytes"] / d["end"]["sum_received"]["seconds"]' <"$VQ_TMP/client.json")
read -r bq bd <<<"$before"
read -r aq ad <<<"$after"
vq_log "iperf3: $iperf_bytes bytes, $iperf_rate B/s; daemon: RX queues $((aq - bq)) bytes, device $((ad - bd)) bytes"

within() {	# within A B PCT: |A-B| <= PCT% of B
	python3 -c "import sys; a,b,p=map(float,sys.argv[1:]); sys.exit(0 if abs(a-b) <= p/100*b else 1)" "$@"
}
check_true "RX queue byte counters within ${TOL_PCT}% of iperf3's bytes" \
	within "$((aq - bq))" "$iperf_bytes" "$TOL_PCT"
check_true "device RX byte counter within ${TOL_PCT}% of iperf3's bytes" \
	within "$((ad - bd))" "$iperf_bytes" "$TOL_PCT"
vq_log "window of $w_len s: iperf3 $w_iperf bytes; daemon rates integrate to $w_q (queues, coverage $w_qcov) and $w_d (device, coverage $w_dcov)"
check_true "daemon samples cover the window" python3 -c "import sys; sys.exit(0 if min($w_qcov, $w_dcov) >= 0.98 else 1)"
check_true "RX queue rates within ${TOL_PCT}% of iperf3's rate" within "$w_q" "$w_iperf" "$TOL_PCT"
check_true "device RX rate within ${TOL_PCT}% of iperf3's rate" within "$w_d" "$w_iperf" "$TOL_PCT"
check "TSO off: no sample says the RX queues count part of the traffic" 0 \
	"$(grep -l counts_part "$VQ_TMP"/samples/*.json | wc -l)"

# TSO on: TSO'd segments skip veth's NAPI, so its per-queue counters miss them; the view says
# the queues count part of the device's traffic, not that vb receives nothing per queue
ip netns exec "$A" ethtool -K va tso on >/dev/null
ip netns exec "$B" iperf3 -s -1 >/dev/null 2>&1 &
SRV=$!
VQ_PIDS+=("$SRV")
sleep 0.5
ip netns exec "$A" iperf3 -c 192.0.2.2 -P 2 -b "$STREAM_RATE" -t 4 >/dev/null 2>&1 &
CLI=$!
VQ_PIDS+=("$CLI")
sleep 2.5
j=$(vq_ctl --json queues "$B:vb")
check "TSO on, mid-run: the RX queues count part of vb's traffic" "[True] / [None]" \
	"$(vq_json "'%s / %s' % (sorted(set(q.get('counts_part') for q in d['queues'] if q['direction'] == 'rx')),
		sorted(set(q.get('counts_part') for q in d['queues'] if q['direction'] == 'tx')))" <<<"$j")"
check_true "... vqtunectl queues notes it" grep -q "counts part of the device's traffic" \
	<<<"$(vq_ctl queues "$B:vb")"
wait "$CLI"
wait "$SRV"
vq_done
