// The privilege boundary of the catalog (README "Security and privileges").
//
// Collections and THRESH streams are rows of catalog tables owned by the role that
// installed the extension. No other role may write them directly; every function
// that changes them is declared LANGUAGE C with this file's ldp_privileged and does
// nothing but call its internal twin `ldp._<name>` as the catalog's owner, passing
// the true calling role (GetUserId(): the current user, after SET ROLE and inside
// SECURITY DEFINER functions) as an extra first argument that no caller can forge.
// The twins (PL/pgSQL, search_path pinned, EXECUTE revoked from PUBLIC) check that
// this role may do what it asks.
//
// The only code of a role that the extension ever runs is a collection's source
// query (its summary call over its source table or view). ldp._as_role runs it as
// the collection's owner inside a security-restricted operation, as PostgreSQL runs
// a materialized view's query for REFRESH: the owner's functions cannot SET ROLE back
// to whoever closes (a superuser, pg_cron's job owner), create temporary objects or
// leave settings behind.
//
// Plain C style: PostgreSQL errors longjmp through these frames.
#include "common/glue.hpp"  // postgres.h first

extern "C" {
#include "access/htup_details.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "commands/event_trigger.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "nodes/makefuncs.h"
#include "parser/parse_func.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"
#include "utils/tuplestore.h"
}

namespace {

// What the first call learns about the twin, kept in fn_extra.
struct Twin {
  Oid owner;  // the twin's owner: the role that installed the extension
  FmgrInfo flinfo;
};

Twin* twin_of(FunctionCallInfo fcinfo) {
  if (fcinfo->flinfo->fn_extra != nullptr) return static_cast<Twin*>(fcinfo->flinfo->fn_extra);
  HeapTuple tp = SearchSysCache1(PROCOID, ObjectIdGetDatum(fcinfo->flinfo->fn_oid));
  if (!HeapTupleIsValid(tp))
    elog(ERROR, "ldp: cache lookup failed for function %u", fcinfo->flinfo->fn_oid);
  auto* p = reinterpret_cast<Form_pg_proc>(GETSTRUCT(tp));
  int nargs = p->pronargs;
  if (nargs + 1 > FUNC_MAX_ARGS) elog(ERROR, "ldp: too many arguments for a privileged call");
  Oid argtypes[FUNC_MAX_ARGS];
  argtypes[0] = REGROLEOID;
  for (int i = 0; i < nargs; ++i) argtypes[i + 1] = p->proargtypes.values[i];
  char name[NAMEDATALEN + 1];  // "_" + a name; LookupFuncName refuses one that is too long
  name[0] = '_';
  strlcpy(name + 1, NameStr(p->proname), NAMEDATALEN);
  char* schema = get_namespace_name(p->pronamespace);
  Oid rettype = p->prorettype;
  bool retset = p->proretset;
  ReleaseSysCache(tp);

  // The twin lives in the same schema (never found through search_path).
  List* qualified = list_make2(makeString(schema), makeString(pstrdup(name)));
  Oid twin = LookupFuncName(qualified, nargs + 1, argtypes, false);
  tp = SearchSysCache1(PROCOID, ObjectIdGetDatum(twin));
  if (!HeapTupleIsValid(tp)) elog(ERROR, "ldp: cache lookup failed for function %u", twin);
  p = reinterpret_cast<Form_pg_proc>(GETSTRUCT(tp));
  // A procedure's twin is a function returning void, and so is an event trigger's.
  bool matches = p->proretset == retset && p->prokind == PROKIND_FUNCTION &&
                 (p->prorettype == rettype || (rettype == EVENT_TRIGGEROID && p->prorettype == VOIDOID));
  Oid owner = p->proowner;
  ReleaseSysCache(tp);
  if (!matches) elog(ERROR, "ldp: %s.%s does not match its public function", schema, name);

  auto* t = static_cast<Twin*>(MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(Twin)));
  t->owner = owner;
  fmgr_info_cxt(twin, &t->flinfo, fcinfo->flinfo->fn_mcxt);
  fcinfo->flinfo->fn_extra = t;
  return t;
}

}  // namespace

// Every administrative function and procedure: calls ldp._<its name>(caller, args...)
// as the catalog's owner. Set-returning twins fill this call's ReturnSetInfo. The
// extension's event triggers use it too: their twins (returning void) read
// pg_event_trigger_dropped_objects() / pg_event_trigger_ddl_commands(), which answer
// for the event being handled whoever calls them.
LDP_FUNCTION(ldp_privileged) {
  Twin* t = twin_of(fcinfo);
  Oid caller = GetUserId();
  LOCAL_FCINFO(inner, FUNC_MAX_ARGS);
  InitFunctionCallInfoData(*inner, &t->flinfo, fcinfo->nargs + 1, fcinfo->fncollation, nullptr,
                           fcinfo->resultinfo);
  inner->args[0].value = ObjectIdGetDatum(caller);
  inner->args[0].isnull = false;
  for (int i = 0; i < fcinfo->nargs; ++i) inner->args[i + 1] = fcinfo->args[i];

  Oid save_user;
  int save_sec;
  GetUserIdAndSecContext(&save_user, &save_sec);
  SetUserIdAndSecContext(t->owner, save_sec | SECURITY_LOCAL_USERID_CHANGE);
  Datum result;
  PG_TRY();
  { result = FunctionCallInvoke(inner); }
  PG_FINALLY();
  { SetUserIdAndSecContext(save_user, save_sec); }
  PG_END_TRY();
  if (CALLED_AS_EVENT_TRIGGER(fcinfo)) PG_RETURN_NULL();
  fcinfo->isnull = inner->isnull;
  return result;
}

// ldp._as_role(role regrole, query text, lo timestamptz, hi timestamptz) → SETOF record:
// the rows of a read-only query built by the extension from a collection's validated
// definition ($1 = lo, $2 = hi), run as `role` in a security-restricted operation
// with search_path = pg_catalog, pg_temp; settings it changes are undone. The
// caller's column list must match the query's columns. EXECUTE is not granted to
// anyone: only the privileged twins (running as the catalog's owner) call it.
LDP_FUNCTION(ldp_as_role) {
  if (PG_ARGISNULL(0) || PG_ARGISNULL(1)) elog(ERROR, "ldp._as_role: NULL role or query");
  Oid role = PG_GETARG_OID(0);
  if (!SearchSysCacheExists1(AUTHOID, ObjectIdGetDatum(role)))
    ereport(ERROR, (errcode(ERRCODE_UNDEFINED_OBJECT),
                    errmsg("role with OID %u does not exist", role)));
  char* query = text_to_cstring(PG_GETARG_TEXT_PP(1));
  Datum args[2] = {PG_ARGISNULL(2) ? (Datum)0 : PG_GETARG_DATUM(2),
                   PG_ARGISNULL(3) ? (Datum)0 : PG_GETARG_DATUM(3)};
  char nulls[2] = {PG_ARGISNULL(2) ? 'n' : ' ', PG_ARGISNULL(3) ? 'n' : ' '};
  Oid types[2] = {TIMESTAMPTZOID, TIMESTAMPTZOID};

  InitMaterializedSRF(fcinfo, MAT_SRF_USE_EXPECTED_DESC);
  auto* rsinfo = reinterpret_cast<ReturnSetInfo*>(fcinfo->resultinfo);
  TupleDesc want = rsinfo->setDesc;

  Oid save_user;
  int save_sec;
  GetUserIdAndSecContext(&save_user, &save_sec);
  int nest = NewGUCNestLevel();
  (void)set_config_option("search_path", "pg_catalog, pg_temp", PGC_USERSET, PGC_S_SESSION,
                          GUC_ACTION_SAVE, true, 0, false);
  SetUserIdAndSecContext(role, save_sec | SECURITY_LOCAL_USERID_CHANGE |
                                   SECURITY_RESTRICTED_OPERATION);
  PG_TRY();
  {
    if (SPI_connect() != SPI_OK_CONNECT) elog(ERROR, "ldp._as_role: SPI_connect failed");
    int rc = SPI_execute_with_args(query, 2, types, args, nulls, false, 0);
    if (rc != SPI_OK_SELECT) elog(ERROR, "ldp._as_role: the query is not a SELECT (%d)", rc);
    TupleDesc got = SPI_tuptable->tupdesc;
    if (got->natts != want->natts)
      elog(ERROR, "ldp._as_role: the query returns %d columns, the caller expects %d",
           got->natts, want->natts);
    for (int i = 0; i < got->natts; ++i)
      if (TupleDescAttr(got, i)->atttypid != TupleDescAttr(want, i)->atttypid)
        ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
                        errmsg("ldp._as_role: column %d of the query has type %s, the caller expects %s",
                               i + 1, format_type_be(TupleDescAttr(got, i)->atttypid),
                               format_type_be(TupleDescAttr(want, i)->atttypid))));
    for (uint64 r = 0; r < SPI_processed; ++r)
      tuplestore_puttuple(rsinfo->setResult, SPI_tuptable->vals[r]);
    SPI_finish();
  }
  PG_FINALLY();
  { SetUserIdAndSecContext(save_user, save_sec); }
  PG_END_TRY();
  AtEOXact_GUC(false, nest);  // undo every setting the role's code changed
  return (Datum)0;
}
