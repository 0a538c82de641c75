// Collections (extension/ldp--*.sql, "Collections and epochs"): the one piece
// that needs the parser. A collection's summary is stored as SQL text and run
// later by close_epoch, possibly by pg_cron as another role, so it is checked
// here once, on the raw parse tree: it must be exactly one call of a
// schema-qualified function whose arguments are plain column names, constants,
// casts of those or named arguments — no subquery, no operator, no second
// statement, no comment that could swallow the FROM clause it is pasted before
// (close_epoch wraps it in parentheses and a newline). Whether the function is
// an ldp aggregate returning a summary is checked by the SQL caller against the
// catalogs and by running the call. ldp.collection_call_check then checks the call
// as PostgreSQL resolves it over the source: the casts it spells and the conversions
// PostgreSQL adds must be between types of pg_catalog and ldp, so that no function of
// another schema (a user-defined cast, a domain's check) runs at a close.
//
// Plain C style on purpose: the parser reports errors with ereport (longjmp),
// so no C++ object with a destructor may live in these frames.
#include "pg/common/glue.hpp"  // postgres.h first

extern "C" {
#include "access/htup_details.h"
#include "catalog/pg_namespace.h"
#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/parsenodes.h"
#include "parser/analyze.h"
#include "parser/parse_type.h"
#include "parser/parser.h"
#include "utils/array.h"
#include "utils/lsyscache.h"
#include "utils/regproc.h"
#include "utils/syscache.h"
}

namespace {

[[noreturn]] void refuse(const char* detail) {
  ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                  errmsg("a collection's summary must be one call of an ldp aggregate: %s", detail),
                  errhint("For example 'ldp.onebit_mean_agg(bit, 1.0, 86400)': arguments are "
                          "column names of the source and constants.")));
}

// Column names, constants, casts of them and name => value.
bool plain_argument(Node* arg) {
  switch (nodeTag(arg)) {
    case T_ColumnRef: {
      auto* c = reinterpret_cast<ColumnRef*>(arg);
      return list_length(c->fields) == 1 && IsA(linitial(c->fields), String);
    }
    case T_A_Const:
      return true;
    case T_TypeCast:
      return plain_argument(reinterpret_cast<TypeCast*>(arg)->arg);
    case T_NamedArgExpr:
      return plain_argument(reinterpret_cast<Node*>(reinterpret_cast<NamedArgExpr*>(arg)->arg));
    default:
      return false;
  }
}

// The raw checks of a summary: its one call (SELECT <summary>, parsed), or refused.
RawStmt* checked_call(text* summary, FuncCall** call_out) {
  StringInfoData sql;
  initStringInfo(&sql);
  appendStringInfoString(&sql, "SELECT ");
  appendBinaryStringInfo(&sql, VARDATA_ANY(summary), VARSIZE_ANY_EXHDR(summary));
  if (memchr(VARDATA_ANY(summary), '\0', VARSIZE_ANY_EXHDR(summary)) != nullptr)
    refuse("it contains a NUL byte");

  List* stmts = raw_parser(sql.data, RAW_PARSE_DEFAULT);  // syntax errors: 42601
  if (list_length(stmts) != 1) refuse("it is not a single expression");
  RawStmt* raw = linitial_node(RawStmt, stmts);
  Node* stmt = raw->stmt;
  if (!IsA(stmt, SelectStmt)) refuse("it is not a single expression");
  auto* sel = reinterpret_cast<SelectStmt*>(stmt);
  if (sel->op != SETOP_NONE || sel->fromClause != NIL || sel->whereClause != nullptr ||
      sel->groupClause != NIL || sel->havingClause != nullptr || sel->windowClause != NIL ||
      sel->sortClause != NIL || sel->limitCount != nullptr || sel->limitOffset != nullptr ||
      sel->lockingClause != NIL || sel->withClause != nullptr || sel->intoClause != nullptr ||
      sel->distinctClause != NIL || sel->valuesLists != NIL)
    refuse("it has clauses besides the call (FROM, WHERE, ...)");
  if (list_length(sel->targetList) != 1) refuse("it is a list of expressions");
  auto* target = linitial_node(ResTarget, sel->targetList);
  if (target->name != nullptr) refuse("it has a column alias");
  if (target->indirection != NIL || !IsA(target->val, FuncCall))
    refuse("it is not a function call");
  auto* call = reinterpret_cast<FuncCall*>(target->val);
  if (call->agg_order != NIL || call->agg_filter != nullptr || call->over != nullptr ||
      call->agg_within_group || call->agg_star || call->agg_distinct || call->func_variadic)
    refuse("ORDER BY, FILTER, OVER, DISTINCT, * and VARIADIC are not allowed");
  if (list_length(call->funcname) != 2)
    refuse("the aggregate must be schema-qualified (ldp.rr_agg), so that no "
           "search_path can redirect it");
  ListCell* lc;
  foreach (lc, call->args) {
    if (!plain_argument(static_cast<Node*>(lfirst(lc))))
      refuse("an argument is not a column name, a constant or a cast of one");
  }
  *call_out = call;
  return raw;
}

Oid type_namespace(Oid type) {
  HeapTuple tp = SearchSysCache1(TYPEOID, ObjectIdGetDatum(type));
  if (!HeapTupleIsValid(tp)) elog(ERROR, "ldp: cache lookup failed for type %u", type);
  Oid nsp = reinterpret_cast<Form_pg_type>(GETSTRUCT(tp))->typnamespace;
  ReleaseSysCache(tp);
  return nsp;
}

bool check_resolved(Node* node, void* context);
bool walk_children(Node* node, void* context) {
  return expression_tree_walker(node, LDP_TREE_WALKER(check_resolved), context);
}

struct Allowed {
  Oid ldp;            // the extension's schema
  bool seen_aggregate;
};

bool allowed_namespace(const Allowed* a, Oid nsp) { return nsp == PG_CATALOG_NAMESPACE || nsp == a->ldp; }

void require_type(const Allowed* a, Oid type) {
  if (!allowed_namespace(a, type_namespace(type)))
    refuse(psprintf("it converts to or from type %s, which is neither pg_catalog's nor ldp's "
                    "(its functions would run at every close)", format_type_be_qualified(type)));
}

// The resolved call: an ldp aggregate over columns and constants, converted only by
// casts and coercions between pg_catalog's and ldp's types.
bool check_resolved(Node* node, void* context) {
  if (node == nullptr) return false;
  auto* a = static_cast<Allowed*>(context);
  switch (nodeTag(node)) {
    case T_Aggref: {
      auto* agg = reinterpret_cast<Aggref*>(node);
      if (a->seen_aggregate || get_func_namespace(agg->aggfnoid) != a->ldp)
        refuse("it is not one call of an ldp aggregate");
      a->seen_aggregate = true;
      return walk_children(node, context);
    }
    case T_TargetEntry:
    case T_NamedArgExpr:
      return walk_children(node, context);
    case T_Var:  // reading a column runs nothing: a domain over an allowed type is fine
      require_type(a, getBaseType(exprType(node)));
      return false;
    case T_Const:
    case T_CaseTestExpr:
      require_type(a, exprType(node));
      return false;
    case T_FuncExpr: {
      auto* f = reinterpret_cast<FuncExpr*>(node);
      if (f->funcformat != COERCE_EXPLICIT_CAST && f->funcformat != COERCE_IMPLICIT_CAST)
        refuse("it calls a function inside the aggregate's arguments");
      if (!allowed_namespace(a, get_func_namespace(f->funcid)))
        refuse(psprintf("it converts with function %s, which is neither pg_catalog's nor ldp's "
                        "(it would run at every close)", format_procedure_qualified(f->funcid)));
      require_type(a, f->funcresulttype);
      return walk_children(node, context);
    }
    case T_RelabelType:
    case T_CoerceViaIO:
    case T_ArrayCoerceExpr:
    case T_CoerceToDomain:
    case T_CollateExpr:
      require_type(a, exprType(node));
      return walk_children(node, context);
    default:
      refuse("it has an expression besides columns, constants and casts");
  }
}

// The type names the summary's casts spell, resolved as at a close: pg_catalog's or
// ldp's only (a constant is converted by its type's input function when the call is
// parsed, before anything else could be checked).
void check_cast_names(Node* arg, const Allowed* a) {
  if (IsA(arg, NamedArgExpr)) {
    check_cast_names(reinterpret_cast<Node*>(reinterpret_cast<NamedArgExpr*>(arg)->arg), a);
  } else if (IsA(arg, TypeCast)) {
    auto* cast = reinterpret_cast<TypeCast*>(arg);
    Oid type = LookupTypeNameOid(nullptr, cast->typeName, true);
    if (OidIsValid(type)) require_type(a, type);  // an unknown type fails in the analysis
    check_cast_names(cast->arg, a);
  }
}

// An error of the analysis (an unknown type, a named argument to an aggregate) points
// into the text analyzed, "SELECT <summary>", not into the caller's statement.
void analysis_error_context(void* query) {
  int position = geterrposition();
  if (position > 0) {
    errposition(0);
    internalerrposition(position);
    internalerrquery(static_cast<const char*>(query));
  }
}

}  // namespace

// ldp.collection_summary_call(text) → text[]: {schema, function} of the call.
LDP_FUNCTION(ldp_collection_summary_call) {
  FuncCall* call;
  (void)checked_call(PG_GETARG_TEXT_PP(0), &call);
  Datum parts[2] = {CStringGetTextDatum(strVal(linitial(call->funcname))),
                    CStringGetTextDatum(strVal(lsecond(call->funcname)))};
  PG_RETURN_ARRAYTYPE_P(construct_array(parts, 2, TEXTOID, -1, false, TYPALIGN_INT));
}

// ldp.collection_call_check(summary text, source regclass) → void: the raw checks,
// then the call as PostgreSQL resolves it over the source (SELECT <summary> FROM
// <source>, analyzed under the caller's search_path, which the SQL callers pin to
// pg_catalog, pg_temp as at a close; nothing is run): one ldp aggregate whose
// arguments are columns, constants and conversions between pg_catalog's and ldp's
// types by their functions.
LDP_FUNCTION(ldp_collection_call_check) {
  text* summary = PG_GETARG_TEXT_PP(0);
  Oid source = PG_GETARG_OID(1);
  Allowed allowed = {get_func_namespace(fcinfo->flinfo->fn_oid), false};
  FuncCall* call;
  RawStmt* raw = checked_call(summary, &call);
  ListCell* lc;
  foreach (lc, call->args) check_cast_names(static_cast<Node*>(lfirst(lc)), &allowed);

  char* relname = get_rel_name(source);
  if (relname == nullptr)
    ereport(ERROR, (errcode(ERRCODE_UNDEFINED_TABLE), errmsg("relation with OID %u does not exist", source)));
  auto* sel = reinterpret_cast<SelectStmt*>(raw->stmt);
  sel->fromClause = list_make1(makeRangeVar(get_namespace_name(get_rel_namespace(source)), relname, -1));
  StringInfoData sql;
  initStringInfo(&sql);
  appendStringInfoString(&sql, "SELECT ");
  appendBinaryStringInfo(&sql, VARDATA_ANY(summary), VARSIZE_ANY_EXHDR(summary));
  ErrorContextCallback context = {error_context_stack, analysis_error_context, sql.data};
  error_context_stack = &context;
  Query* query = parse_analyze_fixedparams(raw, sql.data, nullptr, 0, nullptr);
  error_context_stack = context.previous;
  if (list_length(query->targetList) != 1) refuse("it is not a single expression");
  Node* expr = reinterpret_cast<Node*>(linitial_node(TargetEntry, query->targetList)->expr);
  if (!IsA(expr, Aggref)) refuse("it is not one call of an ldp aggregate");
  (void)check_resolved(expr, &allowed);
  PG_RETURN_VOID();
}
