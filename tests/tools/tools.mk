# Test tools built from the daemon's providers and its scheduler-slice request. Included by the top Makefile
# (`include tests/tools/tools.mk`); `make tools` builds them into $(BUILD)/tests/tools/.
VQPROBE_OBJS := $(BUILD)/daemon/nl_netdev.o $(BUILD)/daemon/nl_ethtool.o \
		$(BUILD)/daemon/genl.o $(BUILD)/daemon/ethstats.o

$(BUILD)/tests/tools/vqprobe.o: tests/tools/vqprobe.c $(wildcard daemon/*.h include/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(call pkgcflags,libmnl) -c -o $@ $<

$(BUILD)/tests/tools/vqprobe: $(BUILD)/tests/tools/vqprobe.o $(VQPROBE_OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(call pkglibs,libmnl)

# vqslice: daemon/slice.c on another thread (the same-pair bench switches a running vqtuned's
# scheduler slice)
$(BUILD)/tests/tools/vqslice.o: tests/tools/vqslice.c daemon/slice.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/tests/tools/vqslice: $(BUILD)/tests/tools/vqslice.o $(BUILD)/daemon/slice.o
	$(CC) $(LDFLAGS) -o $@ $^

.PHONY: tools
tools: $(BUILD)/tests/tools/vqprobe $(BUILD)/tests/tools/vqslice
