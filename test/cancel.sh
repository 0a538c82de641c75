#!/usr/bin/env bash
# Cancels and limits of long decodes (issue 27), timed against a running server: every
# decoder and accessor that can run longer than a second at the documented bounds is
# started under statement_timeout = '1s' and must fail with 57014 within 2 s; the
# reported reproductions (SFP and TreeHist heavy hitters, RAPPOR over 2^31 - 1 cohorts)
# must be refused with 54000 at once, or cancelled; pg_cancel_backend and
# pg_terminate_backend must end a decode within 2 s. (Which loops poll, and how soon each
# notices a cancel, is test/unit/interrupt_test.cpp's; Bitstogram's long walks need
# counters no reports give, so only the unit test makes one.)
#
#   test/cancel.sh
#
# PGHOST/PGPORT/PGUSER must name a superuser of a private cluster with ldp installable
# (test/run.sh passes its own); the script makes and drops a database ldp_cancel. Prints
# one "cancel: NAME ... ok|FAILED" line per check, in about 30 s, and exits non-zero if
# one failed.
set -euo pipefail
db=ldp_cancel
psql() { command psql -X -q -At -v ON_ERROR_STOP=1 "$@"; }
failures=0
now_ms() { echo $(($(date +%s%N) / 1000000)); }
result() {  # name ok|FAILED detail
  echo "cancel: $1 ($3) ... $2"
  [[ $2 == ok ]] || failures=$((failures + 1))
}

psql -c "SET client_min_messages = warning" -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db"
trap 'psql -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null 2>&1 || true' EXIT
t0=$(now_ms)
psql -d "$db" >/dev/null <<'SQL'
CREATE EXTENSION ldp;
SET search_path = public, ldp;
-- the issue's heavy-hitters summaries: SFP and TreeHist (int8) protocols of 2,048 and
-- 65,536 sketch rows, and PEM's on 65,536 rows
CREATE TABLE c_sfp AS
SELECT sfp_agg(r.fragment_start, r.hash_index, r.coefficient, r.fragment_report, r.word_hash_index, r.word_coefficient,
               r.word_report, sfp_protocol(2, 1000, 'abcdefghijklmno', 96, 3, 2048, 64)) AS s
FROM generate_series(1, 1000) i, sfp_encode('abc', sfp_protocol(2, 1000, 'abcdefghijklmno', 96, 3, 2048, 64), i) r;
CREATE TABLE c_treehist AS
SELECT treehist_agg(r.level, r.hash_index, r.coefficient, r.prefix_report, r.item_report,
                    treehist_int8_protocol(2, 1000, 65536, 8)) AS s
FROM generate_series(1, 1000) i, treehist_encode(7::bigint, treehist_int8_protocol(2, 1000, 65536, 8), i) r;
CREATE TABLE c_pem AS
SELECT pem_agg(r.group_index, r.hash_index, r.coefficient, r.report, pem_protocol(2, 1000, 'abcdefghijklmnopqrstuvwxyz', 6, 0, 3, 65536, 64)) AS s
FROM generate_series(1, 1000) i, pem_encode('abc', pem_protocol(2, 1000, 'abcdefghijklmnopqrstuvwxyz', 6, 0, 3, 65536, 64), i) r;
-- a sketch of 65,536 rows, frequency oracles over k = 2^22, and 100,000 items to ask
CREATE TABLE c_sketch AS
SELECT hcms_agg(e.hash_index, e.coefficient, e.report, 2.0, 65536, 64) AS s
FROM generate_series(1, 1000) i, hcms_encode('w' || i % 10, 2.0, 65536, 64, i) e;
CREATE TABLE c_freq AS  -- three of them: one takes about 1.5 s
SELECT grr_agg((i * 7919 + g) % 4194304, 1.0, 4194304) AS s FROM generate_series(1, 3) g, generate_series(1, 1000) i GROUP BY g;
CREATE TABLE c_items AS SELECT array_agg(i::text) AS items FROM generate_series(1, 100000) i;
-- RAPPOR: the issue's 2^31 - 1 cohorts, 2^20 of them with a report (2 bits, 4 hashes:
-- 2^22 counters); and 64 cohorts of 128 bits, where 200,000 candidates go through the
-- LASSO (about 5 s)
CREATE TABLE c_rappor_cohorts AS
SELECT rappor_agg(i * 2047, CASE WHEN i % 3 = 0 THEN B'01' ELSE B'10' END, 4, 2147483647, 0.5, 0.25, 0.75) AS s
FROM generate_series(0, 1048575) i;
CREATE TABLE c_rappor AS
SELECT rappor_agg(i % 64, rappor_encode('w' || (i % 100), i % 64, int4send(i), 128, 2, 0.5, 0.25, 0.75, i),
                  2, 64, 0.5, 0.25, 0.75) AS s
FROM generate_series(1, 20000) i;
SQL
echo "cancel: setup $(($(now_ms) - t0)) ms" >&2

# timed NAME WANT SQL: SQL in a new session under statement_timeout = 1s (after SETUP, a
# superuser's settings); ok when it fails with SQLSTATE WANT within 2 s.
timed() {
  local name=$1 want=$2 sql=$3 setup=${4:-SELECT 1} t out ms code
  t=$(now_ms)
  out=$(command psql -X -q -At -d "$db" -v VERBOSITY=sqlstate -c "SET search_path = public, ldp" -c "$setup" \
          -c "SET statement_timeout = '1s'" -c "$sql" 2>&1 >/dev/null || true)
  ms=$(($(now_ms) - t))
  code=$(sed -n 's/^ERROR:  \([0-9A-Z]\{5\}\).*/\1/p' <<<"$out" | head -n 1)
  if [[ $code == "$want" ]] && ((ms < 2000)); then
    result "$name" ok "$code in $ms ms"
  else
    result "$name" FAILED "expected $want within 2000 ms, got ${code:-no error} in $ms ms${out:+: $(head -n 3 <<<"$out" | tr '\n' ' ')}"
  fi
}
nolimit="SET ldp.max_decode_work = -1; SET ldp.max_decode_memory = -1"

timed "heavy_hitters, the reported SFP protocol, refused" 54000 "SELECT count(*) FROM heavy_hitters((SELECT s FROM c_sfp))"
timed "heavy_hitters, the reported SFP protocol, no limits, cancelled" 57014 \
  "SELECT count(*) FROM heavy_hitters((SELECT s FROM c_sfp))" "$nolimit"
timed "heavy_hitters, the reported TreeHist int8 protocol at threshold 0, refused" 54000 \
  "SELECT count(*) FROM heavy_hitters((SELECT s FROM c_treehist), 0)"
timed "heavy_hitters, the reported TreeHist int8 protocol at threshold 0, no limits, cancelled" 57014 \
  "SELECT count(*) FROM heavy_hitters((SELECT s FROM c_treehist), 0)" "$nolimit"
timed "heavy_hitters, PEM on 65536 rows, cancelled" 57014 "SELECT count(*) FROM heavy_hitters((SELECT s FROM c_pem))"
timed "frequencies of 100000 items, TreeHist on 65536 rows, cancelled" 57014 \
  "SELECT count(*) FROM frequencies((SELECT s FROM c_treehist), (SELECT items FROM c_items))"
timed "frequencies of 100000 items, hcms on 65536 rows, cancelled" 57014 \
  "SELECT count(*) FROM frequencies((SELECT s FROM c_sketch), (SELECT items FROM c_items))"
timed "frequencies over k = 2^22 with norm-sub, of three summaries, cancelled" 57014 \
  "SELECT count(*) FROM c_freq, LATERAL frequencies(c_freq.s, 'norm-sub') f"
timed "rappor_decode over 2^31 - 1 cohorts, 60 candidates, refused" 54000 \
  "SELECT count(*) FROM rappor_decode((SELECT s FROM c_rappor_cohorts), (SELECT array_agg('c' || i) FROM generate_series(1, 60) i))"
timed "rappor_decode over 2^31 - 1 cohorts, 10 candidates, cancelled" 57014 \
  "SELECT count(*) FROM rappor_decode((SELECT s FROM c_rappor_cohorts), (SELECT array_agg('c' || i) FROM generate_series(1, 10) i))"
timed "rappor_decode of 200000 candidates (LASSO screening), no limits, cancelled" 57014 \
  "SELECT count(*) FROM rappor_decode((SELECT s FROM c_rappor), (SELECT array_agg('w' || i) FROM generate_series(1, 200000) i))" \
  "$nolimit"

# signal NAME FUNCTION: a session decodes the SFP summary without limits; 0.5 s after it
# started, FUNCTION (pg_cancel_backend, pg_terminate_backend) is called on it, and its
# backend must have stopped the query (cancel: idle, or gone with its client) or be gone
# (terminate) within 2 s.
signal() {
  local name=$1 fn=$2 app=ldp_cancel_victim t ms state pid
  command psql -X -q -d "$db" -c "SET application_name = '$app'" -c "$nolimit" \
    -c "SELECT count(*) FROM ldp.heavy_hitters((SELECT s FROM c_sfp))" >/dev/null 2>&1 &
  pid=$!
  for _ in $(seq 1 100); do
    [[ $(psql -c "SELECT count(*) FROM pg_stat_activity WHERE application_name = '$app' AND state = 'active'") == 1 ]] &&
      break
    sleep 0.05
  done
  sleep 0.5
  t=$(now_ms)
  psql -c "SELECT $fn(pid) FROM pg_stat_activity WHERE application_name = '$app'" >/dev/null
  state=active
  while (($(now_ms) - t < 5000)); do
    state=$(psql -c "SELECT coalesce((SELECT state FROM pg_stat_activity WHERE application_name = '$app'), 'gone')")
    [[ $state == active ]] || break
    sleep 0.02
  done
  ms=$(($(now_ms) - t))
  local want=gone
  [[ $fn == pg_cancel_backend && $state == idle ]] && want=idle
  if [[ $state == "$want" ]] && ((ms < 2000)); then
    result "$name" ok "$state in $ms ms"
  else
    result "$name" FAILED "expected $want within 2000 ms, got $state after $ms ms"
  fi
  wait "$pid" 2>/dev/null || true
  psql -c "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = '$app'" >/dev/null
}
signal "pg_cancel_backend on heavy_hitters, the reported SFP protocol, no limits" pg_cancel_backend
signal "pg_terminate_backend on heavy_hitters, the reported SFP protocol, no limits" pg_terminate_backend

((failures == 0))
