# PGXS build of the ldp extension (C++17). `make && make install`, then
# `make installcheck` against a running server (PGHOST/PGPORT/PGUSER).
PG_CONFIG ?= pg_config

MODULE_big = ldp
EXTVERSION = 0.5.0
MODULEDIR = extension
# the current version installs as 0.1.0 plus the update scripts (no duplicated full script)
DATA = extension/ldp.control extension/ldp--0.1.0.sql extension/ldp--0.1.0--0.2.0.sql \
       extension/ldp--0.2.0--0.3.0.sql extension/ldp--0.3.0--0.4.0.sql extension/ldp--0.4.0--0.5.0.sql

CORE_SRCS = $(wildcard src/core/*/*.cpp)
PG_SRCS = $(wildcard src/pg/*/*.cpp)
OBJS = $(CORE_SRCS:.cpp=.o) $(PG_SRCS:.cpp=.o)

PG_CPPFLAGS = -Isrc/core -Isrc/pg
# -ffp-contract=off: the exact sums' fast path (ExactSum::add_hot) needs each
# floating-point operation rounded on its own.
PG_CXXFLAGS = -std=c++17 -O2 -fno-strict-aliasing -ffp-contract=off -Wno-register -Wno-missing-field-initializers
# x86-64: keep jumps from crossing or ending on 32-byte boundaries (Intel's JCC
# erratum microcode otherwise evicts such loops from the decoded-uop cache), so the
# speed of a hot loop does not swing 10-15% with where the linker happens to put it.
ifeq ($(shell uname -m),x86_64)
PG_CXXFLAGS += -Wa,-mbranches-within-32B-boundaries
endif
SHLIB_LINK = -lxxhash -lstdc++ -lm
# Extra compiler and linker flags, e.g. the sanitizer build of test/fuzz.sh:
#   make LDP_EXTRA_CXXFLAGS='-fsanitize=address,undefined ...' LDP_EXTRA_LDFLAGS='-fsanitize=address,undefined'
PG_CXXFLAGS += $(LDP_EXTRA_CXXFLAGS)
SHLIB_LINK += $(LDP_EXTRA_LDFLAGS)

REGRESS = setup upgrade forms summary mean_basic mean_errors mean_io mean_parallel freq_basic freq_errors freq_io freq_pending window collections thresh security
REGRESS_OPTS = --inputdir=. --outputdir=build/regress
ISOLATION = thresh_concurrency
ISOLATION_OPTS = --inputdir=. --outputdir=build/isolation

# No LLVM bitcode for JIT: the C++ core gains nothing from it and it would need clang.
override with_llvm = no

PGXS := $(shell $(PG_CONFIG) --pgxs)
include $(PGXS)

$(OBJS): $(wildcard src/core/*/*.hpp src/pg/*/*.hpp)

installcheck: | build/regress build/isolation
build/regress build/isolation:
	mkdir -p $@
