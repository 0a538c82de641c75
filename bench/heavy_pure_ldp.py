#!/usr/bin/python3
"""pure-LDP's PEM and SFP on the heavy-hitter workload of issue 20, as reference figures.

    /usr/bin/python3 bench/heavy_pure_ldp.py PURE_LDP_CHECKOUT [--words FILE] [--n N]
        [--seed S] [--epsilon 2] [--tau-coef 15] [--hashes 256] [--width 1024]
        [--pem-start 0] [--pem-fragment 3] [--sfp-fragment 2] [--top-k K]
        [--protocols pem,sfp] [--header]

pure-LDP (github.com/Samuel-Maddock/pure-LDP, MIT) is imported from the checkout given,
not part of this repository (Debian's python3-numpy, python3-xxhash, python3-bitarray,
python3-scipy and python3-bitstring suffice; bench/heavy_pure_ldp.sh installs them).

Workload (issue 20, docs/algorithms/heavy-hitters.md#treehist): the words of the word file (word<TAB>count,
one header line; default ../shared/data/subtlex_us_words.tsv beside the checkout if
present, else the bundled test/data/subtlex_top1000.tsv) that are 1-6 letters a-z
(case-sensitive, so "I" is out: 48 words reach 15*sqrt(n) at n = 10^7, 10 at 10^6); N
users drawn i.i.d. in proportion to the counts with numpy's default_rng(SEED); eps = 2;
maximum length L = 6; threshold tau = TAU_COEF*sqrt(n) counts (15*sqrt(n), ours for
strings). The true set is the words whose count among the N drawn users is >= tau.

Runs, each with pure-LDP's own client and server (Python `random` and numpy's global
generator, which its clients draw from, seeded with SEED):
- PEM (heavy_hitters/prefix_extending): start length s0 = 0, fragment s = 3, so
  g = ceil((L - s0)/s) = 2 groups of prefixes of 3 and 6 characters; alphabet a-z plus
  '*' (27 symbols; the pad must be in it for words shorter than L to be found). Threshold
  mode with threshold = tau/n: pure-LDP compares g*estimate/n of each prefix, i.e. a
  count scaled to all n users, so it prunes group 0 and outputs group 1 at tau counts.
- SFP (heavy_hitters/apple_sfp): fragment s = 2 (s must divide L; s = 3 would estimate
  2 x 256 x 27^3 = 10M fragment strings), alphabet the set a-z (SFP adds '*'). Its
  fragment threshold compares the *unscaled* fragment estimate (a count among the ~n*s/L
  users of that position) with threshold*n, so we pass threshold = tau*(s/L)/n, which
  keeps a fragment whose count scaled by the L/s positions is >= tau. SFP outputs every
  candidate (Cartesian product of the fragments with the same 8-bit hash) with its
  word-oracle estimate and applies no threshold to it: we keep the candidates whose word
  estimate is >= tau (ours), and also report how many candidates pure-LDP returned.
- Oracle: HCMS (apple_cms, is_hadamard=True), HASHES rows x WIDTH columns (default
  256 x 1024, the project's standard sketch), for every PEM group, every SFP position and
  SFP's word oracle. Chosen because its server state is fixed in size (OLH's grows with
  n, and SFP with OLH raises AttributeError); HCMS rather than CMS because a CMS report is
  a WIDTH-bit vector (encode and aggregate O(WIDTH)) and the extension instantiates
  these protocols with HCMS (docs/algorithms/heavy-hitters.md#pem-prefix-extending).
  Standard errors (derived there):
  PEM c(eps)*sqrt(g*n); SFP fragment c(eps/2)*sqrt((L/s)*n), word c(eps/2)*sqrt(n);
  printed as tau/sigma.
- --sfp-frag-sigmas Z additionally decodes the same SFP server with the fragment
  threshold lowered to tau - Z*sigma_frag (scaled counts; ours, not pure-LDP's: a word at
  tau passes each of the L/s positions only with probability 1/2 at tau), the word
  threshold staying tau. Labelled "frag τ−Zσ_frag".
- --top-k K additionally decodes the same servers in pure-LDP's top-k mode (PEM: top K
  per group; SFP: top K fragments per position, then the K candidates with the largest
  word estimates), scored against the same true set (count >= tau). Labelled "top-K".

Measured, per protocol: recall and precision of the returned list (trailing '*'
stripped) against the true set ("-" when undefined: empty set or empty list); the number
returned; encode time (all N client.privatise calls, pure-LDP's Python client); server
aggregation time (all N server.aggregate calls); decode time (find_heavy_hitters,
including HCMS's Hadamard transform on first use, plus for SFP nothing else: the word
estimates are inside it); summary bytes = the sum of the oracles' sketch_matrix.nbytes
(float64, as pure-LDP stores it; the decode adds a transformed copy of each, not counted;
the same counters as int32 take half). Times are wall clock, single-threaded.

Not measured: anything of this extension (this script imports none of it), memory
beyond the sketches, a merge of summaries. pure-LDP's defects
(docs/algorithms/heavy-hitters.md#differences-from-pure-ldp):
- avoided by the parameters: PEM threshold mode's lazy `filter` that loses every
  fragment but the first from the third group on (g = 2 here, so it is consumed once);
  PEM's prefixes longer than the padded strings when s does not divide L - s0 (3 | 6);
  SFP with a non-sketch oracle (HCMS is one); SFP's alphabet passed as a set.
- remaining: SFP's fragment threshold is unscaled (compensated as above, a choice of
  ours); SFP applies no threshold to the word estimates (we apply tau); the 8-bit hash in
  SFP's fragments makes heavy hitters with the same hash value share a bucket, whose
  Cartesian product then holds mixed candidates, all sent to the word oracle.
"""
import argparse
import importlib
import math
import os
import random
import re
import sys
import time
import types
from collections import Counter

L = 6
PAD = "*"
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def import_pure_ldp(root):
    root = os.path.abspath(root)
    for rel in ("heavy_hitters/prefix_extending/pem_server.py", "heavy_hitters/apple_sfp/sfp_server.py",
                "frequency_oracles/apple_cms/cms_sever.py"):
        if not os.path.isfile(os.path.join(root, "pure_ldp", rel)):
            sys.exit(f"{root} is not a pure-LDP checkout (no pure_ldp/{rel})")
    sys.path.insert(0, root)
    # skip the package __init__s that import every oracle and protocol
    for sub in ("frequency_oracles", "heavy_hitters"):
        pkg = types.ModuleType("pure_ldp." + sub)
        pkg.__path__ = [os.path.join(root, "pure_ldp", sub)]
        sys.modules["pure_ldp." + sub] = pkg
    cms = importlib.import_module("pure_ldp.frequency_oracles.apple_cms")
    pem = importlib.import_module("pure_ldp.heavy_hitters.prefix_extending")
    sfp = importlib.import_module("pure_ldp.heavy_hitters.apple_sfp")
    return cms, pem, sfp


def default_words():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    shared = os.path.join(root, "..", "shared", "data", "subtlex_us_words.tsv")
    return shared if os.path.isfile(shared) else os.path.join(root, "test", "data", "subtlex_top1000.tsv")


def load_words(path):
    counts = Counter()
    with open(path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        if header[:2] != ["word", "count"]:
            sys.exit(f"{path}: expected a 'word<TAB>count' header, got {header!r}")
        for line in f:
            w, c = line.rstrip("\n").split("\t")[:2]
            if re.fullmatch("[a-z]{1,6}", w):
                counts[w] += int(c)
    return counts


def c_eps(e):
    return (math.exp(e) + 1) / (math.exp(e) - 1)


def score(found, truth):
    found = set(found)
    tp = len(found & truth)
    recall = tp / len(truth) if truth else None
    precision = tp / len(found) if found else None
    return tp, recall, precision


def fmt(x):
    return "-" if x is None else f"{x:.2f}"


def sketch_bytes(oracles):
    return sum(o.sketch_matrix.nbytes for o in oracles)


def run(name, client, server, oracles, users, seed):
    random.seed(seed)
    import numpy
    numpy.random.seed(seed)
    t_enc = t_agg = 0.0
    chunk = 100000
    for i in range(0, len(users), chunk):
        part = users[i:i + chunk]
        t0 = time.perf_counter()
        reports = [client.privatise(w) for w in part]
        t1 = time.perf_counter()
        for r in reports:
            server.aggregate(r)
        t2 = time.perf_counter()
        t_enc += t1 - t0
        t_agg += t2 - t1
    return t_enc, t_agg, sketch_bytes(oracles)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pure_ldp")
    ap.add_argument("--words", default=None)
    ap.add_argument("--n", type=int, default=100000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--epsilon", type=float, default=2.0)
    ap.add_argument("--tau-coef", type=float, default=15.0)
    ap.add_argument("--hashes", type=int, default=256)
    ap.add_argument("--width", type=int, default=1024)
    ap.add_argument("--pem-start", type=int, default=0)
    ap.add_argument("--pem-fragment", type=int, default=3)
    ap.add_argument("--sfp-fragment", type=int, default=2)
    ap.add_argument("--top-k", type=int, default=None)
    ap.add_argument("--sfp-frag-sigmas", type=float, default=None)
    ap.add_argument("--protocols", default="pem,sfp")
    ap.add_argument("--header", action="store_true", help="print the Markdown table header first")
    a = ap.parse_args()
    if L % a.sfp_fragment:
        sys.exit("SFP needs its fragment length to divide L = 6")
    if (L - a.pem_start) % a.pem_fragment:
        print(f"warning: pem fragment {a.pem_fragment} does not divide L - s0 = {L - a.pem_start} "
              "(pure-LDP defect: prefixes longer than the padded strings)", file=sys.stderr)
    cms, pem, sfp = import_pure_ldp(a.pure_ldp)
    import numpy as np

    counts = load_words(a.words or default_words())
    words = sorted(counts)
    p = np.array([counts[w] for w in words], dtype=np.float64)
    p /= p.sum()
    idx = np.random.default_rng(a.seed).choice(len(words), size=a.n, p=p)
    users = [words[i] for i in idx]
    n = a.n
    tau = a.tau_coef * math.sqrt(n)
    sample = Counter(users)
    truth = {w for w, c in sample.items() if c >= tau}

    if a.header:
        print("| protocol | mode | n | seed | true ≥ τ | returned | recall | precision | "
              "encode s | aggregation s (µs/report) | decode s | summary bytes | τ/σ |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")

    def row(proto, mode, found, t_enc, t_agg, t_dec, nbytes, zs, extra=""):
        found = [w.rstrip(PAD) for w in found]
        _, rec, prec = score(found, truth)
        ret = f"{len(found)}{extra}"
        print(f"| {proto} | {mode} | {n} | {a.seed} | {len(truth)} | {ret} | {fmt(rec)} | {fmt(prec)} | "
              f"{t_enc:.1f} | {t_agg:.1f} ({t_agg / n * 1e6:.1f}) | {t_dec:.1f} | {nbytes} | {zs} |", flush=True)

    protos = a.protocols.split(",")
    if "pem" in protos:
        alphabet = list(LETTERS) + [PAD]
        fo_server = cms.CMSServer(a.epsilon, a.hashes, a.width, is_hadamard=True)
        fo_client = cms.CMSClient(a.epsilon, fo_server.get_hash_funcs(), a.width, is_hadamard=True)
        client = pem.PEMClient(a.epsilon, a.pem_start, L, a.pem_fragment, alphabet=alphabet, fo_client=fo_client)
        server = pem.PEMServer(a.epsilon, a.pem_start, L, a.pem_fragment, alphabet=alphabet, fo_server=fo_server)
        g = server.g
        t_enc, t_agg, nbytes = run("pem", client, server, server.oracles, users, a.seed)
        sigma = c_eps(a.epsilon) * math.sqrt(g * n)
        zs = f"{tau / sigma:.1f} (g = {g})"
        t0 = time.perf_counter()
        hh, _ = server.find_heavy_hitters(threshold=tau / n)
        t_dec = time.perf_counter() - t0
        row("PEM", f"τ (s0={a.pem_start}, s={a.pem_fragment})", hh, t_enc, t_agg, t_dec, nbytes, zs)
        if a.top_k:
            t0 = time.perf_counter()
            hh, _ = server.find_heavy_hitters(k=a.top_k)
            t_dec = time.perf_counter() - t0
            row("PEM", f"top-{a.top_k}", hh, t_enc, t_agg, t_dec, nbytes, zs)
    if "sfp" in protos:
        s = a.sfp_fragment
        fo_server = cms.CMSServer(a.epsilon, a.hashes, a.width, is_hadamard=True)
        fo_client = cms.CMSClient(a.epsilon, fo_server.get_hash_funcs(), a.width, is_hadamard=True)
        client = sfp.SFPClient(a.epsilon, s, L, alphabet=set(LETTERS), fo_client=fo_client)
        server = sfp.SFPServer(a.epsilon, s, L, alphabet=set(LETTERS), fo_server=fo_server)
        oracles = server.fragment_fo_list + [server.word_fo]
        t_enc, t_agg, nbytes = run("sfp", client, server, oracles, users, a.seed)
        sig_f = c_eps(a.epsilon / 2) * math.sqrt(L / s * n)
        sig_w = c_eps(a.epsilon / 2) * math.sqrt(n)
        zs = f"frag {tau / sig_f:.1f}, word {tau / sig_w:.1f}"
        t0 = time.perf_counter()
        cand, est = server.find_heavy_hitters(threshold=tau * s / L / n)
        t_dec = time.perf_counter() - t0
        kept = [w for w, f in zip(cand, est) if f >= tau]
        row("SFP", f"τ (s={s}; frag τ·s/L, word τ ours)", kept, t_enc, t_agg, t_dec, nbytes, zs,
            extra=f" of {len(cand)} cand.")
        if a.sfp_frag_sigmas is not None:
            z = a.sfp_frag_sigmas
            tau_f = max(tau - z * sig_f, 0.0)
            t0 = time.perf_counter()
            cand, est = server.find_heavy_hitters(threshold=tau_f * s / L / n)
            t_dec = time.perf_counter() - t0
            kept = [w for w, f in zip(cand, est) if f >= tau]
            row("SFP", f"τ (s={s}; frag τ−{z:g}σ_frag, word τ; ours)", kept, t_enc, t_agg, t_dec, nbytes, zs,
                extra=f" of {len(cand)} cand.")
        if a.top_k:
            t0 = time.perf_counter()
            cand, est = server.find_heavy_hitters(k=a.top_k)
            t_dec = time.perf_counter() - t0
            top = [w for w, _ in sorted(zip(cand, est), key=lambda x: -x[1])[:a.top_k]]
            row("SFP", f"top-{a.top_k}", top, t_enc, t_agg, t_dec, nbytes, zs, extra=f" of {len(cand)} cand.")


if __name__ == "__main__":
    main()
