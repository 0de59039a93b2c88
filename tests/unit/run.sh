#!/bin/bash
# Runs every cmocka test binary given; prints a closing "N passed, N failed" over all tests.
set -u
pass=0 fail=0
for t in "$@"; do
	out=$("$t" 2>&1); rc=$?
	printf '%s\n' "$out"
	p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -1)
	f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -1)
	pass=$((pass + ${p:-0})); fail=$((fail + ${f:-0}))
	if [ "$rc" -ne 0 ] && [ -z "$f" ]; then fail=$((fail + 1)); echo "FAIL: $t exited $rc"; fi
done
echo "unit: $pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
