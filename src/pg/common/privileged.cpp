// The privilege boundary of the catalog (docs/security.md).
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
// leave settings behind. Nor may they leave anything else in the closing session:
// while the owner's code runs, the functions that would change that session's state
// (advisory locks of either kind, the random seed and sequence, a sequence's
// currval/lastval, notifications) and the commands that would (PREPARE, DEALLOCATE,
// cursors, LOAD, NOTIFY) are refused (42501), so a close leaves the session as it
// found it.
//
// Plain C style: PostgreSQL errors longjmp through these frames.
#include "pg/common/glue.hpp"  // postgres.h first

extern "C" {
#include "access/htup_details.h"
#include "catalog/objectaccess.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "commands/event_trigger.h"
#include "executor/spi.h"
#include "funcapi.h"
#include "nodes/makefuncs.h"
#include "parser/parse_func.h"
#include "tcop/cmdtag.h"
#include "tcop/utility.h"
#include "utils/fmgroids.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/regproc.h"
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

// ---- the closing session's state, while an owner's code runs (ldp._as_role) ----

int owner_code_depth = 0;  // > 0 inside ldp._as_role's query
object_access_hook_type next_object_access = nullptr;
ProcessUtility_hook_type next_process_utility = nullptr;
bool session_guards_installed = false;

// Built-in functions that change the calling session's state beyond the query: its
// advisory locks (session or transaction ones: both outlive the query), the random
// sequence, a sequence's currval and lastval, the notifications it sends at commit.
constexpr Oid kSessionFunctions[] = {
    F_PG_ADVISORY_LOCK_INT8, F_PG_ADVISORY_LOCK_SHARED_INT8, F_PG_TRY_ADVISORY_LOCK_INT8,
    F_PG_TRY_ADVISORY_LOCK_SHARED_INT8, F_PG_ADVISORY_UNLOCK_INT8, F_PG_ADVISORY_UNLOCK_SHARED_INT8,
    F_PG_ADVISORY_LOCK_INT4_INT4, F_PG_ADVISORY_LOCK_SHARED_INT4_INT4, F_PG_TRY_ADVISORY_LOCK_INT4_INT4,
    F_PG_TRY_ADVISORY_LOCK_SHARED_INT4_INT4, F_PG_ADVISORY_UNLOCK_INT4_INT4,
    F_PG_ADVISORY_UNLOCK_SHARED_INT4_INT4, F_PG_ADVISORY_UNLOCK_ALL, F_PG_ADVISORY_XACT_LOCK_INT8,
    F_PG_ADVISORY_XACT_LOCK_SHARED_INT8, F_PG_TRY_ADVISORY_XACT_LOCK_INT8,
    F_PG_TRY_ADVISORY_XACT_LOCK_SHARED_INT8, F_PG_ADVISORY_XACT_LOCK_INT4_INT4,
    F_PG_ADVISORY_XACT_LOCK_SHARED_INT4_INT4, F_PG_TRY_ADVISORY_XACT_LOCK_INT4_INT4,
    F_PG_TRY_ADVISORY_XACT_LOCK_SHARED_INT4_INT4, F_SETSEED, LDP_SESSION_RANDOM_FUNCTIONS, F_NEXTVAL,
    F_SETVAL_REGCLASS_INT8, F_SETVAL_REGCLASS_INT8_BOOL, F_PG_NOTIFY};

[[noreturn]] void refuse_in_owner_code(const char* what) {
  ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                  errmsg("cannot run %s in a collection's source query", what),
                  errdetail("ldp runs a collection's source as its owner inside the session that "
                            "closes it; %s would change that session's state, which a close must "
                            "leave as it found it.", what),
                  errhint("Take advisory locks, seeds and sequence values in the sessions that "
                          "need them, not in a collection's source.")));
}

// Function calls are checked where the executor sets each one up (ExecInitFunc
// asks this hook after its EXECUTE check), built-in or not, however deep in the
// owner's functions: before the call runs.
void guard_object_access(ObjectAccessType access, Oid class_id, Oid object_id, int sub_id, void* arg) {
  if (next_object_access != nullptr) next_object_access(access, class_id, object_id, sub_id, arg);
  if (owner_code_depth == 0 || access != OAT_FUNCTION_EXECUTE) return;
  for (Oid f : kSessionFunctions)
    if (f == object_id) refuse_in_owner_code(psprintf("function %s", format_procedure(object_id)));
}

void guard_process_utility(PlannedStmt* pstmt, const char* query_string, bool read_only_tree,
                           ProcessUtilityContext context, ParamListInfo params, QueryEnvironment* query_env,
                           DestReceiver* dest, QueryCompletion* qc) {
  if (owner_code_depth > 0) {
    switch (nodeTag(pstmt->utilityStmt)) {
      case T_PrepareStmt:
      case T_DeallocateStmt:
      case T_DeclareCursorStmt:
      case T_ClosePortalStmt:
      case T_FetchStmt:
      case T_LoadStmt:
      case T_NotifyStmt:
        refuse_in_owner_code(GetCommandTagName(CreateCommandTag(pstmt->utilityStmt)));
      default:
        break;
    }
  }
  if (next_process_utility != nullptr)
    next_process_utility(pstmt, query_string, read_only_tree, context, params, query_env, dest, qc);
  else
    standard_ProcessUtility(pstmt, query_string, read_only_tree, context, params, query_env, dest, qc);
}

// Installed at the first ldp._as_role of a backend (the hooks act only inside it).
void install_session_guards() {
  if (session_guards_installed) return;
  next_object_access = object_access_hook;
  object_access_hook = guard_object_access;
  next_process_utility = ProcessUtility_hook;
  ProcessUtility_hook = guard_process_utility;
  session_guards_installed = true;
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
// with search_path = pg_catalog, pg_temp; settings it changes are undone, and what
// else would change the session is refused (the guards above). The caller's column
// list must match the query's columns. EXECUTE is not granted to anyone: only the
// privileged twins (running as the catalog's owner) call it.
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

  install_session_guards();
  Oid save_user;
  int save_sec;
  GetUserIdAndSecContext(&save_user, &save_sec);
  int save_depth = owner_code_depth;
  int nest = NewGUCNestLevel();
  (void)set_config_option("search_path", "pg_catalog, pg_temp", PGC_USERSET, PGC_S_SESSION,
                          GUC_ACTION_SAVE, true, 0, false);
  SetUserIdAndSecContext(role, save_sec | SECURITY_LOCAL_USERID_CHANGE |
                                   SECURITY_RESTRICTED_OPERATION);
  owner_code_depth = save_depth + 1;
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
  {
    SetUserIdAndSecContext(save_user, save_sec);
    owner_code_depth = save_depth;
  }
  PG_END_TRY();
  AtEOXact_GUC(false, nest);  // undo every setting the role's code changed
  return (Datum)0;
}
