#!/usr/bin/python3
"""Generates the pure-LDP cross-check fixtures of test/unit/pure_ldp_crosscheck_test.cpp.

Not run in CI: the fixtures it writes are committed. pure-LDP (Samuel Maddock,
MIT licence) is NOT part of this repository; this script imports it from a
checkout whose path is given on the command line, and only its outputs (reports
its clients produced and its servers' estimates) are committed.

    /usr/bin/python3 test/data/make_pure_ldp_fixture.py PURE_LDP_CHECKOUT [OUT_DIR]

OUT_DIR defaults to test/data/pure_ldp beside this script. Needs Debian's
python3-numpy, python3-xxhash and python3-bitarray (pure_ldp.core imports
bitarray); nothing else: the frequency_oracles package's __init__ (which pulls in
scikit-learn and matplotlib through modules we do not use) is bypassed and only
the three modules we need are imported.

Users hold items v in [0, k). pure-LDP's clients and servers take data items
1..k and map them to indexes with their default index_mapper x - 1, so user v is
passed as v + 1, and every report (GRR item, bit position, the text OLH hashes)
is in terms of the index v, which is our item v.

Files written (all text, one record a line, tab-separated):
  params.txt        key<TAB>value: epsilon (repr), k, n, olh_g, seeds, versions
  population.txt    item<TAB>holders (the true population)
  grr_reports.txt   the reported item in [0, k)
  sue_reports.txt   k characters '0'/'1', bit v = item v from the left
  oue_reports.txt   same
  olh_reports.txt   seed<TAB>y, seed exactly as pure-LDP passes it to xxhash.xxh32
  estimates.txt     protocol<TAB>item<TAB>support<TAB>estimate<TAB>normsub
                    support: the server's aggregated count of item v (integer);
                    estimate: its estimate_all(...) for the item, repr() of the float
                    (a COUNT, n times a frequency); normsub: the same with
                    normalization=2 (projection onto the probability simplex)
  olh_hashes.txt    seed<TAB>g<TAB>h_0,h_1,...,h_{1023}: the hash of every v in
                    [0, 1024) under that seed and range g, as pure-LDP's LHServer
                    computes it (read off its aggregate(), see olh_hashes below)
"""
import importlib
import math
import os
import random
import subprocess
import sys
import types

EPSILON = 1.5  # OLH: g = round(e^1.5) + 1 = round(4.48) + 1 = 5
K = 16
N = 2000
BASE_SEED = 20240607
PROTOCOLS = ("grr", "sue", "oue", "olh")
HASH_DOMAIN = 1024


def import_pure_ldp(root):
    """The client and server classes we use, without frequency_oracles/__init__.py."""
    root = os.path.abspath(root)
    if not os.path.isfile(os.path.join(root, "pure_ldp", "core", "_freq_oracle_server.py")):
        sys.exit(f"{root} is not a pure-LDP checkout (no pure_ldp/core)")
    sys.path.insert(0, root)
    pkg = types.ModuleType("pure_ldp.frequency_oracles")
    pkg.__path__ = [os.path.join(root, "pure_ldp", "frequency_oracles")]
    sys.modules["pure_ldp.frequency_oracles"] = pkg
    de = importlib.import_module("pure_ldp.frequency_oracles.direct_encoding")
    ue = importlib.import_module("pure_ldp.frequency_oracles.unary_encoding")
    lh = importlib.import_module("pure_ldp.frequency_oracles.local_hashing")
    return de, ue, lh


def population():
    """A skewed (Zipf-like, exponent 1.1) population of N users over K items, the
    last item held by nobody; counts by largest remainder, users in shuffled order."""
    w = [1.0 / (v + 1) ** 1.1 for v in range(K - 1)] + [0.0]
    total = sum(w)
    exact = [N * x / total for x in w]
    holders = [int(math.floor(x)) for x in exact]
    order = sorted(range(K), key=lambda v: -(exact[v] - holders[v]))
    for v in order[: N - sum(holders)]:
        holders[v] += 1
    users = [v for v in range(K) for _ in range(holders[v])]
    random.Random(BASE_SEED).shuffle(users)
    return holders, users


def seed_all(offset):
    """pure-LDP's clients draw from both Python's random and numpy's global RNG."""
    import numpy as np

    random.seed(BASE_SEED + offset)
    np.random.seed((BASE_SEED + offset) % 2**32)


def make_clients_servers(de, ue, lh):
    return {
        "grr": (de.DEClient(EPSILON, K), de.DEServer(EPSILON, K)),
        "sue": (ue.UEClient(EPSILON, K, use_oue=False), ue.UEServer(EPSILON, K, use_oue=False)),
        "oue": (ue.UEClient(EPSILON, K, use_oue=True), ue.UEServer(EPSILON, K, use_oue=True)),
        "olh": (lh.LHClient(EPSILON, K, use_olh=True), lh.LHServer(EPSILON, K, use_olh=True)),
    }


def report_line(protocol, report):
    if protocol == "grr":
        return str(int(report))
    if protocol in ("sue", "oue"):
        assert len(report) == K
        return "".join("1" if int(b) else "0" for b in report)
    y, seed = report  # LHClient.privatise returns (y, seed)
    return f"{int(seed)}\t{int(y)}"


def olh_hashes(lh, seed, g):
    """H_seed(v) for v in [0, HASH_DOMAIN), as pure-LDP's own LHServer computes it:
    aggregating the report (y, seed) counts exactly the items whose hash is y."""
    server = lh.LHServer(EPSILON, HASH_DOMAIN, g=g)
    h = [None] * HASH_DOMAIN
    for y in range(g):
        server.reset()
        server.aggregate((y, seed))
        for v in range(HASH_DOMAIN):
            if server.aggregated_data[v] == 1:
                assert h[v] is None
                h[v] = y
    assert all(x is not None for x in h)
    return h


def git_commit(root):
    try:
        return subprocess.check_output(["git", "-C", root, "rev-parse", "HEAD"], text=True).strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    root = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) == 3 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "pure_ldp")
    de, ue, lh = import_pure_ldp(root)
    import numpy as np
    import xxhash

    os.makedirs(out, exist_ok=True)
    holders, users = population()
    cs = make_clients_servers(de, ue, lh)
    g = cs["olh"][0].g
    assert g == cs["olh"][1].g == int(round(math.exp(EPSILON))) + 1 and g > 2

    estimates = []
    olh_seeds = []
    for i, protocol in enumerate(PROTOCOLS):
        client, server = cs[protocol]
        seed_all(i + 1)
        lines = []
        for v in users:
            report = client.privatise(v + 1)  # pure-LDP items are 1..k (index_mapper x - 1)
            lines.append(report_line(protocol, report))
            server.aggregate(report)
            if protocol == "olh":
                olh_seeds.append(int(report[1]))
        with open(os.path.join(out, f"{protocol}_reports.txt"), "w") as f:
            f.write("\n".join(lines) + "\n")
        items = range(1, K + 1)
        est = server.estimate_all(items, suppress_warnings=True)
        normsub = server.estimate_all(items, suppress_warnings=True, normalization=2)
        assert server.n == N
        for v in range(K):
            support = float(server.aggregated_data[v])
            assert support == int(support)
            estimates.append(
                f"{protocol}\t{v}\t{int(support)}\t{float(est[v])!r}\t{float(normsub[v])!r}")

    with open(os.path.join(out, "estimates.txt"), "w") as f:
        f.write("\n".join(estimates) + "\n")
    with open(os.path.join(out, "population.txt"), "w") as f:
        f.write("".join(f"{v}\t{holders[v]}\n" for v in range(K)))

    # The hash itself: seeds at the edges of the 32-bit truncation, a few seeds of
    # the fixture, and ranges g of epsilon = ln 2 .. 5 (g = 2, 5, 21, 149).
    special = [0, 1, 2**31 - 1, 2**31, 2**32 - 1, 2**32, 2**32 + 12345, 2**62 + 7, sys.maxsize]
    hash_lines = []
    for seed in special + olh_seeds[:6]:
        hash_lines.append((seed, g))
    for seed in special[:: 2]:
        for gg in (2, 21, 149):
            hash_lines.append((seed, gg))
    with open(os.path.join(out, "olh_hashes.txt"), "w") as f:
        for seed, gg in hash_lines:
            f.write(f"{seed}\t{gg}\t" + ",".join(map(str, olh_hashes(lh, seed, gg))) + "\n")

    params = [
        ("epsilon", repr(EPSILON)),
        ("k", K),
        ("n", N),
        ("olh_g", g),
        ("base_seed", BASE_SEED),
        ("seeding", "random.seed(base_seed+i); numpy.random.seed(base_seed+i), i = 1..4 for grr, sue, oue, olh"),
        ("pure_ldp_commit", git_commit(root)),
        ("python", sys.version.split()[0]),
        ("numpy", np.__version__),
        ("xxhash_binding", xxhash.VERSION),
        ("xxhash_library", xxhash.XXHASH_VERSION),
    ]
    with open(os.path.join(out, "params.txt"), "w") as f:
        f.write("".join(f"{key}\t{value}\n" for key, value in params))

    total = sum(os.path.getsize(os.path.join(out, name)) for name in os.listdir(out))
    print(f"wrote {len(os.listdir(out))} files, {total} bytes, to {out}")


if __name__ == "__main__":
    main()
