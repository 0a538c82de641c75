#!/usr/bin/env bash
# Regenerates test/data/rappor/ (issue 21): a case simulated with google/rappor's own
# Python client, summed with its bin/sum_bits.py, hashed with bin/hash_candidates.py and
# decoded by its analysis/R/decode.R under 30 R seeds (Decode resamples with rnorm).
# test/unit/rappor_reference_test.cpp checks our Bloom filters, PRRs and decoder against
# these files. Only the outputs are committed, never google/rappor's code.
#
#   bench/rappor_reference.sh RAPPOR            (RAPPOR: a google/rappor work tree or git dir)
#
# The case (docs/algorithms/rappor.md): k = 32 bits, h = 2 hashes, m = 32 cohorts, p = 0.25,
# q = 0.75, f = 0.5; one report per device, device i in a cohort drawn by Python's
# random.Random(1), secret "secret<i>"; 60 strings v1..v60 with 30000/i^0.9 devices and
# 20 strings u1..u20 (500 each) that are not candidates; candidates v1..v60 and 40
# absent w1..w40. The IRR draws come from random.Random(2) through the client's
# irr_rand interface (its SecureIrrRand uses SystemRandom, which cannot be seeded);
# everything else is the client's own code (rappor.Encoder, get_bloom_bits,
# get_prr_masks, bit_string).
#
# decode.R needs limSolve, which Debian lacks: bench/rappor_decode_r.R stands quadprog's
# solve.QP in for lsei (which is what lsei runs without equalities). Needs Debian's r-base-core,
# r-cran-glmnet, r-cran-quadprog (installed with apt-get when missing) and a Python 2.7
# (PYTHON2, default python2; the client is Python 2 code).
#
# Outputs in test/data/rappor/:
#   params.csv          k,h,m,p,q,f as the client's Params.from_csv reads them
#   truth.csv           string,devices (candidates or not)
#   candidates.txt      one candidate per line, in the order of the map
#   counts.csv          sum_bits.py's counts file (m rows: N_c, then bits 0..k-1)
#   client_reports.csv  the first 400 reports: user_id,cohort,bloom,prr,irr (bit_string)
#   decode_runs.csv     seed,string,estimate,std_error for every string Decode reports
#   decode_time.txt     seconds per Decode() inside R, over the 30 runs
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
src="${1:-}"
[ -n "$src" ] && [ -d "$src" ] || { sed -n '2,34p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
python2="${PYTHON2:-python2}"
out="$root/test/data/rappor"
mkdir -p "$out"
work="$(mktemp -d "${TMPDIR:-/tmp}/rappor-ref.XXXXXX")"
trap 'rm -rf "$work"' EXIT

. "$here/rappor_common.sh"
rappor_copy "$src" "$work"

printf 'k,h,m,p,q,f\n32,2,32,0.25,0.75,0.5\n' > "$out/params.csv"

cat > "$work/simulate.py" <<'EOF'
# Python 2: the population through google/rappor's client (rappor.Encoder).
import csv, random, sys
sys.path.insert(0, sys.argv[1])
import rappor

out = sys.argv[2]
params = rappor.Params.from_csv(open(out + '/params.csv'))

class SeededIrr(object):  # the irr_rand interface of rappor.SecureIrrRand, seeded
  def __init__(self, params, rng):
    k = params.num_bloombits
    def gen(prob):
      def draw():
        r = 0
        for i in xrange(k):
          r |= (rng.random() < prob) << i
        return r
      return draw
    self.p_gen = gen(params.prob_p)
    self.q_gen = gen(params.prob_q)

pop = [('v%d' % i, int(round(30000 / i ** 0.9))) for i in xrange(1, 61)]
pop += [('u%d' % i, 500) for i in xrange(1, 21)]
with open(out + '/truth.csv', 'w') as f:
  w = csv.writer(f, lineterminator='\n')
  w.writerow(['string', 'devices'])
  for s, n in pop:
    w.writerow([s, n])
with open(out + '/candidates.txt', 'w') as f:
  for i in xrange(1, 61):
    f.write('v%d\n' % i)
  for i in xrange(1, 41):
    f.write('w%d\n' % i)

cohorts = random.Random(1)
irr = SeededIrr(params, random.Random(2))
rows = csv.writer(open(sys.argv[3], 'w'), lineterminator='\n')
rows.writerow(['user_id', 'cohort', 'bloom', 'prr', 'irr'])
uid = 0
for s, n in pop:
  for _ in xrange(n):
    cohort = cohorts.randrange(params.num_cohorts)
    e = rappor.Encoder(params, cohort, 'secret%d' % uid, irr)
    bloom, prr, r = e._internal_encode(s)
    k = params.num_bloombits
    rows.writerow([uid, cohort, rappor.bit_string(bloom, k), rappor.bit_string(prr, k), rappor.bit_string(r, k)])
    uid += 1
EOF
"$python2" "$work/simulate.py" "$work/client/python" "$out" "$work/reports.csv"
head -n 401 "$work/reports.csv" > "$out/client_reports.csv"
PYTHONPATH="$work/client/python" "$python2" "$work/bin/sum_bits.py" "$out/params.csv" < "$work/reports.csv" > "$out/counts.csv"
PYTHONPATH="$work/client/python" "$python2" "$work/bin/hash_candidates.py" "$out/params.csv" < "$out/candidates.txt" > "$work/map.csv"

Rscript "$here/rappor_decode_r.R" "$work" "$out/params.csv" "$out/counts.csv" "$work/map.csv" 30 \
  "$out/decode_runs.csv" "$out/decode_time.txt"
echo "wrote $(ls "$out" | tr '\n' ' ')in $out"
