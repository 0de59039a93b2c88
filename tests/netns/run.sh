#!/bin/bash
# The netns integration tier: runs every tests/netns/*.sh (except lib*.sh and this file),
# each in its own namespaces, and prints "netns: N passed, N failed". A skip (exit 4)
# counts as a failure here: every test of this tier can run on this kind of machine.
set -u
cd "$(dirname "$0")"
pass=0 fail=0 failed=()
tests=("$@")
[ ${#tests[@]} -eq 0 ] && tests=($(ls *.sh | grep -vx -e 'lib.*\.sh' -e run.sh))
for t in "${tests[@]}"; do
	echo "=== $t"
	start=$(date +%s)
	timeout 300 bash "./$t"
	rc=$?
	echo "=== $t: exit $rc ($(( $(date +%s) - start )) s)"
	if [ $rc -eq 0 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); failed+=("$t"); fi
done
[ $fail -ne 0 ] && echo "failed: ${failed[*]}"
echo "netns: $pass passed, $fail failed"
[ $fail -eq 0 ]
