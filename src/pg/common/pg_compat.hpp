// What changed between PostgreSQL 15, 16, 17 and 18 for this glue, in one place: every
// PG_VERSION_NUM test of src/pg is here. Included by common/glue.hpp inside its
// extern "C" block, after postgres.h (the core has no PostgreSQL and no such tests).
#pragma once

// 16 moved the varlena macros (VARSIZE, SET_VARSIZE, VARDATA, ...) out of postgres.h.
#if PG_VERSION_NUM >= 160000
#include "varatt.h"
#endif

#include "utils/fmgroids.h"

// The built-in functions that use the session's random sequence (privileged.cpp refuses
// them in a collection's source query): random() itself, whose OID macro became
// F_RANDOM_ when 17 added random(min, max); random_normal() since 16; random(min, max)
// for int4, int8 and numeric since 17.
#if PG_VERSION_NUM >= 170000
#define LDP_SESSION_RANDOM_FUNCTIONS \
  F_RANDOM_, F_RANDOM_NORMAL, F_RANDOM_INT4_INT4, F_RANDOM_INT8_INT8, F_RANDOM_NUMERIC_NUMERIC
#elif PG_VERSION_NUM >= 160000
#define LDP_SESSION_RANDOM_FUNCTIONS F_RANDOM, F_RANDOM_NORMAL
#else
#define LDP_SESSION_RANDOM_FUNCTIONS F_RANDOM
#endif

// expression_tree_walker's callback: 15 declares it bool (*)() (a C prototype without
// arguments); 16 and later type it, tree_walker_callback = bool (*)(Node*, void*).
#if PG_VERSION_NUM >= 160000
#define LDP_TREE_WALKER(fn) (fn)
#else
#define LDP_TREE_WALKER(fn) reinterpret_cast<bool (*)()>(reinterpret_cast<void (*)()>(fn))
#endif

// 18 lets a module name itself and its version in its magic block (pg_get_loaded_modules).
#ifdef PG_MODULE_MAGIC_EXT
#define LDP_MODULE_MAGIC(ver) PG_MODULE_MAGIC_EXT(.name = "ldp", .version = ver)
#else
#define LDP_MODULE_MAGIC(ver) PG_MODULE_MAGIC
#endif
