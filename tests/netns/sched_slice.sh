#!/bin/bash
# The daemon's scheduler slice (vqtuned --sched-slice, daemon/slice.h): --sched-slice 100
# asks the kernel for a 100 us slice (EEVDF custom slice, Linux 6.12+), so a request/response
# task woken on its CPU waits about that long behind a tick; by default it asks for none.
# The slice in force, as sched_getattr(2) reads it on the daemon's pid, is what the status
# shows; --sched-slice 0 and the default ask for none (a fresh process keeps the kernel's
# base slice, and the start-up line says it was not asked for); --sched-slice US asks for
# US; its nice value is kept; a bad value is refused by name before anything starts. On a
# kernel before 6.12, which keeps no slice per task, the status shows 0 and the start-up
# line says so.
source "$(dirname "$0")/lib.sh"
vq_init
A=$(vq_netns a) || exit $KSFT_FAIL

# slice_of PID: sched_attr.sched_runtime of PID in ns, as sched_getattr(2) returns it
slice_of() {
	python3 - "$1" <<'PY'
import ctypes, os, sys
class A(ctypes.Structure):
    _fields_ = [("size", ctypes.c_uint32), ("policy", ctypes.c_uint32),
                ("flags", ctypes.c_uint64), ("nice", ctypes.c_int32),
                ("prio", ctypes.c_uint32), ("runtime", ctypes.c_uint64),
                ("deadline", ctypes.c_uint64), ("period", ctypes.c_uint64),
                ("umin", ctypes.c_uint32), ("umax", ctypes.c_uint32)]
a = A()
libc = ctypes.CDLL(None, use_errno=True)
SYS_sched_getattr = 315  # x86_64
if libc.syscall(SYS_sched_getattr, int(sys.argv[1]), ctypes.byref(a), ctypes.sizeof(a), 0):
    sys.exit("sched_getattr: " + os.strerror(ctypes.get_errno()))
print(a.runtime)
PY
}
status_slice() { vq_ctl --json status | vq_json "d['sched_slice_ns']"; }
# kernel_slices: 0 when this kernel keeps a slice per task (6.12+), 1 when not
kernel_slices() {
	python3 - <<'PY'
import os, sys
v = tuple(int(x) for x in os.uname().release.split("-")[0].split(".")[:2])
sys.exit(0 if v >= (6, 12) else 1)
PY
}

# ---- bad values: exit 2, the option named, nothing started ------------------------------
for v in 50 99 100001 0100 -1 '' 1e3 ' 100' +100; do
	out=$("$VQTUNED" -s "$VQ_TMP/bad.sock" -S "$VQ_TMP/bad-state" --sched-slice "$v" 2>&1)
	check "--sched-slice '$v': exit status" 2 $?
	check "--sched-slice '$v': the message" \
		"vqtuned: --sched-slice: '$v' is not 0 (ask for none) or 100..100000 us, digits without a leading zero" \
		"$out"
done
out=$("$VQTUNED" -s "$VQ_TMP/bad.sock" -S "$VQ_TMP/bad-state" -L 200 -L 300 2>&1)
check "--sched-slice twice: exit status" 2 $?
check "--sched-slice twice: the message" \
	"vqtuned: --sched-slice given more than once (one per run; '300' is the second)" "$out"
check_true "no socket left by the refused starts" test ! -e "$VQ_TMP/bad.sock"

if kernel_slices; then
	# ---- 100 us, in the kernel and in the status ----------------------------------
	vq_daemon --netns "$A" --sched-slice 100 || exit $KSFT_FAIL
	check "--sched-slice 100: the kernel's view of the daemon's slice (ns)" 100000 \
		"$(slice_of "$VQ_DPID")"
	check "--sched-slice 100: status sched_slice_ns" 100000 "$(status_slice)"
	check_true "--sched-slice 100: the start-up line names the slice" \
		grep -q "scheduler slice 100 us, API on" "$VQ_TMP/vqtuned.log"
	vq_daemon_stop
	# ---- another slice, and its nice value kept -----------------------------------
	: > "$VQ_TMP/vqtuned.log"
	# started at nice 5, as systemd's Nice= would start it (exec: the pid stays vqtuned's)
	printf '#!/bin/sh\nexec nice -n 5 "%s" "$@"\n' "$VQTUNED" > "$VQ_TMP/nice5"
	chmod +x "$VQ_TMP/nice5"
	saved=$VQTUNED
	VQTUNED=$VQ_TMP/nice5
	vq_daemon --netns "$A" --sched-slice 2500 || exit $KSFT_FAIL
	VQTUNED=$saved
	check "--sched-slice 2500: the kernel's view (ns)" 2500000 "$(slice_of "$VQ_DPID")"
	check "--sched-slice 2500: status" 2500000 "$(status_slice)"
	check "... and nice 5 kept" 5 "$(ps -o ni= -p "$VQ_DPID" | tr -d ' ')"
	vq_daemon_stop
	# ---- 0: the kernel's own slice, not asked for ---------------------------------
	sleep 30 &
	ref=$!
	VQ_PIDS+=("$ref")
	base=$(slice_of $ref)
	vq_daemon --netns "$A" --sched-slice 0 || exit $KSFT_FAIL
	check "--sched-slice 0: the kernel's slice, as a fresh process has it (ns)" "$base" \
		"$(slice_of "$VQ_DPID")"
	check "--sched-slice 0: status shows it" "$base" "$(status_slice)"
	check_true "--sched-slice 0: the start-up line says it was not asked for" \
		grep -q "scheduler slice $((base / 1000)) us (the kernel's own, none asked for), API on" "$VQ_TMP/vqtuned.log"
	check_true "... which is not the 100 us of --sched-slice 100 ($base)" test "$base" != 100000
	vq_daemon_stop
	# ---- the default: none asked for, as 0 -----------------------------------------
	: > "$VQ_TMP/vqtuned.log"
	vq_daemon --netns "$A" || exit $KSFT_FAIL
	check "default: the kernel's slice (ns)" "$base" "$(slice_of "$VQ_DPID")"
	check "default: status shows it" "$base" "$(status_slice)"
	check_true "default: the start-up line says it was not asked for" \
		grep -q "scheduler slice $((base / 1000)) us (the kernel's own, none asked for), API on" "$VQ_TMP/vqtuned.log"
	vq_daemon_stop
	kill $ref
else
	# ---- a kernel that keeps no slice per task: 0, said at start-up --------------------
	vq_daemon --netns "$A" --sched-slice 100 || exit $KSFT_FAIL
	check "before 6.12: status sched_slice_ns" 0 "$(status_slice)"
	check_true "before 6.12: the start-up line says so" \
		grep -q "this kernel keeps no slice per task" "$VQ_TMP/vqtuned.log"
	vq_daemon_stop
fi
vq_done
