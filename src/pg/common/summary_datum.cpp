#include "common/summary_datum.hpp"

namespace ldp_pg {

namespace {

Size live_flat_size(ExpandedObjectHeader* eoh) {
  auto* live = reinterpret_cast<LiveSummary*>(eoh);
  size_t len = 0;
  LDP_CORE({
    live->codec->settle(live->core());
    len = live->codec->stored_size(live->core());
  });
  return VARHDRSZ + len;
}

void live_flatten(ExpandedObjectHeader* eoh, void* result, Size allocated_size) {
  auto* live = reinterpret_cast<LiveSummary*>(eoh);
  LDP_CORE({
    live->codec->settle(live->core());
    live->codec->write_stored(live->core(), reinterpret_cast<uint8_t*>(result) + VARHDRSZ,
                              allocated_size - VARHDRSZ);
  });
  SET_VARSIZE(result, allocated_size);
}

}  // namespace

const ExpandedObjectMethods kLiveSummaryMethods = {live_flat_size, live_flatten};

LiveSummary* live_new(FunctionCallInfo fcinfo, const SummaryCodec* codec, size_t size) {
  MemoryContext parent = CurrentMemoryContext;
  MemoryContext agg = nullptr;
  if (fcinfo != nullptr && AggCheckCallContext(fcinfo, &agg)) parent = agg;
  MemoryContext ctx = AllocSetContextCreate(parent, "ldp live summary", ALLOCSET_START_SMALL_SIZES);
  auto* live = static_cast<LiveSummary*>(
      MemoryContextAllocExtended(ctx, LiveSummary::kCoreOffset + size, MCXT_ALLOC_HUGE | MCXT_ALLOC_ZERO));
  EOH_init_header(&live->hdr, &kLiveSummaryMethods, ctx);
  live->codec = codec;
  live->size = size;
  return live;
}

const void* summary_arg(FunctionCallInfo fcinfo, int argno, const SummaryCodec* codec) {
  Datum d = PG_GETARG_DATUM(argno);
  if (VARATT_IS_EXTERNAL_EXPANDED(DatumGetPointer(d))) {
    ExpandedObjectHeader* eoh = DatumGetEOHP(d);
    auto* live = reinterpret_cast<LiveSummary*>(eoh);
    if (eoh->eoh_methods == &kLiveSummaryMethods && live->codec == codec) {
      LDP_CORE(codec->settle(live->core()));
      return live->core();
    }
  }
  auto* v = PG_DETOAST_DATUM(d);
  return codec->read_flat(VARDATA(v), VARSIZE(v) - VARHDRSZ);
}

Datum stored_datum(const SummaryCodec* codec, const void* core) {
  size_t len = 0;
  LDP_CORE(len = codec->stored_size(core));
  auto* v = static_cast<struct varlena*>(palloc(VARHDRSZ + len));
  LDP_CORE(codec->write_stored(core, reinterpret_cast<uint8_t*>(VARDATA(v)), len));
  SET_VARSIZE(v, VARHDRSZ + len);
  return PointerGetDatum(v);
}

}  // namespace ldp_pg
