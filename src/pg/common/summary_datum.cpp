#include "pg/common/summary_datum.hpp"

extern "C" {
#include "access/detoast.h"
#include "utils/memutils.h"
}

#include <sys/mman.h>

#include <cstring>

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

namespace {
const char kSharedContextName[] = "ldp live summaries";

// The context of the live summaries of one aggregate context: one child of it, shared by
// every state (found among its children by its name's address, made on first use;
// resetting the aggregate context deletes it with the states).
//
// One context per state would make a hashed aggregate quadratic in its groups:
// PostgreSQL re-sums the memory of every child of the hash table's context after each
// new group (hash_agg_check_limits), and 100k groups then spent 95% of their time
// there. The executor keeps a transition value that is an expanded object whose
// context is a child of the aggregate context (ExecAggTransReparent), which the shared
// context is; it deletes such an object's context only when a transition function
// returns a different value in its place, which ldp's never do (a state they cannot
// continue is an error, never replaced), but for a family whose codec says it replaces
// its states (replaces_state): each of those gets a context of its own.
MemoryContext shared_live_context(MemoryContext agg) {
  for (MemoryContext c = agg->firstchild; c != nullptr; c = c->nextchild)
    if (c->name == kSharedContextName) return c;
  return AllocSetContextCreateInternal(agg, kSharedContextName, ALLOCSET_DEFAULT_SIZES);
}
// A state of several MiB (a range summary's 2^20 sums: 8 MiB) is updated at random
// places, row after row: with 4 KiB pages every update also misses the TLB. Before its
// pages are first touched, the whole 2 MiB pages inside it are marked for transparent huge
// pages (madvise: the kernel's default mode "madvise" then backs them with 2 MiB pages when
// it can; nothing changes where it cannot or THP is off).
void prefer_huge_pages(void* p, size_t bytes) {
  constexpr uintptr_t kHuge = uintptr_t{2} << 20;
  if (bytes < 2 * kHuge) return;
  const uintptr_t start = (reinterpret_cast<uintptr_t>(p) + kHuge - 1) & ~(kHuge - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(p) + bytes) & ~(kHuge - 1);
  if (end > start) (void)madvise(reinterpret_cast<void*>(start), end - start, MADV_HUGEPAGE);
}
}  // namespace

LiveSummary* live_new(FunctionCallInfo fcinfo, const SummaryCodec* codec, size_t size) {
  MemoryContext agg = nullptr, ctx;
  if (fcinfo != nullptr && AggCheckCallContext(fcinfo, &agg) && agg != nullptr)
    ctx = codec->replaces_state ? AllocSetContextCreate(agg, "ldp live summary", ALLOCSET_DEFAULT_SIZES)
                                : shared_live_context(agg);
  else  // outside an aggregate (a combine function called directly): its own context
    ctx = AllocSetContextCreate(CurrentMemoryContext, "ldp live summary", ALLOCSET_START_SMALL_SIZES);
  const size_t bytes = LiveSummary::kCoreOffset + size;
  auto* live = static_cast<LiveSummary*>(MemoryContextAllocExtended(ctx, bytes, MCXT_ALLOC_HUGE));
  prefer_huge_pages(live, bytes);
  memset(static_cast<void*>(live), 0, bytes);
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

Datum summary_send(FunctionCallInfo fcinfo, const SummaryCodec* codec) {
  return stored_datum(codec, summary_arg(fcinfo, 0, codec));  // a bytea of the stored form
}

namespace {
struct PreparedSlot {
  size_t key_len;
  char* key;  // nullptr: not reusable (a live argument)
  void* value;
  ReleaseFn release;
};
}  // namespace

void* prepared_summary(FunctionCallInfo fcinfo, int argno, PrepareFn make, ReleaseFn release) {
  Datum d = PG_GETARG_DATUM(argno);
  auto* raw = reinterpret_cast<struct varlena*>(DatumGetPointer(d));
  auto* slot = static_cast<PreparedSlot*>(fcinfo->flinfo->fn_extra);
  const char* key = nullptr;
  size_t key_len = 0;
  if (VARATT_IS_EXTERNAL_ONDISK(raw)) {
    key = reinterpret_cast<const char*>(raw);
    key_len = VARSIZE_EXTERNAL(raw);
  } else if (!VARATT_IS_EXTERNAL(raw)) {  // inline, compressed or not: its bytes as they are
    key = reinterpret_cast<const char*>(raw);
    key_len = VARSIZE_ANY(raw);
  }
  if (slot != nullptr && key != nullptr && slot->key != nullptr && slot->key_len == key_len &&
      memcmp(slot->key, key, key_len) == 0)
    return slot->value;
  MemoryContext mcxt = fcinfo->flinfo->fn_mcxt;
  if (slot == nullptr) {
    slot = static_cast<PreparedSlot*>(MemoryContextAllocZero(mcxt, sizeof(PreparedSlot)));
    fcinfo->flinfo->fn_extra = slot;
  } else {
    if (slot->value != nullptr) slot->release(slot->value);
    if (slot->key != nullptr) pfree(slot->key);
    *slot = PreparedSlot{};
  }
  slot->release = release;
  slot->value = make(fcinfo, mcxt);
  if (key != nullptr) {
    slot->key = static_cast<char*>(MemoryContextAlloc(mcxt, key_len));
    memcpy(slot->key, key, key_len);
    slot->key_len = key_len;
  }
  return slot->value;
}

namespace {
struct SessionSlot {
  PrepareFn make;        // nullptr: free
  MemoryContext mcxt;    // the value's and the key's, a child of TopMemoryContext
  size_t key_len;
  char* key;
  void* value;
};
constexpr int kSessionSlots = 4;
SessionSlot session_slots[kSessionSlots];

// The key of a stored summary (palloc'd in the current context), or nullptr for a live one.
char* session_key(struct varlena* raw, size_t* len) {
  if (VARATT_IS_EXTERNAL_ONDISK(raw)) {
    const size_t pointer = VARSIZE_EXTERNAL(raw);
    struct varlena* head = detoast_attr_slice(raw, 0, static_cast<int32>(kSessionKeyPrefix));
    const size_t head_len = VARSIZE_ANY_EXHDR(head);
    char* key = static_cast<char*>(palloc(pointer + head_len));
    memcpy(key, raw, pointer);
    memcpy(key + pointer, VARDATA_ANY(head), head_len);
    *len = pointer + head_len;
    return key;
  }
  if (VARATT_IS_EXTERNAL(raw)) return nullptr;  // expanded (live) or in memory elsewhere
  *len = VARSIZE_ANY(raw);
  char* key = static_cast<char*>(palloc(*len));
  memcpy(key, raw, *len);
  return key;
}
}  // namespace

void* session_prepared_summary(FunctionCallInfo fcinfo, int argno, PrepareFn make, ReleaseFn release) {
  auto* raw = reinterpret_cast<struct varlena*>(DatumGetPointer(PG_GETARG_DATUM(argno)));
  size_t key_len = 0;
  char* key = session_key(raw, &key_len);
  if (key == nullptr) return prepared_summary(fcinfo, argno, make, release);
  SessionSlot* slot = nullptr;
  for (SessionSlot& s : session_slots)
    if (s.make == make || (slot == nullptr && s.make == nullptr)) slot = &s;
  if (slot == nullptr)
    ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR), errmsg("ldp: more than %d kinds of session decodes", kSessionSlots)));
  if (slot->make == make && slot->key_len == key_len && memcmp(slot->key, key, key_len) == 0) {
    pfree(key);
    return slot->value;
  }
  // Made under the query's context, so that an error leaves nothing behind; moved to the
  // session's once whole.
  MemoryContext mcxt = AllocSetContextCreate(CurrentMemoryContext, "ldp session decode", ALLOCSET_DEFAULT_SIZES);
  void* value = make(fcinfo, mcxt);
  char* kept = static_cast<char*>(MemoryContextAlloc(mcxt, key_len));
  memcpy(kept, key, key_len);
  pfree(key);
  if (slot->make != nullptr) MemoryContextDelete(slot->mcxt);  // the value make() allocated there with it
  MemoryContextSetParent(mcxt, TopMemoryContext);
  *slot = SessionSlot{make, mcxt, key_len, kept, value};
  return value;
}

}  // namespace ldp_pg
