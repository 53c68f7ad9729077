# SPDX-License-Identifier: MIT
# Damka build. Each configuration builds in build/<cfg>/; `make` makes the release ./damka.

CFG      ?= release

# Release builds prefer clang when it is installed: its code runs perft about 8% faster here
# (bench/RESULTS.md). Sanitizer and debug builds use the system compiler. CC=... overrides.
# Profile-guided builds (`make pgo`) use clang too when llvm-profdata is there to merge profiles.
ifeq ($(origin CC),default)
  ifeq ($(CFG),release)
    CC := $(shell command -v clang >/dev/null 2>&1 && echo clang || echo cc)
  else ifneq ($(filter pgo-%,$(CFG)),)
    CC := $(shell command -v clang >/dev/null 2>&1 && command -v llvm-profdata >/dev/null 2>&1 \
                  && echo clang || echo cc)
  else
    CC := cc
  endif
endif
CLANG := $(findstring clang,$(CC))

# Target processor of the release and PGO builds. native (the default) uses every instruction
# of this machine; a binary built so dies with an illegal instruction on an older processor.
# x86-64 runs on any 64-bit PC; x86-64-v2 (popcnt, SSE4.2), v3 (AVX2, BMI2) and v4 (AVX-512)
# are the psABI levels; armv8 is 64-bit ARM. `damka --version` names the one built.
ARCH ?= native
ifeq ($(ARCH),native)
  ARCH_FLAGS := -march=native
else ifeq ($(ARCH),x86-64)
  ARCH_FLAGS := -march=x86-64 -mtune=generic
else ifneq ($(filter x86-64-v2 x86-64-v3 x86-64-v4,$(ARCH)),)
  ARCH_FLAGS := -march=$(ARCH) -mtune=generic
else ifeq ($(ARCH),armv8)
  ARCH_FLAGS := -march=armv8-a
else
  $(error unknown ARCH=$(ARCH): use native, x86-64, x86-64-v2, x86-64-v3, x86-64-v4 or armv8)
endif
PGO_DIR = $(CURDIR)/build/pgo-gen$(ARCH_DIR)
PREFIX   ?= /usr/local
DESTDIR  ?=
DATADIR  := $(PREFIX)/share/damka
MANDIR   := $(PREFIX)/share/man/man6
WARN     := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CSTD     := -std=c11 -D_GNU_SOURCE
EXTRA_CFLAGS ?=

ifeq ($(CFG),release)
  OPT := -O3 -DNDEBUG $(ARCH_FLAGS) -flto=auto
else ifeq ($(CFG),debug)
  OPT := -O0 -g
else ifeq ($(CFG),asan)
  OPT := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
else ifeq ($(CFG),ubsan)
  OPT := -O1 -g -fsanitize=undefined -fno-sanitize-recover=all
else ifeq ($(CFG),tsan)
  OPT := -O1 -g -fsanitize=thread
else ifeq ($(CFG)$(CLANG),pgo-genclang)
  OPT := -O3 -DNDEBUG $(ARCH_FLAGS) -flto=auto -fprofile-instr-generate
else ifeq ($(CFG)$(CLANG),pgo-useclang)
  OPT := -O3 -DNDEBUG $(ARCH_FLAGS) -flto=auto -fprofile-instr-use=$(PGO_DIR)/damka.profdata
else ifeq ($(CFG),pgo-gen)
  OPT := -O3 -DNDEBUG $(ARCH_FLAGS) -fprofile-generate -fprofile-update=atomic
else ifeq ($(CFG),pgo-use)
  OPT := -O3 -DNDEBUG $(ARCH_FLAGS) -fprofile-use -fprofile-correction -Wno-missing-profile \
         -fprofile-dir=$(PGO_DIR)
else
  $(error unknown CFG=$(CFG))
endif

# MPI=1: the tools that share their work over MPI ranks (damka-match) are built with MPI's
# flags (Open MPI's mpicc --showme; Debian's libopenmpi-dev) in build/<cfg>-mpi/; the engine
# itself never links MPI. `make damka-match-mpi` is the usual way (docs/cluster.md).
ifeq ($(MPI),1)
  MPI_DIR    := -mpi
  MPI_CFLAGS := -DDAMKA_MPI $(shell mpicc --showme:compile 2>/dev/null)
  MPI_LIBS   := $(shell mpicc --showme:link 2>/dev/null)
endif

# Builds for another ARCH live apart, so that switching does not mix objects.
ARCH_DIR := $(if $(filter native,$(ARCH)),,-$(ARCH))
BUILD    := build/$(CFG)$(ARCH_DIR)$(MPI_DIR)
# The built-in evaluation weights: one file in weights/, named by the start of its SHA-256
# (tools/ship_weights.sh puts a trained file there), built in by src/eval_builtin.c.
EVAL_WEIGHTS := $(wildcard weights/eval-*.bin)
ifneq ($(words $(EVAL_WEIGHTS)),1)
  $(error weights/ must hold exactly one eval-<hash>.bin, it holds: $(EVAL_WEIGHTS))
endif

EVAL_WEIGHTS_DEF := -DEVAL_WEIGHTS_FILE='"$(EVAL_WEIGHTS)"'

CFLAGS_ALL := $(CSTD) $(WARN) $(OPT) -Iinclude -MMD -MP -DDAMKA_ARCH='"$(ARCH)"' \
              -DDAMKA_DATADIR='"$(DATADIR)"' $(EVAL_WEIGHTS_DEF) $(EXTRA_CFLAGS)
LDLIBS   := -lpthread -lm

ENGINE_SRC := $(filter-out src/main.c,$(wildcard src/*.c))
ENGINE_OBJ := $(ENGINE_SRC:src/%.c=$(BUILD)/%.o)
MATCH_SRC  := $(filter-out tools/match/main.c,$(wildcard tools/match/*.c))
MATCH_OBJ  := $(MATCH_SRC:tools/match/%.c=$(BUILD)/match/%.o)
MATCH_LIB  := $(BUILD)/libmatch.a
TEST_SRC   := $(wildcard tests/*.c)
FAKE_ENGINES := $(BUILD)/fake/fake_engine
TEST_OBJ   := $(TEST_SRC:tests/%.c=$(BUILD)/tests/%.o)
LIB        := $(BUILD)/libengine.a

CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   = $(shell pkg-config --libs check 2>/dev/null)

# damka-gui: the web GUI's server, on libmicrohttpd (Debian libmicrohttpd-dev; make deps).
MHD_CFLAGS = $(shell pkg-config --cflags libmicrohttpd 2>/dev/null)
MHD_LIBS   = $(shell pkg-config --libs libmicrohttpd 2>/dev/null)
HAVE_MHD   = $(shell pkg-config --exists libmicrohttpd 2>/dev/null && echo yes)
GUI_SRC    := $(wildcard tools/gui/*.c)
GUI_OBJ    := $(GUI_SRC:tools/gui/%.c=$(BUILD)/gui/%.o) $(BUILD)/gui/assets.o
GUI_ASSETS := $(sort $(wildcard tools/gui/assets/*))

# A top-level binary follows the last build (of any ARCH): it is replaced only when it differs,
# and by a rename, never written in place, so that make works while ./damka, ./damka-gui or
# ./damka-egdb runs (writing over a running program fails with "Text file busy").
define install_bin
	@cmp -s $< $@ || { cp $< $@.tmp && mv -f $@.tmp $@ && echo "updated $@"; }
endef

.PHONY: all release debug test perft bench bench-check asan ubsan tsan pgo format lint \
        check-layers format-check clean install install-check deps gui-missing FORCE test-gui egdb egdb-test-set test-egdb datagen train tune ship-weights test-run openings book fuzz fuzz-run latency shortest test-busy-build windows test-windows damka-match-mpi damka-datagen-mpi damka-egdb-mpi test-mpi

all: damka damka-match damka-egdb damka-datagen damka-train damka-train-net damka-book $(if $(HAVE_MHD),damka-gui,gui-missing)

# The endgame database generator (tools/egdb/) and the databases: `make egdb` builds every
# balance of up to PIECES pieces into egdb/ (resumable: finished files are kept).
PIECES ?= 5
damka-egdb: $(BUILD)/damka-egdb FORCE
	$(install_bin)

$(BUILD)/damka-egdb: $(BUILD)/egdb/gen.o $(MATCH_LIB) $(LIB)
	$(CC) $(CFLAGS_ALL) -o $@ $^ $(LDLIBS) $(MPI_LIBS)

$(BUILD)/egdb/%.o: tools/egdb/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Itools/match -c -o $@ $<

# damka-egdb over MPI ranks: ./damka-egdb-mpi (balances handed out as their dependencies finish).
damka-egdb-mpi: FORCE
	@sh tools/apt_need.sh damka-egdb-mpi "command -v mpicc" openmpi-bin libopenmpi-dev
	$(MAKE) MPI=1 build/release-mpi/damka-egdb
	@cmp -s build/release-mpi/damka-egdb $@ || { cp build/release-mpi/damka-egdb $@.tmp && \
	    mv -f $@.tmp $@ && echo "updated $@"; }

egdb: damka-egdb
	./damka-egdb --pieces $(PIECES) --dir egdb

# Self-play training data (tools/datagen/): quiet positions with the search's score and the
# game's result, in the 16-byte records documented in datagen.c.
damka-datagen: $(BUILD)/damka-datagen FORCE
	$(install_bin)

$(BUILD)/damka-datagen: $(BUILD)/datagen/datagen.o $(BUILD)/datagen/record.o \
                       $(BUILD)/datagen/args.o $(BUILD)/datagen/merge.o $(MATCH_LIB) $(LIB)
	$(CC) $(CFLAGS_ALL) -o $@ $^ $(LDLIBS) $(MPI_LIBS)

# damka-datagen over MPI ranks: ./damka-datagen-mpi (rank r plays seed + r; rank 0 merges).
damka-datagen-mpi: FORCE
	@sh tools/apt_need.sh damka-datagen-mpi "command -v mpicc" openmpi-bin libopenmpi-dev
	$(MAKE) MPI=1 build/release-mpi/damka-datagen
	@cmp -s build/release-mpi/damka-datagen $@ || { cp build/release-mpi/damka-datagen $@.tmp && \
	    mv -f $@.tmp $@ && echo "updated $@"; }

# The opening book's builder (tools/book/).
damka-book: $(BUILD)/damka-book FORCE
	$(install_bin)

$(BUILD)/damka-book: $(BUILD)/book/book.o $(MATCH_LIB) $(LIB)
	$(CC) $(CFLAGS_ALL) -o $@ $^ $(LDLIBS)

$(BUILD)/book/%.o: tools/book/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Itools/match -c -o $@ $<

# The shipped opening book (book/damka.book, found with no option): drop-out expansion from the
# start position to BOOK_PLIES plies at BOOK_NODES nodes a position, then from each position of
# the FMJD Drawing Table (the tournament openings) BOOK_FMJD_PLIES plies further, merged.
# Resumable (rerun: each part keeps a .state file until it is done). Budgets: bench/RESULTS.md.
# BOOK_LINES: the MultiPV lines that share BOOK_NODES; BOOK_DIR and BOOK_OUT: where the parts
# and the book go (a trial book beside the shipped one: BOOK_DIR=build/book2
# BOOK_OUT=build/book2/damka.book).
BOOK_PLIES      ?= 12
BOOK_FMJD_PLIES ?= 4
BOOK_NODES      ?= 500000
BOOK_LINES      ?= 8
BOOK_DIR        ?= build/book
BOOK_OUT        ?= book/damka.book
book: damka-book
	@mkdir -p $(BOOK_DIR)
	./damka-book --expand --out $(BOOK_DIR)/start.book --plies $(BOOK_PLIES) --nodes $(BOOK_NODES) \
	    --margin 30 --threads 2 --lines $(BOOK_LINES)
	./damka-book --expand --out $(BOOK_DIR)/fmjd.book --plies $(BOOK_FMJD_PLIES) \
	    --nodes $(BOOK_NODES) --margin 30 --threads 2 --lines $(BOOK_LINES) \
	    --openings book/openings/fmjd-64.txt
	./damka-book --merge $(BOOK_DIR)/start.book $(BOOK_DIR)/fmjd.book --out $(BOOK_OUT)
	./damka-book --stats $(BOOK_OUT)

# The trainer (tools/train/): fits the evaluation's weights to those records.
damka-train: $(BUILD)/damka-train FORCE
	$(install_bin)

$(BUILD)/damka-train: $(BUILD)/train/train.o $(BUILD)/datagen/record.o $(BUILD)/datagen/args.o \
                     $(LIB)
	$(CC) $(CFLAGS_ALL) -o $@ $^ $(LDLIBS)

# The network's trainer (tools/train/net_train.c): the evaluation network from the same records.
damka-train-net: $(BUILD)/damka-train-net FORCE
	$(install_bin)

$(BUILD)/damka-train-net: $(BUILD)/train/net_train.o $(BUILD)/datagen/record.o \
                         $(BUILD)/datagen/args.o $(LIB)
	$(CC) $(CFLAGS_ALL) -o $@ $^ $(LDLIBS) -lpthread

$(BUILD)/train/%.o: tools/train/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Itools/datagen -c -o $@ $<

$(BUILD)/datagen/%.o: tools/datagen/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Itools/match -c -o $@ $<

# The evaluation's training pipeline (README, "Training the evaluation"): self-play data with
# the engine as built (or with EVAL_FILE's weights), then the trainer, which writes the weights
# file and the built-in weights' source. Resumable: datagen continues its file, and train only
# reads. Round N's data goes to data/roundN.bin; the trainer reads rounds TRAIN_FROM..N.
ROUND       ?= 1
DATA_GAMES  ?= 330000
DATA_NODES  ?= 1000
DATA_SEED   ?= $(ROUND)
DATA_PLIES  ?= $(if $(filter 1,$(ROUND)),4,8)
# 1: also keep the positions where only the side not to move can capture (round 10 on).
DATA_THREATENED ?= 0
# A folder of endgame databases the data's searches probe (empty: none).
DATA_EGDB   ?=
TRAIN_ARGS  ?= --epochs 20 --lambda 0.5 --l2 0.0001 --lr 1 --lr-final 0.03 --batch 16384 \
               --holdout-block 4096
# The trainer reads the data of rounds TRAIN_FROM..ROUND.
TRAIN_FROM  ?= 1
# Round 1 plays with the hand-set weights, round N with the weights round N-1 trained; the
# trainer starts from the same weights, so that what it writes does not depend on the built-in
# weights of the moment (from the same data file, the same weights; README says why regenerated
# data is not the same bytes).
PREV_ROUND   = $(shell expr $(ROUND) - 1)
EVAL_FILE   ?= $(if $(filter 1,$(ROUND)),data/weights-handset.bin,data/weights-round$(PREV_ROUND).bin)
datagen: damka-datagen damka-train
	@mkdir -p data
	$(if $(filter 1,$(ROUND)),./damka-train --handset-out data/weights-handset.bin)
	./damka-datagen --out data/round$(ROUND).bin --games $(DATA_GAMES) --threads 2 \
	    --nodes $(DATA_NODES) --jitter 25 --random-plies $(DATA_PLIES) --seed $(DATA_SEED) \
	    --eval-file $(EVAL_FILE) --threatened $(DATA_THREATENED) $(if $(DATA_EGDB),--egdb $(DATA_EGDB))

train: damka-train
	./damka-train $(foreach r,$(shell seq $(TRAIN_FROM) $(ROUND)),--data data/round$(r).bin) $(TRAIN_ARGS) \
	    --init $(EVAL_FILE) --threads 2 --out data/weights-round$(ROUND).bin \
	    | tee data/train-round$(ROUND).log

# Makes round ROUND's weights the built-in ones (weights/eval-<hash>.bin); then make, and
# commit with the new bench count.
ship-weights:
	sh tools/ship_weights.sh data/weights-round$(ROUND).bin

tune: datagen
	$(MAKE) train

gui-missing:
	@echo "note: damka-gui not built: it needs libmicrohttpd (make deps installs libmicrohttpd-dev)"

damka-gui: $(BUILD)/damka-gui FORCE
	$(install_bin)

$(BUILD)/damka-gui: $(GUI_OBJ) $(MATCH_LIB) $(LIB)
	$(CC) $(CFLAGS_ALL) -o $@ $^ $(MHD_LIBS) $(LDLIBS)

$(BUILD)/gui/%.o: tools/gui/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Itools/match -Itools/gui $(MHD_CFLAGS) -c -o $@ $<

# The page's files are compiled in: damka-gui serves them from memory, installed or not.
$(BUILD)/gui/assets.c: tools/gui/embed.sh $(GUI_ASSETS)
	@mkdir -p $(dir $@)
	sh tools/gui/embed.sh $(GUI_ASSETS) > $@

$(BUILD)/gui/assets.o: $(BUILD)/gui/assets.c
	$(CC) $(CFLAGS_ALL) -Itools/match -Itools/gui -c -o $@ $<

damka-match: $(BUILD)/damka-match FORCE
	$(install_bin)

$(BUILD)/damka-match: $(BUILD)/match/main.o $(MATCH_LIB) $(LIB)
	$(CC) $(CFLAGS_ALL) -o $@ $^ $(LDLIBS) $(MPI_LIBS)

# damka-match over MPI ranks on this machine (tools/mpi_test.sh; about a minute).
test-mpi: damka-match-mpi damka-datagen-mpi damka-egdb-mpi damka-match damka-datagen damka-egdb \
          damka
	sh tools/mpi_test.sh ./damka-match-mpi ./damka-match ./damka ./damka-datagen-mpi ./damka-datagen \
	    ./damka-egdb-mpi ./damka-egdb

# damka-match over MPI ranks: ./damka-match-mpi (installs Open MPI as root when missing).
damka-match-mpi: FORCE
	@sh tools/apt_need.sh damka-match-mpi "command -v mpicc" openmpi-bin libopenmpi-dev
	$(MAKE) MPI=1 build/release-mpi/damka-match
	@cmp -s build/release-mpi/damka-match $@ || { cp build/release-mpi/damka-match $@.tmp && \
	    mv -f $@.tmp $@ && echo "updated $@"; }

$(MATCH_LIB): $(MATCH_OBJ)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/match/%.o: tools/match/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) $(if $(filter cluster,$*),$(MPI_CFLAGS)) -Itools/match -c -o $@ $<

damka: $(BUILD)/damka FORCE
	$(install_bin)

FORCE:

$(BUILD)/damka: $(BUILD)/main.o $(LIB)
	$(CC) $(CFLAGS_ALL) -o $@ $^ $(LDLIBS)

$(LIB): $(ENGINE_OBJ)
	rm -f $@
	ar rcs $@ $^

$(BUILD)/%.o: src/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -I$(BUILD) -c -o $@ $<

# The bench positions are compiled in: each FEN line of bench/positions.txt becomes a string.
# One rule makes both the engine's copy and the fuzz harnesses' copy.
$(BUILD)/bench_positions.h build/fuzz/bench_positions.h build/windows/bench_positions.h: \
    bench/positions.txt
	@mkdir -p $(dir $@)
	sed -n 's/^\([WB]:[^#]*[^# ]\).*$$/"\1",/p' $< > $@

$(BUILD)/bench.o: $(BUILD)/bench_positions.h

$(BUILD)/eval_builtin.o: $(EVAL_WEIGHTS)

$(BUILD)/tests/%.o: tests/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Itools/match -Itools/datagen $(CHECK_CFLAGS) \
	    -DDATA_DIR='"$(CURDIR)/tests/data"' -c -o $@ $<

# A misbehaving engine for the match runner's tests.
$(BUILD)/fake/fake_engine: tests/fake/fake_engine.c $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -o $@ $(filter %.c %.a,$^) $(LDLIBS)

$(BUILD)/check_damka: $(TEST_OBJ) $(BUILD)/datagen/record.o $(MATCH_LIB) $(LIB)
	$(CC) $(CFLAGS_ALL) -o $@ $^ $(CHECK_LIBS) $(LDLIBS)

debug:
	$(MAKE) CFG=debug $(BUILD:build/release=build/debug)/damka

# Installs Check and pkg-config when missing (with apt-get as root), else says what to install.
deps:
	@sh tools/deps.sh

# Quiet but for what it checks: the build's commands are not echoed (errors and warnings are).
test: deps
	@echo "== make test: building the $(if $(filter release,$(CFG)),debug,$(CFG)) engine, its tools and the tests"
	@$(MAKE) -s --no-print-directory CFG=$(if $(filter release,$(CFG)),debug,$(CFG)) test-run

# The test suite reads the endgame databases of up to 4 pieces, built (seconds, by the
# optimised generator, kept between runs) and checked value by value against their successors.
EGDB_TEST_DIR := $(CURDIR)/build/egdb-test
egdb-test-set:
	@$(MAKE) -s --no-print-directory CFG=release build/release/damka-egdb
	@echo "== endgame databases of up to 4 pieces for the tests ($(EGDB_TEST_DIR), log in $(EGDB_TEST_DIR).log)"
	@build/release/damka-egdb --pieces 4 --dir $(EGDB_TEST_DIR) --verify > $(EGDB_TEST_DIR).log 2>&1 || \
	    { cat $(EGDB_TEST_DIR).log; exit 1; }
	@tail -n 1 $(EGDB_TEST_DIR).log

test-run: $(BUILD)/check_damka $(BUILD)/damka $(BUILD)/damka-match $(BUILD)/damka-gui \
          $(BUILD)/damka-train $(BUILD)/damka-train-net $(BUILD)/damka-datagen $(BUILD)/damka-book \
          $(FAKE_ENGINES) \
          egdb-test-set
	@echo "== the Check suites ($(BUILD)): rules and move generation, notation, engine, matches,"
	@echo "   protocol, GUI server, endgame databases, evaluation and its tools. Lines on stderr"
	@echo "   about corrupt or refused files come from tests that damage files on purpose."
	@DAMKA_BIN=$(CURDIR)/$(BUILD)/damka DAMKA_MATCH=$(CURDIR)/$(BUILD)/damka-match \
	    DAMKA_TRAIN=$(CURDIR)/$(BUILD)/damka-train DAMKA_TRAIN_NET=$(CURDIR)/$(BUILD)/damka-train-net \
	    DAMKA_DATAGEN=$(CURDIR)/$(BUILD)/damka-datagen \
	    DAMKA_BOOK=$(CURDIR)/$(BUILD)/damka-book \
	    TRAIN_SAMPLE=$(CURDIR)/tests/data/train-sample.bin \
	    DAMKA_GUI=$(CURDIR)/$(BUILD)/damka-gui FAKE_DIR=$(CURDIR)/$(BUILD)/fake \
	    EGDB_DIR=$(EGDB_TEST_DIR) $(BUILD)/check_damka

# The tests that need the full databases (make egdb, or make egdb PIECES=6) in egdb/: the
# textbook endings of 5 and 6 pieces.
test-egdb: $(BUILD)/check_damka egdb-test-set
	CK_RUN_SUITE=egdb EGDB_DIR=$(EGDB_TEST_DIR) EGDB_FULL_DIR=$(CURDIR)/egdb $(BUILD)/check_damka

perft: damka
	sh tools/perft_suite.sh ./damka 12

asan:
	$(MAKE) CFG=asan test-run
ubsan:
	$(MAKE) CFG=ubsan test-run
tsan:
	$(MAKE) CFG=tsan test-run

bench: damka
	./damka bench

bench-check: damka
	@sh tools/bench_check.sh ./damka bench/signature

# Profile-guided ./damka: trained on bench and perft, then rebuilt with the profile.
pgo:
	rm -rf build/pgo-gen$(ARCH_DIR) build/pgo-use$(ARCH_DIR)
	$(MAKE) CFG=pgo-gen build/pgo-gen$(ARCH_DIR)/damka
	LLVM_PROFILE_FILE=$(PGO_DIR)/bench.profraw ./build/pgo-gen$(ARCH_DIR)/damka bench 13 > /dev/null
	LLVM_PROFILE_FILE=$(PGO_DIR)/perft.profraw ./build/pgo-gen$(ARCH_DIR)/damka perft 10 > /dev/null
	if [ -e $(PGO_DIR)/bench.profraw ]; then \
	    llvm-profdata merge -o $(PGO_DIR)/damka.profdata $(PGO_DIR)/*.profraw; fi
	$(MAKE) CFG=pgo-use build/pgo-use$(ARCH_DIR)/damka
	cp build/pgo-use$(ARCH_DIR)/damka damka

# Every C file of the project (the sources generated into build/ are not in these folders).
FORMAT_FILES = $(sort $(shell find src include tests tools -name '*.[ch]'))
format:
	clang-format -i $(FORMAT_FILES)

# Fails on a file that make format would change (CI runs it; installs clang-format as root).
format-check:
	@sh tools/apt_need.sh format-check "command -v clang-format" clang-format
	@clang-format --dry-run --Werror $(FORMAT_FILES) && echo "format-check: ok"

lint:
	cppcheck --quiet --enable=warning,performance,portability --std=c11 -Iinclude src tools
	clang-tidy src/*.c -- $(CSTD) -Iinclude

check-layers:
	@sh tools/check_layers.sh

# Fuzzing with libFuzzer (clang and its runtime: Debian clang, libclang-rt-14-dev).
# `make fuzz` builds the harnesses; `make fuzz-run FUZZ_SECONDS=N` runs each for N seconds
# on its corpus and replays tests/fuzz/regressions (inputs that once broke something).
FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang
FUZZ_FLAGS   := -std=c11 -D_GNU_SOURCE -g -O1 -Iinclude -fsanitize=fuzzer,address,undefined \
                -fno-sanitize-recover=all -Wno-pass-failed -DFUZZING
FUZZ_SRC     := $(filter-out src/main.c,$(wildcard src/*.c))

build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_SRC) build/fuzz/bench_positions.h $(EVAL_WEIGHTS)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(EVAL_WEIGHTS_DEF) -Ibuild/fuzz -o $@ $< $(FUZZ_SRC) -lpthread -lm

fuzz:
	@sh tools/fuzz_deps.sh
	$(MAKE) build/fuzz/fuzz_protocol build/fuzz/fuzz_notation

fuzz-run: fuzz
	sh tools/fuzz_run.sh $(FUZZ_SECONDS)

# Opening sets for matches: all 3-ply positions, and those a depth-10 search finds near equal.
$(BUILD)/make-openings: $(BUILD)/make_openings.o $(LIB)
	$(CC) $(CFLAGS_ALL) -o $@ $^ $(LDLIBS)

$(BUILD)/make_openings.o: tools/make_openings.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -c -o $@ $<

# Stop-to-bestmove latency, and go movetime 100 to bestmove with 2 threads (bench/RESULTS.md).
$(BUILD)/damka-latency: tools/latency.c $(MATCH_LIB) $(LIB)
	$(CC) $(CFLAGS_ALL) -Itools/match -o $@ $(filter %.c %.a,$^) $(LDLIBS)

# Won endings of 3-4 pieces: the engine's move at 100 ms against the shortest win, from an exact
# solver of its own (tools/shortest_win.c; bench/RESULTS.md). Needs the databases in egdb/.
$(BUILD)/damka-shortest: tools/shortest_win.c $(LIB)
	$(CC) $(CFLAGS_ALL) -o $@ $(filter %.c %.a,$^) $(LDLIBS)

shortest: $(BUILD)/damka-shortest
	$(BUILD)/damka-shortest egdb 200 100 1

latency: damka $(BUILD)/damka-latency
	$(BUILD)/damka-latency ./damka 100 1
	$(BUILD)/damka-latency ./damka 100 2
	$(BUILD)/damka-latency ./damka 1000 2 100
	$(BUILD)/damka-latency ./damka 20 1 first

openings: $(BUILD)/make-openings
	$(BUILD)/make-openings 3 > book/openings/3ply.txt
	$(BUILD)/make-openings 4 10 40 > book/openings/4ply-balanced.txt

# Installed like a Debian program: binaries, the opening sets (found by damka-match by name),
# the opening book and the endgame databases built in egdb/ (both found by the engine with no
# option) under share/damka/, and the man pages.
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(DATADIR)/openings $(DESTDIR)$(MANDIR)
	install -m 755 damka $(DESTDIR)$(PREFIX)/bin/damka
	install -m 755 damka-match $(DESTDIR)$(PREFIX)/bin/damka-match
	if [ -x damka-gui ]; then install -m 755 damka-gui $(DESTDIR)$(PREFIX)/bin/damka-gui; fi
	install -m 644 book/openings/*.txt $(DESTDIR)$(DATADIR)/openings/
	if [ -f book/damka.book ]; then install -m 644 book/damka.book $(DESTDIR)$(DATADIR)/; fi
	install -m 644 man/damka.6 man/damka-match.6 $(DESTDIR)$(MANDIR)/
	if [ -x damka-gui ]; then install -m 644 man/damka-gui.6 $(DESTDIR)$(MANDIR)/; fi
	if ls egdb/*.dkb >/dev/null 2>&1; then install -d $(DESTDIR)$(DATADIR)/egdb && \
	    install -m 644 egdb/*.dk[bl] $(DESTDIR)$(DATADIR)/egdb/; fi

# The GUI in a real browser: headless Chromium plays a game on the page, imports PDN, analyses
# (tools/gui/browser_test.py); screenshots go to build/test-gui/. GUI_LATENCY=N also plays N
# moves against the engine at movetime 100 and reports the reply time and the server at rest.
GUI_LATENCY ?= 0
test-gui: deps damka damka-gui
	@sh tools/gui/deps.sh
	python3 tools/gui/browser_test.py ./damka-gui ./damka build/test-gui \
	    $(if $(filter-out 0,$(GUI_LATENCY)),--latency $(GUI_LATENCY))

# make while ./damka runs (tools/busy_build_check.sh): the binary is replaced, not written over.
test-busy-build:
	sh tools/busy_build_check.sh

# Windows builds from Linux with MinGW-w64 (Debian's gcc-mingw-w64-x86-64 and -i686, the POSIX
# thread model: winpthreads, linked in statically, so that the engine library keeps its
# pthreads and needs no DLL beside it). build/windows/x64: damka.exe (both text dialects) and
# damka.dll (the CheckerBoard and Kallisto interfaces, src/cb.c and src/ei.c); build/windows/x86
# the same for 32-bit hosts (the Kallisto GUI and CheckerBoard before its 64-bit builds), made
# when the i686 compiler is installed. The portable x86-64 (and i686) instruction sets: any PC.
WIN_CC_x64 := x86_64-w64-mingw32-gcc-posix
WIN_CC_x86 := i686-w64-mingw32-gcc-posix
WIN_ARCH_x64 := -march=x86-64-v2 -mtune=generic
WIN_ARCH_x86 := -march=i686 -mtune=generic -msse2
WIN_OBJ_NAMES := $(ENGINE_SRC:src/%.c=%.o)
# The DLL exports the names the GUIs ask for, undecorated (stdcall decorates them on 32 bits).
WIN_DLL_FLAGS := -shared -Wl,--kill-at
WIN_LIBS := -static -lpthread

define WIN_RULES
build/windows/$(1)/%.o: src/%.c
	@mkdir -p $$(dir $$@)
	$$(WIN_CC_$(1)) $(CSTD) $(WARN) -O3 -DNDEBUG $$(WIN_ARCH_$(1)) -Iinclude -Ibuild/windows \
	    -DDAMKA_ARCH='"windows-$(1)"' -DDAMKA_DATADIR='"share/damka"' $(EVAL_WEIGHTS_DEF) \
	    $(EXTRA_CFLAGS) -MMD -MP -c -o $$@ $$<
build/windows/$(1)/bench.o: build/windows/bench_positions.h
build/windows/$(1)/eval_builtin.o: $(EVAL_WEIGHTS)
build/windows/$(1)/libengine.a: $(addprefix build/windows/$(1)/,$(WIN_OBJ_NAMES))
	rm -f $$@
	$$(WIN_CC_$(1):gcc-posix=ar) rcs $$@ $$^
build/windows/$(1)/damka.exe: build/windows/$(1)/main.o build/windows/$(1)/libengine.a
	$$(WIN_CC_$(1)) -o $$@ $$^ $(WIN_LIBS)
build/windows/$(1)/damka.dll: build/windows/$(1)/cb.o build/windows/$(1)/ei.o \
    build/windows/$(1)/plugin.o build/windows/$(1)/libengine.a
	$$(WIN_CC_$(1)) $(WIN_DLL_FLAGS) -o $$@ $$^ $(WIN_LIBS)
# The test host: loads the DLL as the GUIs do and plays games (tests/windows/dll_host.c).
build/windows/$(1)/dll_host.exe: tests/windows/dll_host.c build/windows/$(1)/libengine.a
	$$(WIN_CC_$(1)) $(CSTD) $(WARN) -O2 $$(WIN_ARCH_$(1)) -Iinclude -o $$@ $$^ $(WIN_LIBS)
endef
$(eval $(call WIN_RULES,x64))
$(eval $(call WIN_RULES,x86))

HAVE_WIN_x86 = $(shell command -v $(WIN_CC_x86) >/dev/null 2>&1 && echo yes)
windows:
	@sh tools/apt_need.sh windows "command -v $(WIN_CC_x64)" gcc-mingw-w64-x86-64
	$(MAKE) build/windows/x64/damka.exe build/windows/x64/damka.dll
	$(if $(HAVE_WIN_x86),$(MAKE) build/windows/x86/damka.exe build/windows/x86/damka.dll,\
	    @echo "windows: no i686 compiler (gcc-mingw-w64-i686): the 32-bit build is skipped")
	@# The opening book beside the exe and the DLL, where they find it with no option.
	@if [ -f book/damka.book ]; then for d in build/windows/x64 build/windows/x86; do \
	    if [ -d $$d ]; then cp book/damka.book $$d/; fi; done; fi

# Under Wine (Debian's wine64): the DLL loaded by a host as the GUIs load it, 20 games, and
# damka.exe through the protocol tests of the Linux binary. Installs what is missing as root.
test-windows: windows build/windows/x64/dll_host.exe $(BUILD)/check_damka
	@sh tools/apt_need.sh test-windows "command -v wine" wine wine64
	sh tools/windows_test.sh $(BUILD)/check_damka

# Installs into a scratch directory and runs the installed programs (tools/install_check.sh).
install-check: damka damka-match
	@sh tools/install_check.sh

clean:
	rm -rf build damka damka-match damka-match-mpi damka-datagen-mpi damka-egdb-mpi damka-gui damka-egdb damka-datagen damka-train damka-train-net \
	    damka-book

-include $(wildcard $(BUILD)/*.d $(BUILD)/tests/*.d $(BUILD)/match/*.d $(BUILD)/gui/*.d \
                     $(BUILD)/egdb/*.d $(BUILD)/datagen/*.d $(BUILD)/train/*.d $(BUILD)/book/*.d \
                     build/windows/*/*.d)
