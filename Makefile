# clearing-load - GNU make.  `make` builds ./clearing-load; `make check` runs
# every test (unit, command line, PostgreSQL); `make check SANITIZE=1` runs
# them all under AddressSanitizer + UndefinedBehaviorSanitizer.

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
MANDIR ?= $(PREFIX)/share/man
DATADIR ?= $(PREFIX)/share
SYSTEMDUNITDIR ?= $(PREFIX)/lib/systemd/system
SYSUSERSDIR ?= $(PREFIX)/lib/sysusers.d
COMPLETIONDIR ?= $(DATADIR)/bash-completion/completions
DESTDIR ?=

CC ?= gcc
PKGS := libxml-2.0 libpq zlib libcrypto
PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lcsv -pthread

# -Wno-overlength-strings: a loader statement (gen/loader_sql.h) may be
# longer than the 4095 characters C99 promises; gcc and clang take any.
WARN := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
	-Wwrite-strings -Wformat=2 -Wvla -Wimplicit-fallthrough -Wno-overlength-strings -Werror
CFLAGS ?= -O2 -g
ALL_CFLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE -pthread $(WARN) \
	-I. $(PKG_CFLAGS) $(CFLAGS)
LDFLAGS ?=

# SANITIZE=1 (or SANITIZE=address,undefined): a separate build tree.
ifneq ($(SANITIZE),)
  ifeq ($(SANITIZE),1)
    override SANITIZE := address,undefined
  endif
  ALL_CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
  LDFLAGS += -fsanitize=$(SANITIZE)
  B := build/sanitize
  BIN := $(B)/clearing-load
else
  B := build/release
  BIN := clearing-load
endif

# FAILPOINTS=1 compiles the named failpoints in (a separate build tree, used
# by the crash tests); normal builds have none.
ifneq ($(FAILPOINTS),)
  ALL_CFLAGS += -DCL_FAILPOINTS=1
  B := $(B)-failpoints
  BIN := $(B)/clearing-load
endif

LIB_SRCS := $(sort $(wildcard base/*.c parsers/*.c rules/*.c loader/*.c) $(filter-out cmd/main.c,$(wildcard cmd/*.c)))
LIB_OBJS := $(LIB_SRCS:%.c=$(B)/%.o)
# sql/NNN_*.sql embedded into the binary (loader/schema.h: cl_migrations[])
SQL_FILES := $(sort $(wildcard sql/[0-9]*.sql))
LIB_OBJS += $(B)/gen/schema_sql.o
MAIN_OBJ := $(B)/cmd/main.o
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(B)/tests/%)
TOOL_SRCS := $(sort $(wildcard tests/tools/*.c))
TOOL_BINS := $(TOOL_SRCS:tests/tools/%.c=$(B)/tools/%)

.PHONY: all deps check check-unit check-cli check-db check-citus demo bench fuzz install uninstall completion deb check-deb \
	clean lint format-check man-check tools

all: $(BIN) tools

tools: $(TOOL_BINS)

deps:
	@sh .ci/deps.sh

# CPPFLAGS, CFLAGS and LDFLAGS from the environment or the command line are
# honoured, as distributions expect (CFLAGS replaces the default -O2 -g).
CPPFLAGS ?=
ALL_CFLAGS += $(CPPFLAGS)

# V=1 shows the full commands.
Q := $(if $(V),,@)

$(B)/%.o: %.c
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -I$(B) -MMD -MP -c -o $@ $<

# The SQL column lists of base/record_fields.def and
# rules/statement_fields.def, written at build time.
$(B)/gen/gen_record_sql: sql/gen_record_sql.c base/record.c base/record.h \
		base/record_fields.def rules/statement_fields.c rules/statement_fields.h \
		rules/statement_fields.def rules/statement_identity.h base/statement_record.h \
		loader/recon_item.def loader/recon_status.def loader/recon_ref.def
	@mkdir -p $(dir $@)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ sql/gen_record_sql.c base/record.c rules/statement_fields.c \
		$(LDFLAGS)

$(B)/gen/record_sql.h: $(B)/gen/gen_record_sql
	$(Q)$< >$@.tmp && mv $@.tmp $@

# The loader's statements, sql/loader/*.sql, as C string macros with the
# column lists expanded (sql/gen_record_sql.c says how a file is written).
LOADER_SQL := $(sort $(wildcard sql/loader/*.sql))
$(B)/gen/loader_sql.h: $(B)/gen/gen_record_sql $(LOADER_SQL)
	$(Q)$< $(LOADER_SQL) >$@.tmp && mv $@.tmp $@ || { rm -f $@.tmp; exit 1; }

$(LIB_OBJS) $(MAIN_OBJ): | $(B)/gen/record_sql.h $(B)/gen/loader_sql.h

# (sql/ itself: a migration removed changes the folder, not any file left)
$(B)/gen/schema_sql.c: $(SQL_FILES) sql sql/embed.sh
	@mkdir -p $(dir $@)
	sh sql/embed.sh $(SQL_FILES) >$@.tmp && mv $@.tmp $@

$(B)/gen/schema_sql.o: $(B)/gen/schema_sql.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(B)/libcl.a: $(LIB_OBJS)
	@rm -f $@
	$(Q)ar rcs $@ $^

# The program links every object, not the archive: nothing is left out.
$(BIN): $(MAIN_OBJ) $(LIB_OBJS)
	$(Q)$(CC) $(LDFLAGS) -o $@ $(MAIN_OBJ) $(LIB_OBJS) $(PKG_LIBS)

$(B)/tests/%: tests/unit/%.c $(B)/libcl.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -I$(B) -Wno-missing-prototypes -MMD -MP -o $@ $< $(B)/libcl.a $(PKG_LIBS) -lcmocka $(LDFLAGS)

$(B)/tools/%: tests/tools/%.c $(B)/libcl.a
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -I$(B) -MMD -MP -o $@ $< $(B)/libcl.a $(PKG_LIBS) $(LDFLAGS)

check: deps
	$(MAKE) check-unit check-cli check-db

check-unit: $(UNIT_BINS)
	@sh tests/run-unit.sh $(UNIT_BINS)

check-cli: $(BIN) $(TOOL_BINS)
	@CL_BIN=$(abspath $(BIN)) CL_TOOLS=$(abspath $(B)/tools) sh tests/cli/run.sh

# The database suite also gets a failpoint build of the same tree (CL_BIN_FP).
FP_B := $(B)-failpoints
check-db: $(BIN) $(TOOL_BINS)
	@$(MAKE) --no-print-directory FAILPOINTS=1 $(FP_B)/clearing-load
	@CL_BIN=$(abspath $(BIN)) CL_BIN_FP=$(abspath $(FP_B)/clearing-load) \
		CL_TOOLS=$(abspath $(B)/tools) DOUBLE=$(DOUBLE) sh tests/db/run.sh

# The distributed schema on Citus (tests/citus): builds and installs Citus
# from ../shared/citus when it is not installed (root), starts a coordinator
# and two workers on loopback, runs tests/citus/run.sh, stops them.
check-citus: $(BIN) $(TOOL_BINS)
	@$(MAKE) --no-print-directory FAILPOINTS=1 $(FP_B)/clearing-load
	@CL_BIN=$(abspath $(BIN)) CL_BIN_FP=$(abspath $(FP_B)/clearing-load) \
		CL_TOOLS=$(abspath $(B)/tools) sh tests/citus/run.sh

demo: deps
	@$(MAKE) --no-print-directory $(BIN)
	@CL_BIN=$(abspath $(BIN)) sh tests/demo.sh

bench: deps
	@$(MAKE) --no-print-directory $(BIN) tools
	@CL_BIN=$(abspath $(BIN)) CL_TOOLS=$(abspath $(B)/tools) sh tests/bench/run.sh
	@sh tests/bench/results.sh

fuzz:
	@sh tests/fuzz/run.sh $(FUZZ_SECONDS)

# The bash completion, generated from the program's --help (its option
# tables): contrib/gen-bash-completion.sh.
completion: $(B)/clearing-load.bash
$(B)/clearing-load.bash: $(BIN) contrib/gen-bash-completion.sh
	@mkdir -p $(dir $@)
	$(Q)sh contrib/gen-bash-completion.sh $(abspath $(BIN)) >$@.tmp && mv $@.tmp $@

# The program, its man pages, the systemd units (their ExecStart names
# BINDIR), the sysusers.d file of the user they run as, the bash
# completion, the cron example, the licence and the changelog.
install: $(BIN) $(B)/clearing-load.bash
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man7 \
		$(DESTDIR)$(SYSTEMDUNITDIR) $(DESTDIR)$(SYSUSERSDIR) $(DESTDIR)$(DATADIR)/doc/clearing-load \
		$(DESTDIR)$(COMPLETIONDIR)
	install -m 755 $(BIN) $(DESTDIR)$(BINDIR)/clearing-load
	install -m 644 man/clearing-load.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 man/clearing-load-keys.7 $(DESTDIR)$(MANDIR)/man7/
	for u in contrib/*.service contrib/*.timer; do \
		sed 's|/usr/local/bin/|$(BINDIR)/|g' "$$u" >$(DESTDIR)$(SYSTEMDUNITDIR)/$$(basename "$$u") && \
		chmod 644 $(DESTDIR)$(SYSTEMDUNITDIR)/$$(basename "$$u") || exit 1; \
	done
	install -m 644 contrib/clearing-load.sysusers $(DESTDIR)$(SYSUSERSDIR)/clearing-load.conf
	sed 's|/usr/local/bin/|$(BINDIR)/|g' contrib/clearing-load.cron \
		>$(DESTDIR)$(DATADIR)/doc/clearing-load/clearing-load.cron
	install -m 644 LICENSE README.md CHANGELOG.md $(DESTDIR)$(DATADIR)/doc/clearing-load/
	install -m 644 $(B)/clearing-load.bash $(DESTDIR)$(COMPLETIONDIR)/clearing-load
	install -m 644 contrib/clearing-load.rules.yml $(DESTDIR)$(DATADIR)/doc/clearing-load/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/clearing-load $(DESTDIR)$(MANDIR)/man1/clearing-load.1 \
		$(DESTDIR)$(MANDIR)/man7/clearing-load-keys.7 \
		$(DESTDIR)$(SYSTEMDUNITDIR)/clearing-load-ingest@.service \
		$(DESTDIR)$(SYSTEMDUNITDIR)/clearing-load-ingest@.timer \
		$(DESTDIR)$(SYSUSERSDIR)/clearing-load.conf $(DESTDIR)$(COMPLETIONDIR)/clearing-load
	rm -rf $(DESTDIR)$(DATADIR)/doc/clearing-load

# A Debian package of `make install PREFIX=/usr` (contrib/make-deb.sh:
# dpkg-deb alone, Depends from the program's shared libraries), written to
# DEB_OUT; `make check-deb` builds it and installs it under a temporary
# root (tests/cli/test_deb.sh).
VERSION := $(shell sed -n 's/^\#define CL_VERSION "\(.*\)"/\1/p' cmd/main.c)
DEB_OUT ?= build
DEB := $(DEB_OUT)/clearing-load_$(VERSION)_$(shell dpkg --print-architecture 2>/dev/null || echo unknown).deb
deb: $(BIN) $(B)/clearing-load.bash
	rm -rf $(B)/deb
	$(MAKE) --no-print-directory -o $(BIN) -o $(B)/clearing-load.bash install \
		BIN=$(BIN) DESTDIR=$(abspath $(B)/deb) PREFIX=/usr SYSTEMDUNITDIR=/usr/lib/systemd/system \
		SYSUSERSDIR=/usr/lib/sysusers.d >/dev/null
	sh contrib/make-deb.sh $(B)/deb $(VERSION) $(DEB)

check-deb: $(BIN) $(TOOL_BINS)
	@CL_BIN=$(abspath $(BIN)) CL_TOOLS=$(abspath $(B)/tools) sh tests/cli/run.sh tests/cli/test_deb.sh

lint: $(B)/gen/record_sql.h $(B)/gen/loader_sql.h
	clang-tidy --quiet $(LIB_SRCS) cmd/main.c -- $(ALL_CFLAGS) -I$(B)

format-check:
	clang-format --dry-run --Werror $(LIB_SRCS) cmd/main.c

clean:
	rm -rf build clearing-load

# the header dependencies of this build tree only (B: another tree may be
# compiling beside this make)
-include $(shell find $(B) -name '*.d' -type f 2>/dev/null)
