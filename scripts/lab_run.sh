#!/bin/bash
# `make run`: the self-contained lab, in one of two variants with the same phases and the
# same before/after table:
#   netns  on this host, in network namespaces (scripts/lab_netns.sh): vqpair + veth pairs;
#          for a host whose running kernel loads vqpair.ko
#   vm     in a QEMU guest (scripts/lab_vm.sh): vqpair + virtio_net pairs; any host
# LAB_MODE=auto (default) runs netns when this host can (root, module support, the running
# kernel's build dir /lib/modules/$(uname -r)/build, vqpair.ko builds and loads, vqpair not
# loaded already), else vm, saying why. LAB_MODE=vm or LAB_MODE=netns forces one (netns
# then fails where the host cannot). Other settings (LAB_PHASE_S, LAB_SECONDS, LAB_PORT,
# LAB_POLICY, LAB_KEEP_LOG; LAB_KERNEL for vm, LAB_KO for netns) go to the variant.
# A bad setting is refused by name with exit 2 before anything runs, in the bounds of the
# variant that runs (the shortest LAB_PHASE_S and LAB_SECONDS differ). Exit 3: LAB_MODE=netns
# on a host that cannot run the namespace lab (it says why).
set -u
cd "$(dirname "$0")/.." || exit 1
# shellcheck source=scripts/lab_common.sh
. scripts/lab_common.sh
# shellcheck source=tests/vm/vmlib.sh
. tests/vm/vmlib.sh
# --settings: only check the settings for the variant that would run, and with
# LAB_MODE=netns that this host can run it (exit 3 if not); the Makefile's `run` does so
# before it installs or builds anything
lab_settings_only "$@"
mode=${LAB_MODE:-auto}
why=$(vm_word_ok LAB_MODE "$mode" "auto vm netns") || lab_refuse "$why"
variant=$mode
if [ "$mode" = auto ]; then
	why=$(scripts/lab_netns.sh --check 2>&1) && variant=netns || variant=vm
fi
# the variant's own bounds (its shortest phase and run differ), before anything is said
"scripts/lab_$variant.sh" --settings || exit
# a forced netns lab on a host that cannot run it is refused now (exit 3, saying why), not
# after apt and the build; the compiler, which `make deps` installs, is asked for later
[ "$mode" = netns ] && { scripts/lab_netns.sh --check-host > /dev/null || exit; }
[ $SETTINGS_ONLY = 1 ] && exit 0
case $mode in
vm)	exec scripts/lab_vm.sh ;;
netns)	exec scripts/lab_netns.sh ;;
esac

if [ $variant = netns ]; then
	echo "lab: this host can load vqpair.ko: the lab runs in namespaces here" \
		"(LAB_MODE=vm for the QEMU guest)"
	scripts/lab_netns.sh
	rc=$?
	# 3: the module did not build or load, and nothing was changed: the guest can still run
	[ $rc = 3 ] || exit $rc
	scripts/lab_vm.sh --settings || exit
	echo "lab: the namespace lab cannot run here: the lab runs in a QEMU guest instead"
else
	echo "$why; the lab runs in a QEMU guest (LAB_MODE=vm|netns forces one)"
fi
exec scripts/lab_vm.sh
