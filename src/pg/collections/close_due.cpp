// Closing a collection's due epochs in bounded chunks (docs/collections.md#closing-epochs),
// the collections' clock, and the columns of a summary call.
//
// ldp.close_due_epochs is a C procedure: a PL/pgSQL procedure whose function pins
// search_path cannot COMMIT, and the catalog's privileged twins all pin it. It calls
// ldp._close_due_chunk(caller, name, epochs) again and again, each call closing at most
// `epochs` epochs that have reports (the newest due ones first; a run of empty epochs
// costs one probe and no row) as the catalog's owner, as ldp_privileged does
// (common/privileged.cpp); when the CALL may commit (not inside a transaction block or
// a function) it commits after each chunk, so that a call stopped by statement_timeout
// keeps the chunks it closed. Each call works for a bounded time: half of
// statement_timeout when one is set, else 60 seconds; a NOTICE says when more is due.
// The number of epochs per chunk adapts to the time a stored epoch takes (a quarter of
// the budget per chunk); the chunk function caps it by the size of the collection's
// stored summaries (memory).
//
// Plain C style: PostgreSQL errors longjmp through these frames.
#include "pg/common/glue.hpp"  // postgres.h first

extern "C" {
#include "access/htup_details.h"
#include "access/xact.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "nodes/parsenodes.h"
#include "parser/parse_func.h"
#include "parser/parser.h"
#include "storage/proc.h"
#include "utils/array.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/timestamp.h"

// collection.cpp: checks a summary call ({schema, function}) or raises its refusal
PGDLLEXPORT Datum ldp_collection_summary_call(PG_FUNCTION_ARGS);
}

namespace {

// ldp.clock_offset (seconds; superuser only): added to now() wherever the collections
// code asks what time it is. A testing aid: it moves the collections' notion of now
// (a clock that runs ahead, then is stepped back) without touching the machine's.
int clock_offset_s = 0;

TimestampTz collection_now() {
  return GetCurrentTransactionStartTimestamp() + static_cast<int64>(clock_offset_s) * USECS_PER_SEC;
}

}  // namespace

void ldp_pg::define_collection_settings() {
  DefineCustomIntVariable("ldp.clock_offset",
                          "Seconds added to now() by the collections' closes (a testing aid).",
                          "Moves the time at which ldp's collections see epochs end, without "
                          "touching the machine's clock. Superuser only.",
                          &clock_offset_s, 0, -INT_MAX, INT_MAX, PGC_SUSET, GUC_UNIT_S, nullptr,
                          nullptr, nullptr);
}

// ldp.collection_clock() → timestamptz: now() + ldp.clock_offset.
LDP_FUNCTION(ldp_collection_clock) { PG_RETURN_TIMESTAMPTZ(collection_now()); }

// ldp.collection_summary_columns(summary text) → text[]: the column names among the
// arguments of a collection's summary call (checked by collection_summary_call first),
// in order, each once. A row whose columns are all NULL is no report: the aggregates
// skip it (and refuse one that is NULL in only some of them).
LDP_FUNCTION(ldp_collection_summary_columns) {
  text* summary = PG_GETARG_TEXT_PP(0);
  (void)DirectFunctionCall1(ldp_collection_summary_call, PointerGetDatum(summary));
  StringInfoData sql;
  initStringInfo(&sql);
  appendStringInfoString(&sql, "SELECT ");
  appendBinaryStringInfo(&sql, VARDATA_ANY(summary), VARSIZE_ANY_EXHDR(summary));
  List* stmts = raw_parser(sql.data, RAW_PARSE_DEFAULT);
  auto* sel = reinterpret_cast<SelectStmt*>(linitial_node(RawStmt, stmts)->stmt);
  auto* call = reinterpret_cast<FuncCall*>(linitial_node(ResTarget, sel->targetList)->val);
  Datum names[FUNC_MAX_ARGS];
  int n = 0;
  ListCell* lc;
  foreach (lc, call->args) {
    Node* arg = static_cast<Node*>(lfirst(lc));
    for (;;) {  // through name => value and casts (collection_summary_call allows no more)
      if (IsA(arg, NamedArgExpr)) arg = reinterpret_cast<Node*>(reinterpret_cast<NamedArgExpr*>(arg)->arg);
      else if (IsA(arg, TypeCast)) arg = reinterpret_cast<TypeCast*>(arg)->arg;
      else break;
    }
    if (!IsA(arg, ColumnRef) || n >= FUNC_MAX_ARGS) continue;
    const char* name = strVal(linitial(reinterpret_cast<ColumnRef*>(arg)->fields));
    bool seen = false;
    for (int i = 0; i < n && !seen; ++i) seen = strcmp(TextDatumGetCString(names[i]), name) == 0;
    if (!seen) names[n++] = CStringGetTextDatum(name);
  }
  PG_RETURN_ARRAYTYPE_P(construct_array(names, n, TEXTOID, -1, false, TYPALIGN_INT));
}

namespace {

// The chunk function and its owner (the catalog's owner), found next to the procedure.
struct ChunkFunction {
  Oid owner;
  char* qualified;  // "schema._close_due_chunk"
};

ChunkFunction chunk_function(Oid procedure) {
  char* schema = get_namespace_name(get_func_namespace(procedure));
  Oid argtypes[3] = {REGROLEOID, TEXTOID, INT4OID};
  List* name = list_make2(makeString(schema), makeString(pstrdup("_close_due_chunk")));
  Oid chunk = LookupFuncName(name, 3, argtypes, false);
  HeapTuple tp = SearchSysCache1(PROCOID, ObjectIdGetDatum(chunk));
  if (!HeapTupleIsValid(tp)) elog(ERROR, "ldp: cache lookup failed for function %u", chunk);
  Oid owner = reinterpret_cast<Form_pg_proc>(GETSTRUCT(tp))->proowner;
  ReleaseSysCache(tp);
  return ChunkFunction{owner, psprintf("%s._close_due_chunk", quote_identifier(schema))};
}

}  // namespace

// CALL ldp.close_due_epochs(name text)
LDP_FUNCTION(ldp_close_due_epochs) {
  if (PG_ARGISNULL(0))
    ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                    errmsg("close_due_epochs needs a collection name")));
  bool nonatomic = fcinfo->context != nullptr && IsA(fcinfo->context, CallContext) &&
                   !castNode(CallContext, fcinfo->context)->atomic;
  Oid caller = GetUserId();
  TimestampTz started = GetCurrentTimestamp();
  // statement_timeout counts from the CALL's start, across the commits
  int64 budget_ms = StatementTimeout > 0 ? StatementTimeout / 2 : 60000;

  if (SPI_connect_ext(nonatomic ? SPI_OPT_NONATOMIC : 0) != SPI_OK_CONNECT)
    elog(ERROR, "ldp: SPI_connect failed");
  // in SPI's procedure context, which outlives the commits
  char* name = text_to_cstring(PG_GETARG_TEXT_PP(0));
  ChunkFunction fn = chunk_function(fcinfo->flinfo->fn_oid);
  char* query = psprintf("SELECT c.stored, c.more, c.first_epoch, c.last_epoch FROM %s($1, $2, $3) c",
                         fn.qualified);
  Oid types[3] = {REGROLEOID, TEXTOID, INT4OID};

  int32 epochs = 8;  // per chunk, adapted below
  double per_epoch_ms = -1;
  int64 stored = 0, chunks = 0, first = 0, last = 0;
  bool more = true, any = false;
  while (more) {
    Datum args[3] = {ObjectIdGetDatum(caller), CStringGetTextDatum(name), Int32GetDatum(epochs)};
    TimestampTz t0 = GetCurrentTimestamp();
    Oid save_user;
    int save_sec;
    GetUserIdAndSecContext(&save_user, &save_sec);
    SetUserIdAndSecContext(fn.owner, save_sec | SECURITY_LOCAL_USERID_CHANGE);
    PG_TRY();
    {
      if (SPI_execute_with_args(query, 3, types, args, nullptr, false, 1) != SPI_OK_SELECT || SPI_processed != 1)
        elog(ERROR, "ldp: %s returned no row", fn.qualified);
    }
    PG_FINALLY();
    { SetUserIdAndSecContext(save_user, save_sec); }
    PG_END_TRY();
    bool isnull[4];
    HeapTuple row = SPI_tuptable->vals[0];
    TupleDesc desc = SPI_tuptable->tupdesc;
    int64 n = DatumGetInt64(SPI_getbinval(row, desc, 1, &isnull[0]));
    more = DatumGetBool(SPI_getbinval(row, desc, 2, &isnull[1]));
    Datum lo = SPI_getbinval(row, desc, 3, &isnull[2]);
    Datum hi = SPI_getbinval(row, desc, 4, &isnull[3]);
    if (!isnull[2] && !isnull[3]) {
      int64 l = DatumGetInt64(lo), h = DatumGetInt64(hi);
      first = any ? Min(first, l) : l;
      last = any ? Max(last, h) : h;
      any = true;
    }
    stored += n;
    ++chunks;
    SPI_freetuptable(SPI_tuptable);
    if (nonatomic) SPI_commit();  // the chunk is kept whatever happens next

    // The next chunk: a quarter of the budget at the last chunk's cost per stored epoch
    // (doubling while nothing was stored), never more than the time left; none when not
    // even one epoch fits in it.
    double took_ms = static_cast<double>(GetCurrentTimestamp() - t0) / 1000.0;
    if (n > 0) per_epoch_ms = took_ms / static_cast<double>(n);
    double left_ms = static_cast<double>(budget_ms) - static_cast<double>(GetCurrentTimestamp() - started) / 1000.0;
    if (left_ms <= 0 || (per_epoch_ms > 0 && per_epoch_ms > left_ms)) break;
    if (per_epoch_ms > 0)
      epochs = static_cast<int32>(Max(1.0, Min(4096.0, Min(static_cast<double>(budget_ms) / 4, left_ms) / per_epoch_ms)));
    else
      epochs = Min(epochs * 2, 4096);
    CHECK_FOR_INTERRUPTS();
  }
  SPI_finish();
  if (more)
    ereport(NOTICE,
            (any ? errmsg("collection \"%s\": closed epochs in %lld to %lld (%lld stored); more are due: call again",
                          name, static_cast<long long>(first), static_cast<long long>(last),
                          static_cast<long long>(stored))
                 : errmsg("collection \"%s\": more epochs are due: call again", name),
             errdetail("One call works for about %lld ms (half of statement_timeout, or 60 s without one), "
                       "in %lld chunk(s)%s.",
                       static_cast<long long>(budget_ms), static_cast<long long>(chunks),
                       nonatomic ? ", each committed" : " in one transaction")));
  PG_RETURN_VOID();
}
