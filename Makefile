# vqtune: one entry point. See README.md.
#   make deps      install the Debian packages the build and tests need (apt, as root)
#   make all       build vqtuned and vqtunectl into build/
#   make check     deps + build + every test tier (unit, netns, vm)
#   make run       deps + build + the self-contained lab (scripts/lab_run.sh): in network
#                  namespaces on this host when its kernel loads vqpair.ko (vqpair + veth,
#                  scripts/lab_netns.sh), else in a QEMU guest (vqpair + virtio_net,
#                  scripts/lab_vm.sh); LAB_MODE=vm|netns forces one
#   make run-netns deps + build + the earlier veth-only namespace lab, no module (scripts/lab.sh)
#   make bench     deps + build + benchmarks (prints figures)
#   make install   install binaries, unit files, policies, man pages (DESTDIR, PREFIX)

PREFIX		?= /usr/local
SBINDIR		?= $(PREFIX)/sbin
BINDIR		?= $(PREFIX)/bin
MANDIR		?= $(PREFIX)/share/man
DATADIR		?= $(PREFIX)/share/vqtune
UNITDIR		?= /lib/systemd/system
SYSUSERSDIR	?= /usr/lib/sysusers.d
TMPFILESDIR	?= /usr/lib/tmpfiles.d
# where iproute2 looks for link_<kind>.so (its LIBDIR/ip; IP_LIB_DIR overrides at run time)
IPLIBDIR	?= /usr/lib/ip
BUILD		?= build

CC		?= cc
PKG_CONFIG	?= pkg-config
CFLAGS		?= -O2 -g
CFLAGS		+= -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -Iinclude -Idaemon

DAEMON_PKGS	:= libnl-3.0 libnl-route-3.0 libmnl jansson libmicrohttpd
CTL_PKGS	:= libcurl jansson
pkgcflags	= $(shell $(PKG_CONFIG) --cflags $(1) 2>/dev/null)
pkglibs		= $(shell $(PKG_CONFIG) --libs $(1) 2>/dev/null)

DAEMON_SRCS	:= $(wildcard daemon/*.c)
DAEMON_OBJS	:= $(DAEMON_SRCS:%.c=$(BUILD)/%.o)
# everything but main(): what unit tests may link against
DAEMON_LIB_OBJS	:= $(filter-out $(BUILD)/daemon/main.o,$(DAEMON_OBJS))
CTL_SRCS	:= $(wildcard ctl/*.c)
CTL_OBJS	:= $(CTL_SRCS:%.c=$(BUILD)/%.o)

.PHONY: all deps check check-unit check-netns check-vm check-lab run run-netns bench install \
	clean kmod
all: $(BUILD)/vqtuned $(BUILD)/vqtunectl $(BUILD)/ip/link_vqpair.so

# iproute2 plugin: `ip link add ... type vqpair peer name X` (kmod/iproute2/link_vqpair.c)
$(BUILD)/ip/link_vqpair.so: kmod/iproute2/link_vqpair.c include/vqpair.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -fPIC -shared -o $@ $<

deps:
	@scripts/deps.sh

$(BUILD)/daemon/%.o: daemon/%.c $(wildcard daemon/*.h include/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(call pkgcflags,$(DAEMON_PKGS)) -c -o $@ $<

$(BUILD)/ctl/%.o: ctl/%.c $(wildcard ctl/*.h daemon/*.h include/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(call pkgcflags,$(CTL_PKGS)) -c -o $@ $<

$(BUILD)/vqtuned: $(DAEMON_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(call pkglibs,$(DAEMON_PKGS)) -lm

# the CLI names a bad policy file in the daemon's words (apierr_json_text_fault()), at the
# daemon's place in it (policy_text_pos()), and reads a token file by the daemon's rule
# (token_read())
$(BUILD)/vqtunectl: $(CTL_OBJS) $(BUILD)/daemon/apierr.o $(BUILD)/daemon/util.o \
		    $(BUILD)/daemon/token.o $(BUILD)/daemon/policy_pos.o
	$(CC) $(LDFLAGS) -o $@ $^ $(call pkglibs,$(CTL_PKGS)) -lm

# ---- unit tests (cmocka). tests/unit/unit.mk lists each test and what it links.
UNIT_TESTS :=
include tests/unit/unit.mk
define unit_rule
$(BUILD)/tests/test_$(1).o: tests/unit/test_$(1).c $(wildcard daemon/*.h ctl/*.h include/*.h tests/unit/*.h)
	@mkdir -p $$(dir $$@)
	$$(CC) $$(CFLAGS) $$(call pkgcflags,$$(DAEMON_PKGS) cmocka) -Wno-unused-parameter -c -o $$@ $$<
$(BUILD)/tests/test_$(1): $(BUILD)/tests/test_$(1).o $$(test_$(1)_OBJS:%.c=$(BUILD)/%.o)
	$$(CC) $$(LDFLAGS) -o $$@ $$^ $$(call pkglibs,$$(DAEMON_PKGS) cmocka $$(test_$(1)_PKGS)) -lm
endef
# helpers that only tests link (fakes of a module's neighbours)
$(BUILD)/tests/unit/%.o: tests/unit/%.c $(wildcard daemon/*.h include/*.h tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(call pkgcflags,$(DAEMON_PKGS)) -c -o $@ $<
$(foreach t,$(UNIT_TESTS),$(eval $(call unit_rule,$(t))))
UNIT_BINS := $(UNIT_TESTS:%=$(BUILD)/tests/test_%)

check-unit: $(UNIT_BINS)
	@tests/unit/run.sh $(UNIT_BINS)

# test tools built from the daemon's providers (vqprobe)
include tests/tools/tools.mk

check-netns: all tools
	@tests/netns/run.sh

# The VM tier (module tests in QEMU guests) is defined in kmod/kmod.mk when present.
-include kmod/kmod.mk

check: deps
	$(MAKE) all
	$(MAKE) check-unit
	$(MAKE) check-netns
	$(MAKE) check-vm
	$(MAKE) check-lab

# The lab (scripts/lab_run.sh picks the variant, LAB_MODE=auto|vm|netns): on a host that
# loads vqpair.ko it builds the module for the running kernel and runs in namespaces here;
# else it boots the newest test kernel (LAB_KERNEL overrides), fetching it and building
# vqpair.ko for it on first use. vqprobe (tools) is the lab's independent NAPI reader. The
# LAB_* settings are checked first: a bad one is refused (exit 2) before apt or a build.
run:
	@VQ_KERNELS="$(VQ_KERNELS)" scripts/lab_run.sh --settings
	$(MAKE) deps
	$(MAKE) all tools kmod-spec-check
	VQ_KERNELS="$(VQ_KERNELS)" scripts/lab_run.sh

run-netns: deps
	$(MAKE) all
	scripts/lab.sh

# `make run` end to end with short phases: table filled, API through the port forward,
# token writes, knobs restored (tests/vm/lab_test.sh)
check-lab: all tools kmod-spec-check
	@VQ_KERNELS="$(VQ_KERNELS)" tests/vm/lab_test.sh

bench: deps
	$(MAKE) all
	tests/bench/run.sh
	$(MAKE) bench-vm
	$(MAKE) bench-scen
	$(MAKE) bench-rrpair

install: all
	install -d $(DESTDIR)$(SBINDIR) $(DESTDIR)$(BINDIR) $(DESTDIR)$(DATADIR)/policies \
		$(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(UNITDIR) $(DESTDIR)$(SYSUSERSDIR) \
		$(DESTDIR)$(TMPFILESDIR)
	install -m 0755 $(BUILD)/vqtuned $(DESTDIR)$(SBINDIR)/vqtuned
	install -m 0755 $(BUILD)/vqtunectl $(DESTDIR)$(BINDIR)/vqtunectl
	install -d $(DESTDIR)$(IPLIBDIR)
	install -m 0644 $(BUILD)/ip/link_vqpair.so $(DESTDIR)$(IPLIBDIR)/link_vqpair.so
	install -m 0644 policies/*.json $(DESTDIR)$(DATADIR)/policies/
	install -m 0644 docs/*.8 $(DESTDIR)$(MANDIR)/man8/
	sed -e 's|@SBINDIR@|$(SBINDIR)|g' -e 's|@DATADIR@|$(DATADIR)|g' \
		systemd/vqtuned.service.in > $(BUILD)/vqtuned.service
	install -m 0644 $(BUILD)/vqtuned.service $(DESTDIR)$(UNITDIR)/vqtuned.service
	install -m 0644 systemd/vqtune.sysusers $(DESTDIR)$(SYSUSERSDIR)/vqtune.conf
	install -m 0644 systemd/vqtune.tmpfiles $(DESTDIR)$(TMPFILESDIR)/vqtune.conf

clean:
	rm -rf $(BUILD)
