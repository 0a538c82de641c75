#!/usr/bin/env bash
# RAPPOR decode time in SQL (issue 21): ldp.rappor_decode of a stored ldp.rappor_summary
# (128 bits, 2 hashes, 64 cohorts, 10^6 reports) against 1,000 and 10,000 candidates, on
# the counts bench/rappor_decode_bench.cpp draws (the same counts bench/rappor_decode_r.sh
# gives decode.R). The counts file becomes the summary's text form; the summary is stored
# in a table (a TOASTed value, read and validated by each call), the candidates in
# another; each decode runs REPS times (default 5) under psql's \timing, the first one
# included, and the script prints every time (psql's wall time and the backend's CPU
# time, utime + stime of the backend's /proc/self/stat read with pg_read_file: a
# superuser, on Linux) and the best.
#
#   bench/rappor_decode_sql.sh [CANDIDATES...]   (default 1000 10000)
#
# Runs against the server of PGHOST/PGPORT/PGUSER/PGDATABASE, where the ldp extension is
# installed (ldp in the search path not needed). Needs build/bench/ldp_rappor_decode_bench
# (cmake -S . -B build/bench -DLDP_BUILD_BENCH=ON -DLDP_BUILD_TOOLS=OFF
# -DCMAKE_BUILD_TYPE=Release; cmake --build build/bench --target ldp_rappor_decode_bench),
# which also prints the core's own time on the same summary.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(1000 10000)
reps="${REPS:-5}"
bench="$root/build/bench/ldp_rappor_decode_bench"
[ -x "$bench" ] || { echo "build $bench first (see the header)" >&2; exit 2; }
work="$(mktemp -d "${TMPDIR:-/tmp}/rappor-sql-time.XXXXXX")"
trap 'rm -rf "$work"' EXIT
"$bench" "$work" "${sizes[@]}" | sed 's/^/core: /'

# counts.csv (sum_bits.py's format: per cohort N_c, then bit 0..k-1 counts) -> text form
summary=$(awk -F, '
  $1 > 0 { rows++; n += $1; coh = coh (coh == "" ? "" : ",") (NR - 1); rep = rep (rep == "" ? "" : ",") $1
           for (b = 2; b <= NF; b++) ones = ones (ones == "" ? "" : ",") $b }
  END { printf "v1:rappor{bits=128,hashes=2,cohorts=64,f=0.5,p=0.25,q=0.75,n=%d,rows=%d,cohort=[%s],reports=[%s],ones=[%s]}",
               n, rows, coh, rep, ones }' "$work/counts.csv")
{
  echo "SET client_min_messages = warning;"
  echo "CREATE TEMP TABLE bench_rappor_summary (s ldp.rappor_summary);"
  echo "INSERT INTO bench_rappor_summary VALUES ('$summary');"
  echo "CREATE TEMP TABLE bench_rappor_candidates (size int, c text[]);"
  for s in "${sizes[@]}"; do
    echo "INSERT INTO bench_rappor_candidates SELECT $s, string_to_array(trim(trailing E'\\n' FROM \$\$$(cat "$work/candidates_$s.txt")\$\$), E'\\n');"
  done
  echo "SELECT 'summary', ldp.report_count(s), pg_column_size(s) AS stored_bytes FROM bench_rappor_summary;"
  echo "\\timing on"
  for s in "${sizes[@]}"; do
    for ((r = 1; r <= reps; r++)); do
      echo "SELECT 'cpu', s[12]::bigint + s[13]::bigint FROM (SELECT string_to_array(split_part(pg_read_file('/proc/self/stat'), ') ', 2), ' ') s) x;"
      echo "SELECT 'candidates $s', count(*) AS rows, count(*) FILTER (WHERE d.detected) AS detected
            FROM bench_rappor_summary x, bench_rappor_candidates y, ldp.rappor_decode(x.s, y.c) d WHERE y.size = $s;"
      echo "SELECT 'cpu', s[12]::bigint + s[13]::bigint FROM (SELECT string_to_array(split_part(pg_read_file('/proc/self/stat'), ') ', 2), ' ') s) x;"
    done
  done
} > "$work/bench.sql"
# the backend's CPU time (in clock ticks of the server's host: this one) around each
# query, beside psql's wall time
tick=$(getconf CLK_TCK)
psql -X -q -At -v ON_ERROR_STOP=1 -f "$work/bench.sql" | awk -F'|' -v tick="$tick" '
  /^summary/ { print "sql: " $0; next }
  /^cpu/ { if (before == "") before = $2; else { cpu = ($2 - before) / tick; before = ""
           print "sql: " label ": " t " ms wall, " cpu * 1000 " ms CPU (" result ")"
           if (!(label in best) || t < best[label]) best[label] = t
           if (!(label in bcpu) || cpu < bcpu[label]) bcpu[label] = cpu }; next }
  /^candidates/ { label = $1; result = $2 " rows, " $3 " detected"; next }
  /^Time:/ { t = $0; sub(/^Time: /, "", t); t += 0; next }
  END { for (l in best) print "sql: " l ": best " best[l] " ms wall, " bcpu[l] * 1000 " ms CPU" }'
