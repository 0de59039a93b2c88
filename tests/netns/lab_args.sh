#!/bin/bash
# The lab refuses a bad LAB_PHASE_S, LAB_SECONDS or LAB_PORT by name, before it fetches,
# builds or boots anything (LAB_PHASE_S=0 had been taken: iperf3 -t 0 never ends, and the
# lab sat in its first phase until the cap; "abc" ended on a shell "unbound variable").
# LAB_MODE=vm: the checks come before the VM variant's kernel fetch, whatever the host.
source "$(dirname "$0")/lib.sh"
vq_init
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
# a refusal comes at once; a run that got past the checks would still be fetching
LAB_REFUSE_TIMEOUT_S=30

refused() {
	env "$1" LAB_MODE=vm timeout "$LAB_REFUSE_TIMEOUT_S" "$ROOT/scripts/lab_run.sh" \
		> "$VQ_TMP/out" 2>&1
	echo "$? $(head -1 "$VQ_TMP/out")"
}

check "LAB_PHASE_S=0" "1 lab: LAB_PHASE_S must be a whole number in 3..3600 (seconds), not '0'" \
	"$(refused LAB_PHASE_S=0)"
check "LAB_PHASE_S=abc" \
	"1 lab: LAB_PHASE_S must be a whole number in 3..3600 (seconds), not 'abc'" \
	"$(refused LAB_PHASE_S=abc)"
check "LAB_SECONDS=-5" \
	"1 lab: LAB_SECONDS must be a whole number in 1..604800 (seconds), not '-5'" \
	"$(refused LAB_SECONDS=-5)"
check "LAB_PORT=abc" "1 lab: LAB_PORT must be a whole number in 1..65535 (a TCP port), not 'abc'" \
	"$(refused LAB_PORT=abc)"
check "LAB_PORT=70000" \
	"1 lab: LAB_PORT must be a whole number in 1..65535 (a TCP port), not '70000'" \
	"$(refused LAB_PORT=70000)"
vq_done
