# mk/rules.mk - the build rules every M.wrappers/M.<name> file includes.
#
# Sources are found by wildcard: each layer src/<layer>/*.c becomes one static
# archive, each src/bin/<prog>.c one program in $(BINDIR), each
# tests/unit/test_*.c one cmocka test, each tests/fuzz/fuzz_*.c one libFuzzer
# driver.  Adding a file needs no edit here.  Objects live in build/$(MACHID)
# so wrappers never mix their objects.

# Quiet by default: no command lines, only what the tools say (warnings,
# errors, the tests' results); V=1 shows every command.
V        ?= 0
ifneq ($(V),1)
.SILENT:
MAKEFLAGS += --no-print-directory
endif

BUILD    ?= build/$(MACHID)
BINDIR   ?= bin
PREFIX   ?= /usr/local
GEN      := $(BUILD)/gen

# The layers, from the bottom up.  The link order is irrelevant (we link
# them as one group); the list names the directories docs/ARCHITECTURE.md
# describes, and tests/integration/0001_layering.t checks the #include
# lines of every layer, that document and this list against DEPS_* below
# (`make print-layers` prints them).  A workload is a layer of its own
# whose directory holds a layer.mk: "WORKLOAD_LAYERS += <layer>" and its
# DEPS_<layer> line; the client and the prime use every one of them, so a
# new workload is its directory and one line in src/client/workloads.c.
WORKLOAD_LAYERS :=
include $(sort $(wildcard src/*/layer.mk))
LAYERS   := common rpc nfs validate trace image ctl load replaybase $(WORKLOAD_LAYERS) client prime analyze server submit

WARN     := -Wall -Wextra -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
            -Wformat=2 -Wno-format-nonliteral
CPPFLAGS := -Isrc -I$(GEN) -I/usr/include/tirpc -D_DEFAULT_SOURCE
# WERROR: -Werror for `make warnings`, on top of every other flag of the
# wrapper (CFLAGS_EXTRA included), so that it checks what the build compiles.
WERROR   ?=
CFLAGS   := -std=c11 $(COPT) $(WARN) $(CFLAGS_EXTRA) $(WERROR) -MMD -MP
LDFLAGS  := $(LDFLAGS_EXTRA) -Wl,--as-needed
LIBS     := -ltirpc -lnfs -lJudy -lyaml -lpcap -lsodium -lm

# rpcgen output: NFSv2 and MOUNT v1 from the system .x files, NFSv3 and
# MOUNT v3, NFSv4.0 and 4.1 from our own (docs/DECISIONS.md D2).  Generated
# code only gets the warnings rpcgen triggers silenced.
SYS_NFS_X   ?= /usr/include/rpcsvc/nfs_prot.x
SYS_MOUNT_X ?= /usr/include/rpcsvc/mount.x
GEN_NAMES := nfs2_prot mount_prot nfs3_prot nfs4_prot
GEN_H    := $(GEN_NAMES:%=$(GEN)/%.h)
GEN_C    := $(GEN_NAMES:%=$(GEN)/%_xdr.c)
GEN_O    := $(GEN_C:.c=.o)
GEN_CFLAGS := -std=c11 $(COPT) $(CFLAGS_EXTRA) -w

LAYER_SRCS = $(wildcard src/$(1)/*.c)
LAYER_OBJS = $(patsubst src/%.c,$(BUILD)/obj/%.o,$(call LAYER_SRCS,$(1)))
PRESENT_LAYERS := $(foreach l,$(LAYERS),$(if $(call LAYER_SRCS,$(l)),$(l)))

# Which layers each layer may use: the one table of the arrows
# (docs/ARCHITECTURE.md draws it); a program or a unit test links only its
# layer and those below it, so the arrows stay honest and a half-written
# file in one layer cannot break another's programs.  One line per layer,
# "DEPS_<layer> := <layer> <the layers it uses>": 0001_layering.t reads them.
DEPS_common   := common
DEPS_rpc      := rpc common
DEPS_nfs      := nfs rpc common
DEPS_validate := validate nfs rpc common
# the NFS trace readers decode with the nfs layer's tables and XDR
DEPS_trace    := trace nfs rpc common
DEPS_ctl      := ctl common
DEPS_load     := load ctl nfs rpc common
# the two trace replays share a base (window, clock, mount, points) and
# not each other; the workloads' DEPS_ lines are in their layer.mk
DEPS_replaybase := replaybase load ctl nfs rpc common
DEPS_client   := client $(WORKLOAD_LAYERS) replaybase load ctl validate image trace nfs rpc common
DEPS_prime    := prime client $(WORKLOAD_LAYERS) replaybase load ctl validate image trace nfs rpc common
# the file-system image an NFS trace implies: the analyser and the NFS
# replay build it from the trace layer's events
DEPS_image    := image trace nfs rpc common
# the fit writes the load layer's mix and block-size files, read back by its parsers
DEPS_analyze  := analyze image load ctl trace nfs rpc common
DEPS_server   := server nfs rpc common
DEPS_submit   := submit common
DEPS_all      := $(LAYERS)
# Programs and the layer they sit on (default: all layers).
LAYER_sfs_ping  := nfs
LAYER_sfs_nfsd  := server
# sfs_trace: analyze, and `plan`, the NFS replay's planner (nreplay)
LAYER_sfs_trace := all
LAYER_sfs       := client
LAYER_sfs_mgr   := prime
LAYER_sfs_prime := prime
libs_of = $(foreach l,$(DEPS_$(1)),$(if $(filter $(l),$(PRESENT_LAYERS)),$(BUILD)/lib/lib$(l).a)) $(BUILD)/lib/libxdrgen.a
link_of = -Wl,--start-group $(call libs_of,$(1)) -Wl,--end-group $(LIBS)
prog_layer = $(or $(LAYER_$(1)),all)
# sfs_rc: the rc file from the shell (runsfs; describe reads the prime's
# and the load's tables); sfs_generate: submissions
LAYER_sfs_rc := prime
LAYER_sfs_generate := submit
# tests/unit/test_<layer>_<module>.c links <layer>; test_<layer>.c too.
test_layer = $(or $(filter $(LAYERS),$(word 2,$(subst _, ,$(1)))),all)
LAYER_LIBS := $(call libs_of,all)
LINK_LIBS  := $(call link_of,all)

PROG_SRCS := $(wildcard src/bin/*.c)
PROGS     := $(patsubst src/bin/%.c,$(BINDIR)/%,$(PROG_SRCS))
# sfs3 and sfs4 are sfs run under other names (the NFS version follows
# argv[0]: nfs/proto.c's list).
ALIAS_NAMES := sfs3 sfs4
ALIASES   := $(if $(filter $(BINDIR)/sfs,$(PROGS)),$(ALIAS_NAMES:%=$(BINDIR)/%))
# Shell front ends (runsfs) are copied into $(BINDIR) beside the programs.
SCRIPTS_BIN := $(wildcard scripts/bin/*)
SCRIPTS_OUT := $(SCRIPTS_BIN:scripts/bin/%=$(BINDIR)/%)

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRCS))
UNIT_HELPERS := $(wildcard tests/unit/helpers/*.c)
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS := $(patsubst tests/fuzz/%.c,$(BUILD)/fuzz/%,$(FUZZ_SRCS))
TOOL_SRCS := $(wildcard tests/tools/*.c)
TOOL_BINS := $(patsubst tests/tools/%.c,$(BUILD)/tools/%,$(TOOL_SRCS))
BENCH_SRCS := $(wildcard bench/*.c)
BENCH_BINS := $(patsubst bench/%.c,$(BUILD)/bench/%,$(BENCH_SRCS))

.PHONY: all clean install uninstall test check unit unit-asan integration bench demo style unit-bins \
        print-layers \
        fuzz fuzz-short fuzz-run fuzz-test tools format format-check lint warnings coverage
.SUFFIXES:
.SECONDARY:

all: $(PROGS) $(ALIASES) $(SCRIPTS_OUT) tools

tools: $(TOOL_BINS)

# One line per layer, "<layer>: <the layers it uses>", as DEPS_<layer> says
# (0001_layering.t reads them).
print-layers:
	@$(foreach l,$(LAYERS),echo "$(l): $(DEPS_$(l))";)

# ---- generated XDR ---------------------------------------------------------

$(GEN)/nfs2_prot.x: $(SYS_NFS_X)
	@mkdir -p $(@D)
	cp $< $@
$(GEN)/mount_prot.x: $(SYS_MOUNT_X)
	@mkdir -p $(@D)
	cp $< $@
$(GEN)/nfs3_prot.x: src/nfs/proto/nfs3_prot.x
	@mkdir -p $(@D)
	cp $< $@
$(GEN)/nfs4_prot.x: src/nfs/proto/nfs4_prot.x
	@mkdir -p $(@D)
	cp $< $@

# rpcgen names the header it includes after the .x file, so it runs inside
# $(GEN) on the copies.
$(GEN)/%.h: $(GEN)/%.x
	cd $(GEN) && rm -f $*.h && rpcgen -h -o $*.h $*.x
$(GEN)/%_xdr.c: $(GEN)/%.x
	cd $(GEN) && rm -f $*_xdr.c && rpcgen -c -o $*_xdr.c $*.x
$(GEN)/%_xdr.o: $(GEN)/%_xdr.c $(GEN_H)
	$(CC) $(CPPFLAGS) $(GEN_CFLAGS) -c -o $@ $<

$(BUILD)/lib/libxdrgen.a: $(GEN_O)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

# ---- layers ----------------------------------------------------------------

$(BUILD)/obj/%.o: src/%.c | $(GEN_H)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

define LAYER_RULE
$(BUILD)/lib/lib$(1).a: $(call LAYER_OBJS,$(1))
	@mkdir -p $$(@D)
	rm -f $$@ && ar rcs $$@ $$^
endef
$(foreach l,$(PRESENT_LAYERS),$(eval $(call LAYER_RULE,$(l))))

# ---- programs --------------------------------------------------------------

define PROG_RULE
$(BINDIR)/$(1): $(BUILD)/obj/bin/$(1).o $(call libs_of,$(call prog_layer,$(1)))
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS) -o $$@ $$< $$(LDFLAGS) $(call link_of,$(call prog_layer,$(1)))
endef
$(foreach p,$(PROG_SRCS:src/bin/%.c=%),$(eval $(call PROG_RULE,$(p))))

$(ALIASES): $(BINDIR)/sfs
	ln -sf sfs $@

# A new file renamed into place: a running copy of the script keeps reading
# the old one.
$(SCRIPTS_OUT): $(BINDIR)/%: scripts/bin/%
	@mkdir -p $(@D)
	cp $< $@.tmp && chmod 755 $@.tmp && mv -f $@.tmp $@

$(BUILD)/tools/%: tests/tools/%.c $(LAYER_LIBS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(LDFLAGS) $(LINK_LIBS)

$(BUILD)/bench/%: bench/%.c $(LAYER_LIBS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(LDFLAGS) $(LINK_LIBS)

# ---- unit tests (cmocka) ---------------------------------------------------

define UNIT_RULE
$(BUILD)/tests/$(1): tests/unit/$(1).c $(UNIT_HELPERS) $(call libs_of,$(call test_layer,$(1)))
	@mkdir -p $$(@D)
	$$(CC) $$(CPPFLAGS) -Itests/unit $$(CFLAGS) -o $$@ $$< $(UNIT_HELPERS) $$(LDFLAGS) $(call link_of,$(call test_layer,$(1))) -lcmocka
endef
$(foreach t,$(UNIT_SRCS:tests/unit/%.c=%),$(eval $(call UNIT_RULE,$(t))))

unit-bins: $(UNIT_BINS)

unit: $(UNIT_BINS)
	@sh tests/tools/run-unit.sh $(UNIT_BINS)

# The unit tests again, under ASan and UBSan.
unit-asan:
	$(MAKE) -f M.wrappers/M.debug unit

integration: all
	@sh tests/tools/run-integration.sh

# Line and branch coverage per layer under the unit and integration tests,
# on a gcov build of its own (M.wrappers/M.coverage, build/coverage): it
# never touches the objects `make test` uses.  docs/TESTING.md records it.
coverage:
	@sh tests/tools/coverage.sh

# The README's test command: every stage (build, unit tests in both
# builds, fuzz, integration tests, style) whatever failed before it, the
# CPU-bound ones beside the integration tests; the last lines give each
# stage's time and result and sum the checks (tests/tools/make-test.sh).
test: export FREESFS_TEST_SUMMARY := $(CURDIR)/build/test-summary
test:
	@sh tests/tools/make-test.sh

# The quick suite: the unit tests and the integration tests marked
# "# check:" (every layer: 0001_layering.t), in under 2 minutes on 2 cores
# once built (docs/TESTING.md); `make test` stays the full suite.
check: export FREESFS_TEST_SUMMARY := $(CURDIR)/build/check-summary
check:
	@sh tests/tools/make-test.sh check

# The pre-merge checks: gcc and clang warning-free, cppcheck, clang-format.
style:
	$(MAKE) -j2 warnings
	$(MAKE) lint
	$(MAKE) format-check

bench: all $(BENCH_BINS)
	@sh bench/run.sh

demo:
	@sh scripts/demo.sh

# ---- fuzzing (clang + libFuzzer) -------------------------------------------

$(BUILD)/fuzz/%: tests/fuzz/%.c $(LAYER_LIBS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(CFLAGS) -fsanitize=fuzzer -o $@ $< $(LDFLAGS) $(LINK_LIBS)

fuzz:
	$(MAKE) -f M.wrappers/M.fuzz fuzz-run FUZZ_SECONDS=$${FUZZ_SECONDS:-60}

fuzz-short:
	$(MAKE) -f M.wrappers/M.fuzz fuzz-run FUZZ_SECONDS=$${FUZZ_SECONDS:-10}

fuzz-run: $(FUZZ_BINS)
	@FUZZ_OUT=$(BUILD) sh tests/tools/run-fuzz.sh $(FUZZ_SECONDS) $(FUZZ_BINS)

# The short fuzz run that `make test` includes (skipped without clang).
fuzz-test:
	@if command -v clang >/dev/null && [ -n "$(FUZZ_SRCS)" ]; then \
	  $(MAKE) -j2 -f M.wrappers/M.fuzz fuzz-run FUZZ_SECONDS=$${FUZZ_SECONDS:-5}; \
	else echo "fuzz: skipped (no clang or no fuzz drivers)"; fi

# ---- housekeeping ----------------------------------------------------------

# Man pages: one per program, written by scripts/mkman from the program's
# own --help and --version (the same option tables), so they never disagree,
# and from its page in docs/ (description, examples, exit status); sfs3 and
# sfs4 have a page of their own, since a .so link works only through MANPATH.  The docs
# go beside them.
MANDIR   ?= $(PREFIX)/share/man/man1
DOCDIR   ?= $(PREFIX)/share/doc/freesfs
MAN_PROGS := $(notdir $(PROGS) $(SCRIPTS_OUT))

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/freesfs \
	  $(DESTDIR)$(MANDIR) $(DESTDIR)$(DOCDIR)
	for p in $(PROGS) $(SCRIPTS_OUT); do install -m 755 $$p $(DESTDIR)$(PREFIX)/bin/; done
	for a in $(ALIAS_NAMES); do ln -sf sfs $(DESTDIR)$(PREFIX)/bin/$$a; done
	cp -r rc C.wrappers $(DESTDIR)$(PREFIX)/share/freesfs/
	for p in $(MAN_PROGS) $(ALIAS_NAMES); do \
	  sh scripts/mkman $(BINDIR) $$p >$(DESTDIR)$(MANDIR)/$$p.1.tmp && \
	  mv -f $(DESTDIR)$(MANDIR)/$$p.1.tmp $(DESTDIR)$(MANDIR)/$$p.1 || exit 1; \
	done
	cp -r README.md LICENSE docs/*.md docs/examples $(DESTDIR)$(DOCDIR)/

uninstall:
	for p in $(MAN_PROGS) $(ALIAS_NAMES); do \
	  rm -f $(DESTDIR)$(PREFIX)/bin/$$p $(DESTDIR)$(MANDIR)/$$p.1; \
	done
	rm -rf $(DESTDIR)$(PREFIX)/share/freesfs $(DESTDIR)$(DOCDIR)

clean:
	rm -rf build $(PROGS) $(ALIASES) $(SCRIPTS_OUT) $(ALIAS_NAMES:%=bin/%)

format:
	clang-format -i $$(git ls-files 'src/*.c' 'src/*.h' 'tests/*.c' 'tests/*.h' 'bench/*.c')

format-check:
	@command -v clang-format >/dev/null || { echo "format-check: skipped (no clang-format; scripts/install-deps)"; exit 0; }; \
	clang-format --dry-run --Werror $$(git ls-files 'src/*.c' 'src/*.h' 'tests/*.c' 'tests/*.h' 'bench/*.c')

# cppcheck in the one configuration the code is built for (Linux, glibc,
# x86-64), with the debug-only checks in so that their expressions are
# read too: left to itself cppcheck tries every combination of the macros
# it meets, three times the CPU (314 s against 107 on this machine) for
# configurations nobody builds.
LINT_DEFS := -D__linux__ -D__GLIBC__ -D__x86_64__ -D_DEFAULT_SOURCE -DCM_DEBUG_CHECKS
lint: $(GEN_H)
	@command -v cppcheck >/dev/null || { echo "lint: skipped (no cppcheck; scripts/install-deps)"; exit 0; }; \
	cppcheck -j2 --quiet --error-exitcode=1 --std=c11 --enable=warning,portability \
	  --inline-suppr --suppress=missingIncludeSystem $(LINT_DEFS) -Isrc -I$(GEN) src tests/unit
	@command -v shellcheck >/dev/null || { echo "lint: shellcheck skipped (scripts/install-deps)"; exit 0; }; \
	shellcheck $(SCRIPTS_BIN)

# Warnings as errors, the pre-merge check: each build `make test` makes
# (M.linux, M.debug), with its own flags plus -Werror, and clang's.
# `make test` builds M.linux and M.debug with -Werror in its own stages
# (tests/tools/make-test.sh) and adds only warnings-clang.
warnings:
	$(MAKE) -f M.wrappers/M.linux all tools unit-bins WERROR=-Werror BUILD=build/werror-gcc BINDIR=build/werror-gcc/bin
	$(MAKE) -f M.wrappers/M.debug all tools unit-bins WERROR=-Werror BUILD=build/werror-debug BINDIR=build/werror-debug/bin
	@$(MAKE) warnings-clang

warnings-clang:
	@if command -v clang >/dev/null; then \
	  $(MAKE) -f M.wrappers/M.clang all tools unit-bins WERROR=-Werror BUILD=build/werror-clang BINDIR=build/werror-clang/bin; \
	else echo "warnings: clang build skipped (no clang; scripts/install-deps)"; fi

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
