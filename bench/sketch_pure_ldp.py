#!/usr/bin/python3
"""pure-LDP's side of the candidate benchmark of bench/sketch.sh: how many candidate
strings per second its CMS and HCMS servers estimate, at the benchmark's parameters.

    /usr/bin/python3 bench/sketch_pure_ldp.py PURE_LDP_CHECKOUT
        [--epsilon 4] [--hashes 256] [--width 1024] [--reports 2000] [--candidates 2000]

pure-LDP (github.com/Samuel-Maddock/pure-LDP, MIT) is imported from the checkout
given, not part of this repository (Debian's python3-numpy, python3-xxhash,
python3-bitarray and python3-scipy suffice). For each of cms and hcms: a server
CMSServer(epsilon, hashes, width), REPORTS reports of its own client aggregated, one
warm-up estimate (HCMS transforms its sketch on the first estimate and caches it), then
estimate_all of CANDIDATES strings timed. Prints "pure_ldp <protocol> candidates=N
seconds=S rate=R" lines (R = candidates per second).
"""
import argparse
import importlib
import os
import random
import sys
import time
import types


def import_cms(root):
    root = os.path.abspath(root)
    if not os.path.isfile(os.path.join(root, "pure_ldp", "frequency_oracles", "apple_cms", "cms_client.py")):
        sys.exit(f"{root} is not a pure-LDP checkout")
    sys.path.insert(0, root)
    pkg = types.ModuleType("pure_ldp.frequency_oracles")  # skip its __init__ (imports every oracle)
    pkg.__path__ = [os.path.join(root, "pure_ldp", "frequency_oracles")]
    sys.modules["pure_ldp.frequency_oracles"] = pkg
    return importlib.import_module("pure_ldp.frequency_oracles.apple_cms")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pure_ldp")
    ap.add_argument("--epsilon", type=float, default=4.0)
    ap.add_argument("--hashes", type=int, default=256)
    ap.add_argument("--width", type=int, default=1024)
    ap.add_argument("--reports", type=int, default=2000)
    ap.add_argument("--candidates", type=int, default=2000)
    a = ap.parse_args()
    cms = import_cms(a.pure_ldp)
    random.seed(1)
    import numpy
    numpy.random.seed(1)
    words = [f"w{i % 50}" for i in range(a.reports)]
    candidates = [f"candidate-{i}" for i in range(a.candidates)]
    for protocol, hadamard in (("cms", False), ("hcms", True)):
        server = cms.CMSServer(a.epsilon, a.hashes, a.width, is_hadamard=hadamard)
        client = cms.CMSClient(a.epsilon, server.get_hash_funcs(), a.width, is_hadamard=hadamard)
        for w in words:
            server.aggregate(client.privatise(w))
        server.estimate_all(["warm-up"], suppress_warnings=True)
        t0 = time.perf_counter()
        server.estimate_all(candidates, suppress_warnings=True)
        s = time.perf_counter() - t0
        print(f"pure_ldp {protocol} candidates={a.candidates} seconds={s:.3f} rate={a.candidates / s:.1f}", flush=True)


if __name__ == "__main__":
    main()
