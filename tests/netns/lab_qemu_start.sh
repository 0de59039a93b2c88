#!/bin/bash
# The QEMU lab tells a QEMU that refused to start from a guest that died: QEMU's own error,
# exit 1, one QEMU start (it had read an empty console as "died on TCG's text-patch int3 or
# before /init" and booted the same failing command line again).
# The failure is real and cheap: in a namespace of its own, the lab's host port is held by a
# socket bound without listening. The lab's busy-port check (ss, listeners only) passes it,
# and QEMU's hostfwd bind() fails with EADDRINUSE before any guest code runs. A wrapper
# first in PATH counts QEMU starts and runs the real binary.
# Runs the lab on the 6.1 test kernel (no trixie chroot to build it): fetched here, on the
# host, first, as the namespace has no route to the mirror; then the lab builds vqpair.ko and
# the initramfs as every lab run does (~1 min, under the VM lock) and boots nothing.
source "$(dirname "$0")/lib.sh"
vq_init
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
PORT=9477
# the cheapest test kernel to prepare: bookworm's, built with this machine's own compiler
TAG=6.1
# the lab builds (vqpair.ko, initramfs) before QEMU: generous, within run.sh's 300 s
LAB_TIMEOUT_S=280
# how long the holder gets to bind
HOLD_WAIT_S=10

qemu=$(command -v qemu-system-x86_64) || { echo "SKIP: qemu-system-x86_64 missing"; exit $KSFT_SKIP; }
[ -x "$VQTUNED" ] && [ -x "$VQTUNECTL" ] || { echo "FAIL: build first (make all tools)"; exit 1; }
ns=$(vq_netns lab) || exit 1
"$ROOT/scripts/kernels.sh" fetch "$TAG" > "$VQ_TMP/fetch" 2>&1 ||
	{ tail -5 "$VQ_TMP/fetch"; echo "FAIL: fetching kernel $TAG"; exit 1; }

mkdir -p "$VQ_TMP/bin"
cat > "$VQ_TMP/bin/qemu-system-x86_64" <<SH
#!/bin/sh
echo start >> "$VQ_TMP/starts"
exec "$qemu" "\$@"
SH
chmod +x "$VQ_TMP/bin/qemu-system-x86_64"

# bound, never listening, no SO_REUSEADDR: QEMU's SO_REUSEADDR bind conflicts with it
ip netns exec "$ns" python3 -c '
import socket, sys, time
s = socket.socket()
s.bind(("127.0.0.1", int(sys.argv[1])))
open(sys.argv[2], "w").close()
time.sleep(3600)' "$PORT" "$VQ_TMP/held" &
VQ_PIDS+=($!)
for _ in $(seq $((HOLD_WAIT_S * 10))); do [ -e "$VQ_TMP/held" ] && break; sleep 0.1; done
check "port $PORT held" "yes" "$([ -e "$VQ_TMP/held" ] && echo yes)"

ip netns exec "$ns" env PATH="$VQ_TMP/bin:$PATH" LAB_MODE=vm LAB_KERNEL=$TAG LAB_PORT=$PORT \
	timeout "$LAB_TIMEOUT_S" "$ROOT/scripts/lab_run.sh" > "$VQ_TMP/out" 2>&1 < /dev/null
rc=$?
sed 's/^/#   | /' "$VQ_TMP/out" | tail -15

check "lab exit status" 1 "$rc"
check "QEMU starts" 1 "$(cat "$VQ_TMP/starts" 2>/dev/null | grep -c .)"
check "QEMU's error quoted" \
	"lab: QEMU did not start (exit status 1): qemu-system-x86_64: -netdev user,id=vqu0,hostfwd=tcp:127.0.0.1:$PORT-:9477: Could not set up host forwarding rule 'tcp:127.0.0.1:$PORT-:9477'" \
	"$(grep 'QEMU did not start' "$VQ_TMP/out")"
check "the port named" "lab: 127.0.0.1:$PORT is bound by another socket; LAB_PORT=P picks another port" \
	"$(grep 'is bound by another socket' "$VQ_TMP/out")"
check "no second boot" 0 "$(grep -c 'booting again' "$VQ_TMP/out")"
# the lab waits for the guest's first console byte before it says the guest boots
check "no boot banner" 0 "$(grep -c 'guest booting' "$VQ_TMP/out")"
check "no report" 0 "$(grep -c '^lab: results' "$VQ_TMP/out")"
vq_done
