// Collections (extension/ldp--*.sql, "Collections and epochs"): the one piece
// that needs the parser. A collection's summary is stored as SQL text and run
// later by close_epoch, possibly by pg_cron as another role, so it is checked
// here once, on the raw parse tree: it must be exactly one call of a
// schema-qualified function whose arguments are plain column names, constants,
// casts of those or named arguments — no subquery, no operator, no second
// statement, no comment that could swallow the FROM clause it is pasted before
// (close_epoch wraps it in parentheses and a newline). Whether the function is
// an ldp aggregate returning a summary is checked by the SQL caller against the
// catalogs and by running the call.
//
// Plain C style on purpose: the parser reports errors with ereport (longjmp),
// so no C++ object with a destructor may live in these frames.
#include "common/glue.hpp"  // postgres.h first

extern "C" {
#include "catalog/pg_type.h"
#include "nodes/parsenodes.h"
#include "parser/parser.h"
#include "utils/array.h"
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

}  // namespace

// ldp.collection_summary_call(text) → text[]: {schema, function} of the call.
LDP_FUNCTION(ldp_collection_summary_call) {
  text* summary = PG_GETARG_TEXT_PP(0);
  StringInfoData sql;
  initStringInfo(&sql);
  appendStringInfoString(&sql, "SELECT ");
  appendBinaryStringInfo(&sql, VARDATA_ANY(summary), VARSIZE_ANY_EXHDR(summary));
  if (memchr(VARDATA_ANY(summary), '\0', VARSIZE_ANY_EXHDR(summary)) != nullptr)
    refuse("it contains a NUL byte");

  List* stmts = raw_parser(sql.data, RAW_PARSE_DEFAULT);  // syntax errors: 42601
  if (list_length(stmts) != 1) refuse("it is not a single expression");
  Node* stmt = linitial_node(RawStmt, stmts)->stmt;
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

  Datum parts[2] = {CStringGetTextDatum(strVal(linitial(call->funcname))),
                    CStringGetTextDatum(strVal(lsecond(call->funcname)))};
  PG_RETURN_ARRAYTYPE_P(construct_array(parts, 2, TEXTOID, -1, false, TYPALIGN_INT));
}
