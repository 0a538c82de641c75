#include "pg/common/glue.hpp"

extern "C" {
#include "access/htup_details.h"
#include "funcapi.h"
#include "nodes/pg_list.h"
#include "nodes/primnodes.h"
}

#include <cstring>

#include "core/common/interrupt.hpp"

extern "C" {
LDP_MODULE_MAGIC(LDP_EXTVERSION);
}

namespace ldp_pg {

void capture_exception(CoreError* err) noexcept {
  const char* what = "unknown C++ exception";
  err->kind = static_cast<int>(ldp::ErrorKind::Internal);
  try {
    throw;
  } catch (const ldp::Interrupted&) {
    err->kind = kCoreInterrupted;
    what = "canceling statement due to user request";
  } catch (const ldp::Error& e) {
    err->kind = static_cast<int>(e.kind());
    what = e.what();
  } catch (const std::bad_alloc&) {
    err->kind = kCoreOutOfMemory;
    what = "out of memory in ldp core";
  } catch (const std::exception& e) {
    what = e.what();
  } catch (...) {
  }
  std::strncpy(err->message, what, sizeof err->message - 1);
  err->message[sizeof err->message - 1] = '\0';
}

void raise_core_error(const CoreError& err) {
  int code;
  switch (err.kind) {
    case kCoreInterrupted:
      // The probe saw a cancel or a terminate that PostgreSQL acts on here (its own
      // message and SQLSTATE: statement timeout, user request, FATAL for a terminate);
      // should it have been withdrawn meanwhile, the statement is cancelled anyway.
      CHECK_FOR_INTERRUPTS();
      ereport(ERROR, (errcode(ERRCODE_QUERY_CANCELED), errmsg("%s", err.message)));
      pg_unreachable();
    case kCoreOutOfMemory:
      code = ERRCODE_OUT_OF_MEMORY;
      break;
    case static_cast<int>(ldp::ErrorKind::LimitExceeded):
      ereport(ERROR, (errcode(ERRCODE_PROGRAM_LIMIT_EXCEEDED), errmsg("%s", err.message),
                      errhint("Ask for less (a higher threshold, fewer candidates, a smaller protocol), or have a "
                              "superuser raise the setting for the role or session that needs it.")));
      pg_unreachable();
    case static_cast<int>(ldp::ErrorKind::InvalidParameter):
      code = ERRCODE_INVALID_PARAMETER_VALUE;
      break;
    case static_cast<int>(ldp::ErrorKind::InvalidText):
      code = ERRCODE_INVALID_TEXT_REPRESENTATION;
      break;
    case static_cast<int>(ldp::ErrorKind::InvalidBinary):
      code = ERRCODE_INVALID_BINARY_REPRESENTATION;
      break;
    case static_cast<int>(ldp::ErrorKind::ImpossibleReport):
      code = ERRCODE_DATA_EXCEPTION;
      break;
    case static_cast<int>(ldp::ErrorKind::OutOfRange):
      code = ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE;
      break;
    default:
      code = ERRCODE_INTERNAL_ERROR;
      break;
  }
  ereport(ERROR, (errcode(code), errmsg("%s", err.message)));
  pg_unreachable();
}

void raise_not_finite(double x, const char* what) {
  ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                  errmsg("%s is not a finite number (%g)", what, x),
                  errhint("The summary's parameters or the confidence asked for are too extreme "
                          "for its number of reports.")));
  pg_unreachable();
}

void raise_adopted_too_large(int64 n) {
  ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                  errmsg("an aggregate's initial state may hold at most 2^62 reports, this one holds "
                         INT64_FORMAT, n),
                  errhint("Merge such summaries with ldp.rollup, which checks every count.")));
  pg_unreachable();
}

TransSite* trans_site_init(FunctionCallInfo fcinfo, const char* fn, int first_param) {
  if (!AggCheckCallContext(fcinfo, nullptr))
    ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("%s called in non-aggregate context", fn)));
  auto* site =
      static_cast<TransSite*>(MemoryContextAlloc(fcinfo->flinfo->fn_mcxt, sizeof(TransSite)));
  // The aggregate's own arguments (the Aggref; NULL for a window aggregate):
  // argument i of the aggregate is argument i + 1 of the transition function,
  // after the state. ORDER BY expressions follow them as resjunk entries.
  // (get_fn_expr_arg_stable cannot tell: the executor gives transition
  // functions placeholder Params for their arguments.)
  const Aggref* agg = AggGetAggref(fcinfo);
  site->params_stable = agg != nullptr;
  if (agg != nullptr) {
    int transfn_arg = 1;
    ListCell* lc;
    foreach (lc, agg->args) {
      const auto* tle = static_cast<const TargetEntry*>(lfirst(lc));
      if (tle->resjunk) continue;
      if (transfn_arg >= first_param && !IsA(tle->expr, Const)) site->params_stable = false;
      ++transfn_arg;
    }
  }
  fcinfo->flinfo->fn_extra = site;
  return site;
}

Datum composite_result(FunctionCallInfo fcinfo, const Datum* values, const bool* nulls, int n) {
  TupleDesc desc;
  if (get_call_result_type(fcinfo, nullptr, &desc) != TYPEFUNC_COMPOSITE || desc->natts != n)
    ereport(ERROR, (errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
                    errmsg("a composite result of %d columns was expected", n)));
  desc = BlessTupleDesc(desc);
  return HeapTupleGetDatum(heap_form_tuple(desc, const_cast<Datum*>(values), const_cast<bool*>(nulls)));
}

}  // namespace ldp_pg

void ldp_null_param(const char* name) {
  ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("%s must not be NULL", name)));
  pg_unreachable();
}

void ldp_partial_null_report(const char* what) {
  ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("report is partly NULL: %s", what),
                  errhint("A report is ignored only when all of its columns are NULL.")));
  pg_unreachable();
}
