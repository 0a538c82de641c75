#!/usr/bin/env bash
# pg_upgrade and pg_dump from PostgreSQL 15 to a newer major keep every ldp object:
#
#   test/pg_upgrade.sh OLD_BIN NEW_BIN
#
# OLD_BIN and NEW_BIN are the bin directories of private copies of PostgreSQL 15 and of
# the newer major (src/tools/pgenv.sh's ldp_private_pg), each with this checkout's ldp
# installed (test/pg_major.sh passes them).
#
#   1. A 15 cluster (without pg_cron preloaded: the newer copy has no pg_cron, and
#      pg_upgrade starts the new server with the old one's libraries) holds a database
#      with test/fuzz/populate.sql's objects (reports of every mechanism, stored summaries
#      of every family and their rollups and text literals, collections of the mean,
#      frequency, sketch and heavy-hitters families with closed epochs, two THRESH streams),
#      test/ldp_objects.sh's (roles that own collections and a stream, of all five
#      families, over tables and a view, with read, close and submit grants), a histogram
#      THRESH stream of another owner with a closed epoch, and the binary form of every
#      stored summary: its send bytes in a bytea column (public.summaries_binary), and
#      each column of an ldp type written with COPY ... (FORMAT binary) to a file.
#   2. What is compared is printed (test/ldp_snapshot.sql: every table's rows, every
#      stored value's text, send bytes and estimates, every collection's and stream's
#      estimates, status and history, every privilege; and test/ldp_objects.sh's
#      snapshot); NEW's pg_dumpall --roles-only and pg_dump -Fc dump it; it stops.
#   3. For --copy and for --link: a copy of the stopped data directory (cp -a; link mode
#      makes its copy unusable), a new cluster of NEW, pg_upgrade as the cluster owner;
#      then the same snapshot must come out (md5 of every text form, send form and
#      estimate row the same), the COPY BINARY files load into NEW (its receive
#      functions) with the same text, ldp's version is NEW's default and ALTER EXTENSION
#      ldp UPDATE changes nothing in its catalog (test/upgrade_catalog.sql), which is
#      also the catalog CREATE EXTENSION ldp makes on NEW; a grantee of submit sends
#      votes to both THRESH streams and their owners close the phase; and
#      test/ldp_objects.sh's checks (the next closes run as the owners, views read-only,
#      sources and owners cannot be dropped).
#   4. The same, after pg_restore --exit-on-error of the dump into a new cluster of NEW
#      whose roles come from the pg_dumpall script.
#
# Prints "pg_upgrade: CHECK ... ok|FAILED" lines and exits non-zero if one failed. Files
# (logs, snapshots, diffs) in $LDP_PG_UPGRADE_OUT, default build/pg<NEW major>/pg_upgrade.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
# shellcheck source=../src/tools/pgenv.sh
source "$here/../src/tools/pgenv.sh"
root=$(ldp_root)
old_bin=${1:?usage: test/pg_upgrade.sh OLD_BIN NEW_BIN}
new_bin=${2:?usage: test/pg_upgrade.sh OLD_BIN NEW_BIN}
old_major=$(ldp_pg_major "$old_bin")
new_major=$(ldp_pg_major "$new_bin")
out=${LDP_PG_UPGRADE_OUT:-$root/build/pg$new_major/pg_upgrade}
db=ldp_upg
fuzz_role=ldp_upg_fuzz
# populate.sql sets a statement timeout of 2 s on its database (for the fuzzer)
export PGOPTIONS="${PGOPTIONS:-} -c statement_timeout=0" LDP_PRIVATE_CLUSTER=1
unset PGHOST PGPORT PGUSER PGDATABASE

failures=0
check() {  # name ok|FAILED [detail]
  if [[ $2 == ok ]]; then
    echo "pg_upgrade: $1 ... ok"
  else
    echo "pg_upgrade: $1 ... FAILED${3:+ ($3)}"
    failures=$((failures + 1))
  fi
}
q() { "$new_bin/psql" -X -q -At -v ON_ERROR_STOP=1 "$@"; }
# shellcheck source=ldp_objects.sh
source "$here/ldp_objects.sh"

rm -rf "$out"
mkdir -p "$out/copy"
ldp_scratch_make "pg$new_major-upgrade"
c=$(ldp_scratch_dir "pg$new_major-upgrade")/c  # the cluster owner's: data directories, pg_upgrade's cwd
ldp_owner_dir "$c"
bin_of() { if [[ $(cat "$1/PG_VERSION" 2>/dev/null) == "$old_major" ]]; then echo "$old_bin"; else echo "$new_bin"; fi; }
# shellcheck disable=SC2317  # called by the EXIT trap
cleanup() {
  local d
  for d in "$c"/*/; do
    [[ -f $d/postmaster.pid ]] && LDP_PG_BIN=$(bin_of "$d") ldp_cluster_stop "${d%/}" --force >/dev/null 2>&1
  done
  ldp_scratch_cleanup
}
trap cleanup EXIT
trap 'check "the step at line $LINENO of test/pg_upgrade.sh" FAILED "it stopped the test; see above"' ERR
start() {  # bin dir: starts the cluster in dir (PGHOST, PGPORT, PGUSER exported)
  LDP_PG_BIN=$1 LDP_NO_CRON=1 ldp_cluster_start "$2" "log_min_messages = warning" >/dev/null 2>>"$out/clusters.log"
}
stop() { LDP_PG_BIN=$(bin_of "$1") ldp_cluster_stop "$1" >/dev/null 2>>"$out/clusters.log"; }
snapshot() {  # database file
  q -d "$1" -f "$here/ldp_snapshot.sql" >"$2"
  objects_snapshot "$1" "$2.objects"
  cat "$2.objects" >>"$2" && rm "$2.objects"
}

# ---------------------------------------------------------------------------
# 1. the 15 cluster
t0=$SECONDS
start "$old_bin" "$c/old"
for r in "${ldp_objects_roles[@]}"; do q -d postgres -c "CREATE ROLE $r"; done
q -d postgres -c "CREATE DATABASE $db"
q -d "$db" -v fuzz_role="$fuzz_role" -v ldp_weight=1 -f "$root/test/fuzz/populate.sql" >"$out/populate.log" 2>&1
objects_make "$db" ''
objects_make_new "$db"
q -d "$db" >>"$out/populate.log" 2>&1 <<'SQL'
SET client_min_messages = warning;
-- a histogram (HEAVYTHRESH) stream of ldp_dump_bob with a closed epoch (30 users who hold
-- one word each: the hashtogram reports of sql/thresh_histogram.sql)
GRANT EXECUTE ON FUNCTION ldp.heavythresh_create(text, bigint, int, int, bigint, int, float8, float8, int, int, float8, float8, float8)
  TO ldp_dump_bob;
SET ROLE ldp_dump_bob;
SELECT ldp.heavythresh_create('bob_histogram', 30, 4, 100, 30, 1, 8, 0.1, 4, 16, 1, 1);
SELECT ldp.grant_thresh('bob_histogram', 'submit', 'ldp_dump_ingest');
SELECT ldp.grant_thresh('bob_histogram', 'read', 'ldp_dump_reader');
CREATE TABLE dump_bob.held AS
SELECT u::bigint AS u, (ldp.hashtogram_encode(CASE WHEN u % 3 = 0 THEN 'pear' ELSE 'apple' END, 1, 4, 16, u)).*
FROM generate_series(1, 30) u;
SELECT ldp.thresh_submit_votes('bob_histogram', 1, (SELECT array_agg(u) FROM dump_bob.held),
                               (SELECT array_agg(true) FROM dump_bob.held));
CALL ldp.thresh_close_votes('bob_histogram', 1);
SELECT ldp.thresh_submit_histograms('bob_histogram', 1, array_agg(u ORDER BY u), array_agg(hash_index ORDER BY u),
                                    array_agg(coefficient ORDER BY u), array_agg(report ORDER BY u))
FROM dump_bob.held;
CALL ldp.thresh_close_epoch('bob_histogram', 1);
RESET ROLE;
CREATE TABLE public.summaries_binary (rel text, col text, value_md5 text, bytes bytea);
SQL
# every column of an ldp type in a table: its send bytes into summaries_binary, its
# values into a COPY BINARY file
q -d "$db" -F ' ' -c "SELECT c.oid::regclass, quote_ident(a.attname), format_type(a.atttypid, NULL), t.typsend::regproc
  FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
  JOIN pg_type t ON t.oid = a.atttypid
  WHERE t.typnamespace = 'ldp'::regnamespace AND t.typtype = 'b' AND t.typcategory <> 'A' AND c.relkind = 'r'
  ORDER BY c.oid::regclass::text, a.attnum" >"$out/copy/columns"
while read -r rel col typ send; do
  q -d "$db" -c "INSERT INTO public.summaries_binary SELECT '$rel', '$col', md5(v::text), $send(v) FROM (SELECT $col AS v FROM $rel) s" \
    -c "\\copy (SELECT $col FROM $rel) TO '$out/copy/$rel.$col' (FORMAT binary)"
done <"$out/copy/columns"
# The PostgreSQL 15 of the test machines stamps every column with the attribute option
# pg_attver=N, which upstream PostgreSQL does not know: pg_upgrade's and pg_restore's
# ALTER TABLE ... SET (pg_attver=N) fail ("unrecognized parameter"), for any table. Taken
# out of the user columns (ALTER TABLE ... RESET puts it back) before the dumps; a
# Debian 15 has none.
stamps=$(q -d "$db" -c "WITH u AS (UPDATE pg_attribute SET attoptions = nullif(array(SELECT o FROM unnest(attoptions) o
                          WHERE o NOT LIKE 'pg_attver=%'), '{}') WHERE attrelid >= 16384 AND attoptions::text LIKE '%pg_attver=%'
                        RETURNING 1) SELECT count(*) FROM u")
snapshot "$db" "$out/before.txt"
"$new_bin/pg_dumpall" --roles-only -f "$out/roles.sql"
"$new_bin/pg_dump" -Fc -d "$db" -f "$out/$db.dump"
stop "$c/old"
check "PostgreSQL $old_major: a database of every ldp object; its snapshot ($(wc -l <"$out/before.txt") lines, md5 $(md5sum <"$out/before.txt" | cut -c1-12)), COPY BINARY files of $(wc -l <"$out/copy/columns") columns, pg_dump; pg_attver taken out of $stamps columns ($((SECONDS - t0)) s)" ok

# ---------------------------------------------------------------------------
# What must hold in a database that came back on NEW (label: copy, link, restore).
compare() {  # label
  local label=$1 t=$SECONDS
  snapshot "$db" "$out/$label-after.txt"
  # From PostgreSQL 17 on, ALL (the owner's privileges, as pg_dump restores them) includes
  # MAINTAIN (m): an ACL item "role=arwdDxtm/grantor" on NEW is 15's "role=arwdDxt/grantor".
  sed -i -E 's/=([arwdDxt]+)m\//=\1\//g' "$out/$label-after.txt"
  if diff -u "$out/before.txt" "$out/$label-after.txt" >"$out/$label.diff"; then
    check "$label: every table, stored summary (md5 of text, send bytes, estimates), collection, epoch, THRESH stream, owner and grant is the same ($(wc -l <"$out/$label-after.txt") lines)" ok
  else
    check "$label: every table, stored summary, collection, epoch, THRESH stream, owner and grant is the same" FAILED \
      "$(grep -c '^[-+][^-+]' "$out/$label.diff") lines differ: ${out#"$root"/}/$label.diff"
    head -n 20 "$out/$label.diff" >&2
  fi
  local rel col typ send same bad=()
  while read -r rel col typ send; do
    same=$(q -d "$db" -c "CREATE TEMP TABLE b (v $typ)" -c "\\copy b FROM '$out/copy/$rel.$col' (FORMAT binary)" \
             -c "SELECT (SELECT count(*) || md5(string_agg(v::text, E'\n' ORDER BY v::text)) FROM b)
                      = (SELECT count(*) || md5(string_agg($col::text, E'\n' ORDER BY $col::text)) FROM $rel)" 2>&1) || true
    [[ $same == t ]] || bad+=("$rel.$col: $same")
  done <"$out/copy/columns"
  if ((${#bad[@]} == 0)); then
    check "$label: the COPY BINARY files of PostgreSQL $old_major load into $new_major with the same values" ok
  else
    check "$label: the COPY BINARY files of PostgreSQL $old_major load into $new_major with the same values" FAILED "${bad[*]}"
  fi
  # nothing left to update: the version is NEW's default, and ALTER EXTENSION ldp UPDATE
  # changes nothing in the catalog, which is the one CREATE EXTENSION ldp makes on NEW
  local versions notice
  versions=$(q -d "$db" -c "SELECT extversion || ' ' || default_version FROM pg_extension, pg_available_extensions
                             WHERE extname = 'ldp' AND name = 'ldp'")
  q -d "$db" -f "$root/test/upgrade_catalog.sql" >"$out/$label-catalog.txt"
  notice=$(q -d "$db" -c "ALTER EXTENSION ldp UPDATE" 2>&1)
  q -d "$db" -f "$root/test/upgrade_catalog.sql" >"$out/$label-catalog-updated.txt"
  if [[ ${versions% *} == "${versions#* }" ]] && cmp -s "$out/$label-catalog.txt" "$out/$label-catalog-updated.txt"; then
    check "$label: ldp ${versions% *} is the default version; ALTER EXTENSION ldp UPDATE changes nothing in its catalog (${notice#NOTICE:  })" ok
  else
    check "$label: ldp is at the default version; ALTER EXTENSION ldp UPDATE changes nothing in its catalog" FAILED \
      "versions $versions; $notice; diff ${out#"$root"/}/$label-catalog.txt $label-catalog-updated.txt"
  fi
  # Privileges aside: they differ by this test's grants (compared above), and pg_upgrade
  # records no initial privileges (pg_init_privs) that are the owner's default (the
  # ldp.*_catalog tables, REVOKE ALL ... FROM PUBLIC), which pg_dump takes as the same.
  q -d postgres -c "CREATE DATABASE ldp_upg_fresh"
  q -d ldp_upg_fresh -c "CREATE EXTENSION ldp"
  q -d ldp_upg_fresh -f "$root/test/upgrade_catalog.sql" >"$out/$label-catalog-fresh.txt"
  q -d postgres -c "DROP DATABASE ldp_upg_fresh"
  if diff -u <(grep -v -e ' acl=' -e '^init privileges ' "$out/$label-catalog-fresh.txt") \
             <(grep -v -e ' acl=' -e '^init privileges ' "$out/$label-catalog.txt") >"$out/$label-catalog.diff"; then
    check "$label: ldp's catalog, privileges aside, is the one CREATE EXTENSION ldp makes on PostgreSQL $new_major ($(wc -l <"$out/$label-catalog.txt") lines)" ok
  else
    check "$label: ldp's catalog, privileges aside, is the one CREATE EXTENSION ldp makes on PostgreSQL $new_major" FAILED \
      "${out#"$root"/}/$label-catalog.diff"
  fi
  # THRESH goes on: a grantee of submit votes, the owners close the phase
  local thresh
  thresh=$(q -d "$db" -c "SET ROLE ldp_dump_ingest" \
             -c "SELECT ldp.thresh_submit_votes('alice_stream', 2, '{1,2,3}', '{t,f,t}')" \
             -c "SELECT ldp.thresh_submit_votes('bob_histogram', 2, '{1,2,3}', '{f,f,f}')" \
             -c "SET ROLE ldp_dump_alice" -c "CALL ldp.thresh_close_votes('alice_stream')" \
             -c "SET ROLE ldp_dump_bob" -c "CALL ldp.thresh_close_votes('bob_histogram')" -c "RESET ROLE" \
             -c "SELECT string_agg(name || ':' || epoch || ':' || phase, ' ' ORDER BY name) FROM ldp.thresh_streams
                 WHERE name IN ('alice_stream', 'bob_histogram')" 2>&1) || true
  if [[ $thresh == $'3\n3\nalice_stream:2:closed bob_histogram:2:closed' ]]; then
    check "$label: a grantee of submit votes in both THRESH streams (plain, histogram); their owners close the phase" ok
  else
    check "$label: a grantee of submit votes in both THRESH streams (plain, histogram); their owners close the phase" \
      FAILED "$(tr '\n' ' ' <<<"$thresh")"
  fi
  objects_check_after "$db" "$label"
  echo "pg_upgrade: $label: checked in $((SECONDS - t)) s" >&2
}

# ---------------------------------------------------------------------------
# 3. pg_upgrade --copy and --link. PostgreSQL 18's initdb enables data checksums by
# default and pg_upgrade refuses to upgrade a cluster without them into one with them: the
# new cluster is made with --no-data-checksums where initdb has it (18 on), as a user of a
# Debian 15 cluster (pg_createcluster enables none) must; 17 makes none by default.
checksums=()
if [[ $("$new_bin/initdb" --help) == *--no-data-checksums* ]]; then checksums=(--no-data-checksums); fi
port=$(ldp_pick_port "$LDP_PORT_BASE")
for mode in copy link; do
  t0=$SECONDS
  flag=(--"$mode")  # copying is the default, and 15's and 16's pg_upgrade have no --copy
  if [[ $mode == copy && $("$new_bin/pg_upgrade" --help) != *'--copy '* ]]; then flag=(); fi
  cp -a "$c/old" "$c/$mode-old"
  rm -f "$c/$mode-old/postmaster.pid" "$c/$mode-old/log"
  LDP_PG_BIN=$new_bin ldp_initdb "$c/$mode-new" "${checksums[@]}"
  ldp_owner_dir "$c/$mode-run"
  if ldp_as_owner env -C "$c/$mode-run" "$new_bin/pg_upgrade" "${flag[@]}" --retain -U postgres \
       -b "$old_bin" -d "$c/$mode-old" -B "$new_bin" -D "$c/$mode-new" -p "$port" -P "$port" \
       --socketdir "$c/$mode-run" >"$out/$mode-pg_upgrade.log" 2>&1; then
    check "$mode: pg_upgrade --$mode from PostgreSQL $old_major to $new_major${checksums:+ (new cluster ${checksums[*]})} ($((SECONDS - t0)) s)" ok
  else
    check "$mode: pg_upgrade --$mode from PostgreSQL $old_major to $new_major" FAILED "${out#"$root"/}/$mode-pg_upgrade.log"
    tail -n 20 "$out/$mode-pg_upgrade.log" >&2
    find "$c/$mode-new" "$c/$mode-run" -name '*.log' -path '*pg_upgrade*' -exec cp {} "$out/" \; 2>/dev/null || true
    continue
  fi
  find "$c/$mode-new" -path '*pg_upgrade_output.d*' -name '*.log' -exec cp {} "$out/" \; 2>/dev/null || true
  start "$new_bin" "$c/$mode-new"
  compare "$mode" || true  # (errexit is off in it: a step that fails shows in the checks after it)
  stop "$c/$mode-new"
  rm -rf "${c:?}/$mode-old" "${c:?}/$mode-new" "${c:?}/$mode-run"
done

# ---------------------------------------------------------------------------
# 4. pg_dump of 15 restored into NEW: the roles first (pg_dumpall --roles-only; the
# bootstrap superuser exists), then pg_restore --exit-on-error into a new database
t0=$SECONDS
start "$new_bin" "$c/restore"
grep -v '^CREATE ROLE postgres;$' "$out/roles.sql" | q -d postgres -f - >"$out/restore-roles.log" 2>&1
q -d postgres -c "CREATE DATABASE $db"
if "$new_bin/pg_restore" --exit-on-error -d "$db" "$out/$db.dump" >"$out/restore.log" 2>&1; then
  check "restore: pg_restore --exit-on-error of PostgreSQL $old_major's pg_dump into $new_major, roles from pg_dumpall --roles-only ($((SECONDS - t0)) s)" ok
else
  check "restore: pg_restore --exit-on-error of PostgreSQL $old_major's pg_dump into $new_major" FAILED "$(head -c 300 "$out/restore.log")"
fi
compare restore || true
stop "$c/restore"

((failures == 0))
