# SPDX-License-Identifier: GPL-2.0
#
# twheel: `make` builds the modules against KDIR (this machine's kernel
# headers when present, else the project's test kernel); `make demo` and
# `make check` run everything in QEMU. Kbuild holds the object lists.

HOST_KDIR := /lib/modules/$(shell uname -r)/build
ifeq ($(origin KDIR),undefined)
ifneq ($(wildcard $(HOST_KDIR)/Makefile),)
KDIR := $(HOST_KDIR)
endif
endif

.PHONY: all modules clean check demo kernel kunit shell compare stress

all: modules

modules:
ifneq ($(KDIR),)
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules
else
	@echo "no $(HOST_KDIR): building against the twheel test kernel"
	KDIR=$$(scripts/build-kernel.sh test) && \
		$(MAKE) -C "$$KDIR" M=$(CURDIR) modules
endif

clean:
	rm -rf *.o *.ko *.mod *.mod.c .*.cmd modules.order Module.symvers \
		kunit/*.o kunit/.*.cmd engines/*.o engines/.*.cmd .tmp_versions

# Everything: packages, builds (W=1, sparse, Debian 6.1 and 6.12 headers),
# checkpatch, KUnit in QEMU, the module in a booted guest.
check:
	scripts/check.sh

# Boot QEMU, load twheel, show /sys/kernel/debug/twheel, unload.
demo:
	scripts/demo.sh

# One boot, every workload on every engine and the kernel's timers: a
# markdown table, CSV and a plot in results/ (a benchmark, not a test).
compare:
	scripts/compare.sh

kernel:
	scripts/build-kernel.sh test

kunit:
	scripts/kunit.sh

# An interactive guest with twheel loaded.
shell:
	scripts/qemu.sh

# The debug kernel (scripts/debug.config), 2 CPUs: scripts/guest/stress.sh
# at full length. make check runs it with reduced counts.
STRESS_ROUNDS ?= 20
STRESS_WRITES ?= 10000
STRESS_COUNT ?= 262144
STRESS_SECS ?= 30
stress:
	scripts/qemu.sh --kernel debug --timeout 5400 -- sh /guest/stress.sh \
		$(STRESS_ROUNDS) $(STRESS_WRITES) $(STRESS_COUNT) $(STRESS_SECS)

# twheel_core.c built in user space (userspace/): the libFuzzer differential
# targets, FUZZ_SECONDS each, and the ns + instructions per op benchmarks
# (bench.sh: a timeout workload; stream.sh: the op stream of the core-cost
# work, Ir per add/del/mod, per empty tick and per fired timer).
FUZZ_SECONDS ?= 60
.PHONY: fuzz bench-user
fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) userspace/fuzz/fuzz.sh

# RATAS=<path to Ratas' timer-wheel.h> adds Ratas' rows to the op stream.
bench-user:
	userspace/bench/bench.sh
	userspace/bench/stream.sh

# A kernel timer trace replayed through every engine in user space
# (userspace/replay/replay.sh): TRACE= text in any of tracefs' (trace, trace_pipe),
# trace-cmd report's or perf script's form, plain, gzip or xz (told by their
# first bytes, whatever the name); by default the trace recorded in the guest
# under TCP traffic (userspace/replay/traces/). REPLAY_HZ=N gives the traced
# machine's HZ (unset, the trace tells it if it can; replay.sh lists the
# other settings).
# TRACE is taken as it is ($(value)) and passed quoted: a path may have
# spaces, quotes, '&', '|' or '$'.
TRACE ?=
.PHONY: replay
replay:
	userspace/replay/replay.sh $(if $(value TRACE),'$(subst ','\'',$(value TRACE))')
