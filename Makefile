# plumb — build, test and install.
#
#   make                 bin/plumb, bin/plumb-hello, bin/plumb-spawn and one symlink per lmbench tool name
#   make test            build and run every test; the last line is "N passed, N failed"
#   make run             build and run the whole suite (plumb run)
#   make install PREFIX=/usr/local DESTDIR=   (also the man page and share/doc/plumb)
#   make CC=aarch64-linux-gnu-gcc     cross build: optional libraries are probed with $(CC)
#   make NO_SQLITE=1 NO_TIRPC=1 NO_PGSQL=1   switch optional libraries off by hand
#   make STATIC=1        static binary (optional libraries off when no static form exists)
#   make bundle          plumb-VERSION-TRIPLE.tar.gz for a board: static stripped plumb, helpers,
#                        lmbench-name symlinks, man page, READMEs (CC=... for another target)
#   make WERROR=1        warnings are errors (CI)
#   make JOBS=1          one compiler at a time (default: one per online CPU, as if make -jN)
#
# Optional libraries are detected by compiling and linking a probe with the build's own $(CC),
# never by asking the host alone, so a cross build cannot pick up the host's libraries.

# Builds run one compiler per CPU without the user typing -j (make test's 5 minutes include the
# build). GNU make takes -j set here; JOBS=1 builds serially. A sub-make (make bundle's) shares
# its parent's job slots: setting -j again there made make warn "-jN forced in makefile".
JOBS     ?= $(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
ifeq ($(MAKELEVEL),0)
MAKEFLAGS += -j$(JOBS)
endif

CC       ?= cc
PREFIX   ?= /usr/local
DESTDIR  ?=
OPT      ?= -O2
CFLAGS   ?= $(OPT) -g
PKG_CONFIG ?= pkg-config

WARN     := -Wall -Wextra -Wno-unused-parameter
ifeq ($(WERROR),1)
WARN     += -Werror
endif
BASE_CFLAGS := -std=gnu11 $(WARN) -D_GNU_SOURCE -Isrc -Ibuild
LDLIBS   :=
ifeq ($(STATIC),1)
LDFLAGS  += -static
endif

# ---- optional libraries: probe with $(CC) ------------------------------------------------
PROBE = $(shell $(CC) $(CFLAGS) $(2) mk/probe-$(1).c -o /dev/null $(LDFLAGS) $(3) >/dev/null 2>&1 && echo yes)

ifneq ($(NO_SQLITE),1)
SQLITE_CFLAGS := $(shell $(PKG_CONFIG) --cflags sqlite3 2>/dev/null)
SQLITE_LIBS   := $(shell $(PKG_CONFIG) --libs sqlite3 2>/dev/null)
SQLITE_LIBS   := $(if $(SQLITE_LIBS),$(SQLITE_LIBS),-lsqlite3)
HAVE_SQLITE   := $(call PROBE,sqlite,$(SQLITE_CFLAGS),$(SQLITE_LIBS) $(if $(filter 1,$(STATIC)),-lm -lpthread -ldl))
endif
ifeq ($(HAVE_SQLITE),yes)
BASE_CFLAGS += -DHAVE_SQLITE=1 $(SQLITE_CFLAGS)
LDLIBS      += $(SQLITE_LIBS)
endif

ifneq ($(NO_TIRPC),1)
TIRPC_CFLAGS := $(shell $(PKG_CONFIG) --cflags libtirpc 2>/dev/null)
TIRPC_CFLAGS := $(if $(TIRPC_CFLAGS),$(TIRPC_CFLAGS),-I/usr/include/tirpc)
TIRPC_LIBS   := $(shell $(PKG_CONFIG) --libs libtirpc 2>/dev/null)
TIRPC_LIBS   := $(if $(TIRPC_LIBS),$(TIRPC_LIBS),-ltirpc)
HAVE_TIRPC   := $(call PROBE,tirpc,$(TIRPC_CFLAGS),$(TIRPC_LIBS) $(if $(filter 1,$(STATIC)),-lpthread))
endif
ifeq ($(HAVE_TIRPC),yes)
BASE_CFLAGS += -DHAVE_TIRPC=1 $(TIRPC_CFLAGS)
LDLIBS      += $(TIRPC_LIBS)
endif

# libpq: the PostgreSQL store (--db postgresql://...). Its static form needs half of OpenSSL and
# Kerberos, so a static or cross build whose $(CC) cannot link it goes without.
ifneq ($(NO_PGSQL),1)
PGSQL_CFLAGS := $(shell $(PKG_CONFIG) --cflags libpq 2>/dev/null)
PGSQL_CFLAGS := $(if $(PGSQL_CFLAGS),$(PGSQL_CFLAGS),-I/usr/include/postgresql)
PGSQL_LIBS   := $(shell $(PKG_CONFIG) --libs libpq 2>/dev/null)
PGSQL_LIBS   := $(if $(PGSQL_LIBS),$(PGSQL_LIBS),-lpq)
HAVE_PGSQL   := $(call PROBE,pgsql,$(PGSQL_CFLAGS),$(PGSQL_LIBS))
endif
ifeq ($(HAVE_PGSQL),yes)
BASE_CFLAGS += -DHAVE_PGSQL=1 $(PGSQL_CFLAGS)
LDLIBS      += $(PGSQL_LIBS)
endif

# libc's own libraries last: a static link resolves left to right.
LDLIBS     += -lm -lpthread $(if $(filter 1,$(STATIC)),-ldl)
ALL_CFLAGS := $(BASE_CFLAGS) $(CFLAGS) $(CPPFLAGS)

# ---- sources ------------------------------------------------------------------------------
# src/bench/FAMILY/*.c: a folder per benchmark family (tool.h); src/suite/: plumb run.
BENCH_SRCS := $(wildcard src/bench/*.c src/bench/*/*.c)
SRCS  := $(wildcard src/core/*.c src/results/*.c src/analysis/*.c src/suite/*.c src/cmd/*.c) $(BENCH_SRCS)
OBJS  := $(patsubst src/%.c,build/%.o,$(SRCS)) build/registry_gen.o build/charts_gen.o
MAIN  := build/main.o
LIB   := build/libplumb.a
# Tool names come from the TOOL(...) entries of the benchmark descriptors: one source of truth.
TOOLS := $(shell sed -n 's/^[[:space:]]*TOOL."\([a-z0-9_]*\)".*/\1/p' $(BENCH_SRCS) | sort -u)

UNIT_SRCS := $(wildcard tests/unit/*.c)
UNIT_OBJS := $(patsubst tests/unit/%.c,build/tests/%.o,$(UNIT_SRCS))

.PHONY: all test run install clean check-asan symlinks config fuzz metrics-doc bundle FORCE
all: bin/plumb bin/plumb-hello bin/plumb-spawn symlinks

config:
	@echo "CC=$(CC) sqlite=$(or $(HAVE_SQLITE),no) tirpc=$(or $(HAVE_TIRPC),no) pgsql=$(or $(HAVE_PGSQL),no) static=$(or $(STATIC),0)"

# Build facts recorded with every run (compiler and flags): regenerated when they change.
build/buildinfo.h: FORCE
	@mkdir -p build
	@{ printf '#define PLUMB_CC "%s"\n' "$$($(CC) --version 2>/dev/null | head -n1 | sed 's/["\\]//g')"; \
	   printf '#define PLUMB_CFLAGS "%s"\n' "$(subst ",,$(CFLAGS) $(OPT_EXTRA))"; \
	   printf '#define PLUMB_FEATURES "sqlite=%s tirpc=%s pgsql=%s static=%s"\n' "$(or $(HAVE_SQLITE),no)" "$(or $(HAVE_TIRPC),no)" "$(or $(HAVE_PGSQL),no)" "$(or $(STATIC),0)"; \
	   printf '#define PLUMB_VERSION "%s"\n' "$$(cat VERSION)"; } > build/buildinfo.h.tmp
	@cmp -s build/buildinfo.h.tmp build/buildinfo.h || mv build/buildinfo.h.tmp build/buildinfo.h
	@rm -f build/buildinfo.h.tmp
FORCE:

# Any change of compiler or flags (a cross build, a sanitizer build) rebuilds everything.
build/flags.stamp: FORCE
	@mkdir -p build
	@echo '$(CC) $(ALL_CFLAGS) $(LDFLAGS) $(LDLIBS)' > build/flags.stamp.tmp
	@cmp -s build/flags.stamp.tmp build/flags.stamp || mv build/flags.stamp.tmp build/flags.stamp
	@rm -f build/flags.stamp.tmp

build/%.o: src/%.c build/buildinfo.h build/flags.stamp
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

# The registry of tools, from the descriptor line each src/bench/FAMILY/*.c ends with (tool.h):
# regenerated every build (a file may have gone), replaced only when it changes.
build/registry_gen.c: FORCE
	@mkdir -p build
	@sh mk/registry.sh $(BENCH_SRCS) >build/registry_gen.c.tmp || { rm -f build/registry_gen.c.tmp; exit 1; }
	@cmp -s build/registry_gen.c.tmp $@ || mv build/registry_gen.c.tmp $@
	@rm -f build/registry_gen.c.tmp

build/registry_gen.o: build/registry_gen.c build/flags.stamp
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

# The report's chart kinds, from the line each chart kind's file in src/analysis/ declares it
# with (report_util.h), checked against every metric row's .chart: made as the registry is.
build/charts_gen.c: FORCE
	@mkdir -p build
	@sh mk/charts.sh $(wildcard src/analysis/*.c) $(BENCH_SRCS) >build/charts_gen.c.tmp || { rm -f build/charts_gen.c.tmp; exit 1; }
	@cmp -s build/charts_gen.c.tmp $@ || mv build/charts_gen.c.tmp $@
	@rm -f build/charts_gen.c.tmp

build/charts_gen.o: build/charts_gen.c build/flags.stamp
	$(CC) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

$(LIB): $(filter-out $(MAIN),$(OBJS))
	@rm -f $@
	$(AR) rcs $@ $^

bin/plumb: $(MAIN) $(LIB)
	@mkdir -p bin
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(MAIN) $(LIB) $(LDLIBS)
	@$(if $(filter yes,$(HAVE_SQLITE)),,echo "note: built without SQLite (no results store; runs are kept as files)$(if $(NO_SQLITE),, — $(CC) cannot link -lsqlite3$(if $(filter 1,$(STATIC)), statically))")
	@$(if $(filter yes,$(HAVE_TIRPC)),,echo "note: built without libtirpc (lat_rpc will say so)$(if $(NO_TIRPC),, — $(CC) cannot link -ltirpc$(if $(filter 1,$(STATIC)), statically))")

# The tiny program lat_proc exec/shell runs: as small as lmbench's hello, so the cost measured is
# the kernel's, not the loading of a large binary.
bin/plumb-hello: src/hello/hello.c build/flags.stamp
	@mkdir -p bin
	$(CC) $(CFLAGS) -std=gnu11 $(WARN) $(LDFLAGS) -o $@ $<

# The small process lat_proc fork/exec/shell fork from (plumb's own image would be timed too).
bin/plumb-spawn: src/hello/spawn.c build/flags.stamp
	@mkdir -p bin
	$(CC) $(CFLAGS) -std=gnu11 $(WARN) -D_GNU_SOURCE $(LDFLAGS) -o $@ $<

symlinks: bin/plumb
	@for t in $(TOOLS); do [ -L bin/$$t ] || ln -sf plumb bin/$$t; done

# ---- tests --------------------------------------------------------------------------------
build/tests/%.o: tests/unit/%.c build/buildinfo.h build/flags.stamp
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Itests -MMD -MP -c $< -o $@

bin/unit-tests: $(UNIT_OBJS) $(LIB)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $(UNIT_OBJS) $(LIB) $(LDLIBS)

# Independent reference loops the tests hold plumb's figures against (no plumb code in them).
bin/refloop: tests/ref/refloop.c build/flags.stamp
	@mkdir -p bin
	$(CC) $(CFLAGS) -std=gnu11 $(WARN) -D_GNU_SOURCE $(LDFLAGS) -o $@ $<

# tests/cli/ab.sh's wrapper that makes every system call dearer (tests/helpers/slowsys.c)
bin/slowsys: tests/helpers/slowsys.c build/flags.stamp
	@mkdir -p bin
	$(CC) $(CFLAGS) -std=gnu11 $(WARN) $(LDFLAGS) -o $@ $<

# tests/cli/signals.sh's and bench/README.md's loopback connection flood (tests/helpers/flood.c)
bin/flood: tests/helpers/flood.c build/flags.stamp
	@mkdir -p bin
	$(CC) $(CFLAGS) -std=gnu11 $(WARN) -D_GNU_SOURCE $(LDFLAGS) -o $@ $<

test: all bin/unit-tests bin/refloop bin/slowsys bin/flood
	@sh tests/run.sh

run: all
	bin/plumb run

# docs/metrics.md is generated from the registry (tests/cli/honesty.sh checks it is current).
metrics-doc: bin/plumb
	bin/plumb list --metrics >docs/metrics.md

# ASan + UBSan: rebuild everything sanitized (clang by default), run the tests and a quick run.
# The next plain `make` rebuilds the normal binaries (build/flags.stamp changes).
SAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
check-asan:
	$(MAKE) CC=$(or $(ASAN_CC),clang) CFLAGS="$(SAN_FLAGS)" LDFLAGS="-fsanitize=address,undefined" all bin/unit-tests bin/refloop bin/slowsys bin/flood
	ASAN_OPTIONS=detect_leaks=0:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 sh tests/run.sh
	sh tests/leaks.sh
	@if bin/plumb help run >/dev/null 2>&1; then \
	  ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1 bin/plumb run --quick --no-store -o build/asan-run.json && echo "PASS asan/run-quick" || { echo "FAIL asan/run-quick"; exit 1; }; fi

# ---- fuzzing (clang's libFuzzer) ---------------------------------------------------------
FUZZ_TIME ?= 30
FUZZERS   := $(patsubst fuzz/%.c,bin/%,$(wildcard fuzz/fuzz_*.c))
FUZZ_SRCS  = $(filter-out src/main.c,$(SRCS)) build/registry_gen.c build/charts_gen.c
bin/fuzz_%: fuzz/fuzz_%.c $(SRCS) build/buildinfo.h build/registry_gen.c build/charts_gen.c
	@mkdir -p bin
	clang $(BASE_CFLAGS) -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -o $@ $< $(FUZZ_SRCS) $(LDLIBS)
fuzz: $(FUZZERS)
	@for f in $(FUZZERS); do n=$${f#bin/}; mkdir -p build/fuzz/$$n; \
	  seeds=fuzz/seeds/$${n#fuzz_}; [ -d $$seeds ] || seeds=; \
	  echo "fuzzing $$n for $(FUZZ_TIME) s"; \
	  ASAN_OPTIONS=detect_leaks=0 $$f -max_total_time=$(FUZZ_TIME) -timeout=10 -rss_limit_mb=2048 \
	    -artifact_prefix=build/fuzz/$$n- build/fuzz/$$n $$seeds >build/fuzz/$$n.log 2>&1 \
	    && echo "PASS fuzz/$$n" || { echo "FAIL fuzz/$$n (see build/fuzz/$$n.log)"; tail -n 20 build/fuzz/$$n.log; exit 1; }; \
	done

# ---- install ------------------------------------------------------------------------------
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib/plumb/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 bin/plumb $(DESTDIR)$(PREFIX)/bin/plumb
	install -m 755 bin/plumb-hello $(DESTDIR)$(PREFIX)/lib/plumb/plumb-hello
	install -m 755 bin/plumb-spawn $(DESTDIR)$(PREFIX)/lib/plumb/plumb-spawn
	for t in $(TOOLS); do ln -sf ../../../bin/plumb $(DESTDIR)$(PREFIX)/lib/plumb/bin/$$t; done
	install -m 644 docs/plumb.1 $(DESTDIR)$(PREFIX)/share/man/man1/plumb.1
	install -d $(DESTDIR)$(PREFIX)/share/doc/plumb/docs
	install -m 644 README.md $(DESTDIR)$(PREFIX)/share/doc/plumb/README.md
	install -m 644 docs/*.md $(DESTDIR)$(PREFIX)/share/doc/plumb/docs/

# ---- a board bundle -----------------------------------------------------------------------
# A static, stripped plumb with its helpers, the lmbench-name symlinks, the man page and the
# READMEs as one tarball, plumb-VERSION-TRIPLE.tar.gz. Built from a copy of the sources in
# build-bundle/, so the tree's own build is left as it is.
STRIP ?= $(if $(findstring gcc,$(notdir $(CC))),$(subst gcc,strip,$(CC)),strip)
BUNDLE = plumb-$(shell cat VERSION)-$(shell $(CC) -dumpmachine 2>/dev/null || echo unknown)
bundle:
	rm -rf build-bundle && mkdir -p build-bundle/tree
	tar cf - Makefile VERSION mk src docs README.md | tar xf - -C build-bundle/tree
	$(MAKE) -C build-bundle/tree STATIC=1 CC="$(CC)" all
	@echo "note: the linker's 'Using dlopen/getaddrinfo in statically linked applications'" \
	      "warnings are glibc's: host names (localhost, a board's name) are looked up through" \
	      "the board's own glibc name-service libraries at run time; numeric addresses" \
	      "(127.0.0.1, the default) need none."
	sh mk/bundle.sh build-bundle/tree $(BUNDLE).tar.gz "$(STRIP)"

clean:
	rm -rf build bin build-bundle

-include $(OBJS:.o=.d) $(MAIN:.o=.d) $(UNIT_OBJS:.o=.d)
