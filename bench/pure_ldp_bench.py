#!/usr/bin/python3
"""pure-LDP's side of bench/pure_ldp_compare.sh: its decode rates at k items.

    /usr/bin/python3 bench/pure_ldp_bench.py PURE_LDP_CHECKOUT OUT_DIR
        [--k 1024] [--epsilon 1.5] [--n-pure 20000] [--n-ours 200000] [--repeats 3]

pure-LDP (MIT) is imported from the checkout given, not part of this repository
(Debian's python3-numpy, python3-xxhash and python3-bitarray suffice).

1. Makes N_OURS OLH reports with pure-LDP's LHClient (use_olh) for a seeded
   Zipf-like population over k items and writes them to OUT_DIR/olh_reports.txt
   ("seed<TAB>y"), the input of our bench/olh_decode_bench.cpp.
2. Times pure-LDP's LHServer decoding the first N_PURE of them: a fresh server,
   aggregate_all(reports), then estimate_all(every item); REPEATS times, and
   prints the median as reports/second. Writes that decode's estimates (counts) to
   OUT_DIR/olh_pure_estimates.txt so the C++ side can check it decodes the same.
3. For reference, the same timing of DEServer (GRR) and UEServer (OUE) on N_PURE
   reports of their own clients.
Prints lines "pure_ldp <protocol> reports=N seconds=[...] median_rate=R".
"""
import argparse
import importlib
import math
import os
import random
import statistics
import sys
import time
import types


def import_pure_ldp(root):
    root = os.path.abspath(root)
    if not os.path.isfile(os.path.join(root, "pure_ldp", "core", "_freq_oracle_server.py")):
        sys.exit(f"{root} is not a pure-LDP checkout (no pure_ldp/core)")
    sys.path.insert(0, root)
    # bypass frequency_oracles/__init__.py, which imports every oracle (scikit-learn, ...)
    pkg = types.ModuleType("pure_ldp.frequency_oracles")
    pkg.__path__ = [os.path.join(root, "pure_ldp", "frequency_oracles")]
    sys.modules["pure_ldp.frequency_oracles"] = pkg
    return (importlib.import_module("pure_ldp.frequency_oracles.direct_encoding"),
            importlib.import_module("pure_ldp.frequency_oracles.unary_encoding"),
            importlib.import_module("pure_ldp.frequency_oracles.local_hashing"))


def population(n, k, seed):
    rng = random.Random(seed)
    weights = [1.0 / (v + 1) ** 1.1 for v in range(k)]
    return rng.choices(range(k), weights=weights, k=n)


def time_decode(make_server, reports, k, repeats):
    times, est = [], None
    for _ in range(repeats):
        server = make_server()
        t0 = time.perf_counter()
        server.aggregate_all(reports)
        est = server.estimate_all(range(1, k + 1), suppress_warnings=True)
        times.append(time.perf_counter() - t0)
    return times, est


def report(name, n, times):
    med = statistics.median(times)
    print(f"pure_ldp {name} reports={n} seconds={[round(t, 4) for t in times]} "
          f"median_rate={n / med:.1f}", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pure_ldp")
    ap.add_argument("out_dir")
    ap.add_argument("--k", type=int, default=1024)
    ap.add_argument("--epsilon", type=float, default=1.5)
    ap.add_argument("--n-pure", type=int, default=20000)
    ap.add_argument("--n-ours", type=int, default=200000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--skip-reference", action="store_true", help="time OLH only")
    a = ap.parse_args()
    de, ue, lh = import_pure_ldp(a.pure_ldp)
    import numpy as np

    os.makedirs(a.out_dir, exist_ok=True)
    k, eps = a.k, a.epsilon
    n_all = max(a.n_ours, a.n_pure)
    users = population(n_all, k, 1)

    random.seed(2)
    np.random.seed(2)
    client = lh.LHClient(eps, k, use_olh=True)
    olh = [client.privatise(v + 1) for v in users]  # (y, seed); items 1..k in pure-LDP
    with open(os.path.join(a.out_dir, "olh_reports.txt"), "w") as f:
        f.write("".join(f"{seed}\t{y}\n" for y, seed in olh))
    print(f"# k={k} epsilon={eps!r} g={client.g} n_pure={a.n_pure} n_ours={a.n_ours}", flush=True)

    times, est = time_decode(lambda: lh.LHServer(eps, k, use_olh=True), olh[: a.n_pure], k,
                             a.repeats)
    report("olh", a.n_pure, times)
    with open(os.path.join(a.out_dir, "olh_pure_estimates.txt"), "w") as f:
        f.write("".join(f"{float(x)!r}\n" for x in est))

    if a.skip_reference:
        return
    random.seed(3)
    np.random.seed(3)
    c = de.DEClient(eps, k)
    grr = [c.privatise(v + 1) for v in users[: a.n_pure]]
    times, _ = time_decode(lambda: de.DEServer(eps, k), grr, k, a.repeats)
    report("grr", a.n_pure, times)

    c = ue.UEClient(eps, k, use_oue=True)
    oue = [c.privatise(v + 1) for v in users[: a.n_pure]]
    times, _ = time_decode(lambda: ue.UEServer(eps, k, use_oue=True), oue, k, a.repeats)
    report("oue", a.n_pure, times)


if __name__ == "__main__":
    main()
