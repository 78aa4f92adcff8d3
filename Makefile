# SPDX-License-Identifier: GPL-2.0
#
# twheel: `make` builds the modules against KDIR (this machine's kernel
# headers unless told otherwise; without them it stops and says which
# package to install); `make modules-test` builds them for the QEMU test
# kernel; `make demo` and `make check` run everything in QEMU. Kbuild holds
# the object lists. `make help` lists every target.

KREL := $(shell uname -r)
HOST_KDIR := /lib/modules/$(KREL)/build
KDIR ?= $(HOST_KDIR)
# What `make` says, in one line, when it has no kernel tree to build against.
ifeq ($(KDIR),$(HOST_KDIR))
NO_KDIR := twheel: no headers for the running kernel $(KREL) ($(HOST_KDIR) is missing): \
	install linux-headers-$(KREL) (Debian/Ubuntu) or kernel-devel (Fedora), or point KDIR at a \
	kernel tree: make KDIR=/path/to/build (make modules-test builds for the QEMU test kernel)
else
NO_KDIR := twheel: KDIR=$(KDIR) is not a kernel build tree (no $(KDIR)/Makefile): point KDIR at \
	one (make KDIR=/path/to/build), or leave KDIR out to build for the running kernel
endif

.PHONY: all modules modules-test load help clean check demo kernel kunit shell compare stress

all: modules

modules:
	$(if $(wildcard $(KDIR)/Makefile),,$(error $(NO_KDIR)))
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

# The same modules for the project's QEMU test kernel (built once into the
# cache, see scripts/build-kernel.sh), in the checkout.
modules-test:
	KDIR=$$(scripts/build-kernel.sh test) && \
		$(MAKE) -C "$$KDIR" M=$(CURDIR) modules

# Build for the running kernel and insmod twheel.ko with PARAMS (root):
# refuses first, saying why and the way out, under kernel lockdown (Secure
# Boot), and says how to mount debugfs when it is not.
PARAMS ?=
load: modules
	scripts/load.sh $(PARAMS)

help:
	@echo 'make                 build twheel.ko for the running kernel (KDIR=/path/to/build for another tree)'
	@echo 'make modules-test    build the modules for the QEMU test kernel (built once into ~/.cache/twheel)'
	@echo 'make load PARAMS=..  build for the running kernel and insmod (root; says why when it cannot load)'
	@echo 'make clean           remove the build products from the checkout'
	@echo 'make demo            boot QEMU, run workloads on both wheels, show the stats (CLOCK=wall|icount)'
	@echo 'make shell           a QEMU guest shell with twheel loaded'
	@echo 'make check           every test, ending "N passed, N failed"'
	@echo 'make compare         every workload on every runner in one QEMU boot, into results/ (CLOCK=wall|icount, REPS=5)'
	@echo 'make kernel          build the QEMU test kernel'
	@echo 'make kunit           the KUnit suites in QEMU'
	@echo 'make stress          the stress test at full length on the debug kernel'
	@echo 'make fuzz            the user-space fuzzers, FUZZ_SECONDS each'
	@echo 'make bench-user      the user-space benchmarks, a representative subset (3 min measured, 2 busy cores)'
	@echo '                     FULL=1: every engine, 1k to 1M timers (about 50 min, estimated from partial runs)'
	@echo 'make replay TRACE=f  a kernel timer trace through every engine, ARGS= its options (scripts/record-trace.sh --host records one)'
	@echo 'make help            this list'

# Through kbuild when there is a kernel tree to ask (it knows every folder
# the objects went to); else the same by hand, folder by folder.
TW_DIRS := . engines runner driver shadow readout kunit
clean:
ifneq ($(wildcard $(KDIR)/Makefile),)
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean
else
	rm -rf modules.order Module.symvers .tmp_versions gen \
		$(foreach d,$(TW_DIRS),$(d)/*.o $(d)/.*.cmd $(d)/*.ko $(d)/*.mod $(d)/*.mod.c)
endif

# Everything: packages, builds (W=1, sparse, Debian 6.1 and 6.12 headers),
# checkpatch, KUnit in QEMU, the module in a booted guest.
check:
	scripts/check.sh

# The guests' clock for demo and compare: CLOCK=icount (QEMU's instruction
# counter: guest ns = guest instructions, whatever the host's load) or
# CLOCK=wall; unset, demo runs on icount and compare on wall.
CLOCK ?=
# Boot QEMU, load twheel, show /sys/kernel/debug/twheel, unload.
demo:
	scripts/demo.sh $(if $(CLOCK),--clock=$(CLOCK))

# One boot, every workload on every engine and the kernel's timers: a
# markdown table, CSV and a plot in results/ (a benchmark, not a test).
# REPS=N: the workloads' rounds (5 unless given).
REPS ?=
compare:
	scripts/compare.sh $(if $(CLOCK),--clock=$(CLOCK)) $(if $(REPS),--reps=$(REPS))

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
# work, Ir per add/del/mod, per empty tick and per fired timer). The
# benchmarks and the replay need only a C compiler and make (valgrind for
# their Ir columns), the fuzz targets clang and libFuzzer too; no kernel
# source (userspace/setup.sh installs what is missing).
FUZZ_SECONDS ?= 60
.PHONY: fuzz bench-user
fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) userspace/fuzz/fuzz.sh

# RATAS=<path to Ratas' timer-wheel.h> adds Ratas' rows to the op stream.
# FULL=1: the full sweep (bench.sh's and stream.sh's BENCH_FULL, STREAM_FULL).
FULL ?= 0
bench-user:
	BENCH_FULL=$(FULL) userspace/bench/bench.sh
	STREAM_FULL=$(FULL) userspace/bench/stream.sh

# A kernel timer trace replayed through every engine in user space
# (userspace/replay/twheel-replay): TRACE= text in any of tracefs' (trace, trace_pipe),
# trace-cmd report's or perf script's form, plain, gzip or xz (told by their
# first bytes, whatever the name); by default the trace recorded in the guest
# under TCP traffic (userspace/replay/traces/). ARGS= the tool's options
# (ARGS='--format=json --no-callgrind'; twheel-replay --help lists them);
# REPLAY_HZ=N and the other REPLAY_* variables still work.
# TRACE is taken as it is ($(value)) and passed quoted: a path may have
# spaces, quotes, '&', '|' or '$'. Nothing but the tool's output on stdout.
TRACE ?=
ARGS ?=
.PHONY: replay
replay:
	@userspace/replay/twheel-replay $(ARGS) -- '$(subst ','\'',$(or $(value TRACE),userspace/replay/traces/guest-tcp.tracefs.gz))'
