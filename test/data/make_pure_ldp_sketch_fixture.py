#!/usr/bin/python3
"""Generates test/data/pure_ldp_sketch/: reports of pure-LDP's Count Mean Sketch
(CMS) and Hadamard CMS (HCMS) clients over words, and its server's estimates.

Not run in CI: the files it writes are committed. pure-LDP (Samuel Maddock, MIT
licence) is NOT part of this repository; this script imports it from a checkout
whose path is given on the command line, and only its outputs (reports its
client produced and its server's estimates) are committed.

    /usr/bin/python3 test/data/make_pure_ldp_sketch_fixture.py PURE_LDP_CHECKOUT [OUT_DIR]

OUT_DIR defaults to test/data/pure_ldp_sketch beside this script. Needs Debian's
python3-numpy, python3-xxhash, python3-bitarray (pure_ldp.core imports it) and
python3-scipy (pure-LDP's CMS client and server take the Hadamard matrix from
scipy.linalg.hadamard); nothing else: the frequency_oracles package's __init__
(which pulls in modules we do not use) is bypassed and only apple_cms is imported.

pure-LDP's CMS is used as its example.py does: one CMSServer(epsilon, k, m), which
makes the k hash functions h_j(x) = xxh64(str(x), seed=j).intdigest() % m, and
one CMSClient(epsilon, server.get_hash_funcs(), m) that shares them. Every
report is aggregated by the server, then estimate_all(items) gives the estimates
(COUNTS, n times a frequency). Items are words (Python str, hashed as UTF-8).

Files written (all text, UTF-8, one record a line, tab-separated):
  params.txt        key=value: versions, epsilon, k, m and n per protocol, seeds
  population.txt    word<TAB>holders: the CMS population (n = 2000). The HCMS
                    population is the same words with 5 times the holders
                    (n = 10000): params.txt hcms_population_multiplier
  cms_reports.txt   hash_index<TAB>bits: pure-LDP's report (v, j) as j, then m
                    characters, character i (0 = leftmost) '1' iff v[i] = +1
  hcms_reports.txt  hash_index<TAB>coefficient<TAB>y: pure-LDP's report (y, j, l)
                    as j, l, y with y = 1 or -1
  estimates.txt     protocol<TAB>word<TAB>estimate: pure-LDP's estimate (repr of
                    the float), for every population word, then for absent words

The script also checks the hash test vectors of
docs/algorithms/README.md#hashes-and-bit-orders and that pure-LDP's hash functions
are h_j above, and recomputes every estimate from the written reports with the
integer-summary estimators of docs/algorithms/sketches.md (CMS and HCMS; our own
code), printing the largest difference from pure-LDP's.
"""
import importlib
import math
import os
import random
import subprocess
import sys
import types

EPSILON = 2.0
BASE_SEED = 20240612
WORDS = 40             # population: the 40 most frequent words of subtlex_top1000.tsv
ZIPF_EXPONENT = 1.1
CMS = dict(k=16, m=32, n=2000)
HCMS = dict(k=16, m=64, n=10000)
HCMS_MULTIPLIER = HCMS["n"] // CMS["n"]
# Words estimated besides the population: ranks 41-45, 100, 250, 500 and 1000 of the
# word list (held by nobody here), the test-vector items, and one non-ASCII word.
ABSENT_RANKS = (41, 42, 43, 44, 45, 100, 250, 500, 1000)
EXTRA_ABSENT = ("42", "apple", "caf\u00e9")
# docs/algorithms/README.md#hashes-and-bit-orders: xxh64(str(x), seed=j).intdigest() % 1024, j = 0..2
HASH_VECTORS = {"apple": (671, 694, 919), "42": (697, 502, 565)}


def import_pure_ldp(root):
    """pure_ldp.frequency_oracles.apple_cms, without frequency_oracles/__init__.py."""
    root = os.path.abspath(root)
    if not os.path.isfile(os.path.join(root, "pure_ldp", "frequency_oracles", "apple_cms", "cms_client.py")):
        sys.exit(f"{root} is not a pure-LDP checkout (no pure_ldp/frequency_oracles/apple_cms)")
    sys.path.insert(0, root)
    pkg = types.ModuleType("pure_ldp.frequency_oracles")
    pkg.__path__ = [os.path.join(root, "pure_ldp", "frequency_oracles")]
    sys.modules["pure_ldp.frequency_oracles"] = pkg
    core = importlib.import_module("pure_ldp.core")
    cms = importlib.import_module("pure_ldp.frequency_oracles.apple_cms")
    return core, cms


def read_words(path):
    """The words of subtlex_top1000.tsv (header word<TAB>count), most frequent first."""
    with open(path, encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f]
    assert rows[0] == ["word", "count"], rows[0]
    words = [r[0] for r in rows[1:]]
    assert len(words) == len(set(words)) == 1000
    return words


def population(words, n):
    """Zipf-like holders (exponent 1.1) of the first WORDS words, n in all, by
    largest remainder (ties to the more frequent word)."""
    w = [1.0 / (r + 1) ** ZIPF_EXPONENT for r in range(WORDS)]
    total = sum(w)
    exact = [n * x / total for x in w]
    holders = [int(math.floor(x)) for x in exact]
    order = sorted(range(WORDS), key=lambda r: (-(exact[r] - holders[r]), r))
    for r in order[: n - sum(holders)]:
        holders[r] += 1
    assert sum(holders) == n and min(holders) > 0
    return {words[r]: holders[r] for r in range(WORDS)}


def users_of(holders, multiplier, shuffle_seed):
    users = [x for x, h in holders.items() for _ in range(h * multiplier)]
    random.Random(shuffle_seed).shuffle(users)
    return users


def seed_all(offset):
    """pure-LDP's CMS client draws from both Python's random and numpy's global RNG."""
    import numpy as np

    random.seed(BASE_SEED + offset)
    np.random.seed((BASE_SEED + offset) % 2**32)


def xxh(x, j, m):
    """The h_j(x) of docs/algorithms/sketches.md, our own: xxh64 of the UTF-8 text of x, seed j, mod m."""
    import xxhash

    return xxhash.xxh64(str(x).encode("utf-8"), seed=j).intdigest() % m


def check_hash_vectors(core):
    for x, expected in HASH_VECTORS.items():
        got = tuple(xxh(x, j, 1024) for j in range(3))
        assert got == expected, (x, got, expected)
        got = tuple(core.generate_hash(1024, j)(x) for j in range(3))
        assert got == expected, (x, got, expected)
    # an integer item is hashed as its decimal text
    assert all(core.generate_hash(1024, j)(42) == HASH_VECTORS["42"][j] for j in range(3))


def check_hash_funcs(server, client, items, k, m):
    """The client uses the server's own functions, and they are h_j(x) above."""
    assert client.hash_funcs is server.get_hash_funcs() and len(server.hash_funcs) == k
    for x in items:
        for j in range(k):
            assert server.hash_funcs[j](x) == xxh(x, j, m), (x, j)


def sylvester(m):
    return [[-1 if bin(a & b).count("1") % 2 else 1 for b in range(m)] for a in range(m)]


def fwht(x):
    """FWHT(x)[b] = sum_a x[a] * (-1)^popcount(a & b), exact on integers."""
    v = list(x)
    h = 1
    while h < len(v):
        for i in range(0, len(v), 2 * h):
            for a in range(i, i + h):
                v[a], v[a + h] = v[a] + v[a + h], v[a] - v[a + h]
        h *= 2
    return v


def c_of(x):
    return (math.exp(x) + 1) / (math.exp(x) - 1)


def recompute_cms(lines, items, k, m):
    """docs/algorithms/sketches.md#count-mean-sketch-cms from the written reports: P[j][i] = #reports with row j
    and bit i set; f(x) = m/(m-1) * (c * sum_j P[j][h_j(x)] - n*((c-1)/2 + 1/m))."""
    P = [[0] * m for _ in range(k)]
    n = 0
    for line in lines:
        j, bits = line.split("\t")
        j = int(j)
        assert 0 <= j < k and len(bits) == m and set(bits) <= {"0", "1"}
        for i, b in enumerate(bits):
            P[j][i] += b == "1"
        n += 1
    c = c_of(EPSILON / 2)
    return {x: (m / (m - 1)) * (c * sum(P[j][xxh(x, j, m)] for j in range(k)) - n * ((c - 1) / 2 + 1 / m))
            for x in items}


def recompute_hcms(lines, items, k, m):
    """docs/algorithms/sketches.md#hadamard-count-mean-sketch-hcms from the written reports: S[j][l] = sum of y;
    f(x) = m/(m-1) * (c * sum_j FWHT(S[j])[h_j(x)] - n/m)."""
    S = [[0] * m for _ in range(k)]
    n = 0
    for line in lines:
        j, l, y = map(int, line.split("\t"))
        assert 0 <= j < k and 0 <= l < m and y in (1, -1)
        S[j][l] += y
        n += 1
    T = [fwht(row) for row in S]
    c = c_of(EPSILON)
    return {x: (m / (m - 1)) * (c * sum(T[j][xxh(x, j, m)] for j in range(k)) - n / m) for x in items}


def compare(name, ours, theirs, n):
    """Largest relative difference |ours - theirs| / |theirs|, and the largest
    absolute one in units of n (estimates are counts)."""
    rel = max(abs(ours[x] - theirs[x]) / abs(theirs[x]) for x in theirs if theirs[x] != 0)
    absn = max(abs(ours[x] - theirs[x]) for x in theirs) / n
    worst = max(theirs, key=lambda x: abs(ours[x] - theirs[x]) / abs(theirs[x]) if theirs[x] else 0)
    print(f"{name}: max relative difference {rel:.3e} (at {worst!r}: ours {ours[worst]!r}, "
          f"pure-LDP {theirs[worst]!r}); max absolute difference {absn:.3e}*n")
    return rel, absn


def git_commit(root):
    try:
        return subprocess.check_output(["git", "-C", root, "rev-parse", "HEAD"], text=True).strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    here = os.path.dirname(os.path.abspath(__file__))
    root = sys.argv[1]
    out = sys.argv[2] if len(sys.argv) == 3 else os.path.join(here, "pure_ldp_sketch")
    core, cms = import_pure_ldp(root)
    import bitarray
    import numpy as np
    import scipy
    import scipy.linalg
    import xxhash

    assert xxhash.xxh64("caf\u00e9").intdigest() == xxhash.xxh64("caf\u00e9".encode("utf-8")).intdigest()
    check_hash_vectors(core)
    for m in (CMS["m"], HCMS["m"]):  # pure-LDP's Hadamard matrix is Sylvester's
        assert scipy.linalg.hadamard(m).tolist() == sylvester(m)
    T = sylvester(8)
    assert fwht([3, -1, 4, 1, -5, 9, 2, -6]) == [sum(x * T[a][b] for a, x in enumerate([3, -1, 4, 1, -5, 9, 2, -6]))
                                                 for b in range(8)]

    words = read_words(os.path.join(here, "subtlex_top1000.tsv"))
    holders = population(words, CMS["n"])
    absent = [words[r - 1] for r in ABSENT_RANKS] + list(EXTRA_ABSENT)
    assert not set(absent) & set(holders) and len(set(absent)) == len(absent)
    items = list(holders) + absent

    os.makedirs(out, exist_ok=True)
    estimates = []
    results = {}
    for i, (protocol, par, multiplier) in enumerate((("cms", CMS, 1), ("hcms", HCMS, HCMS_MULTIPLIER))):
        k, m, n = par["k"], par["m"], par["n"]
        hadamard = protocol == "hcms"
        server = cms.CMSServer(EPSILON, k, m, is_hadamard=hadamard)
        client = cms.CMSClient(EPSILON, server.get_hash_funcs(), m, is_hadamard=hadamard)
        check_hash_funcs(server, client, items, k, m)
        users = users_of(holders, multiplier, BASE_SEED + 10 * (i + 1))
        assert len(users) == n
        seed_all(i + 1)
        lines = []
        agree = [0, 0]  # CMS: bits set at h_j(x) / elsewhere; HCMS: y = H[l][h_j(x)]
        for x in users:
            report = client.privatise(x)
            server.aggregate(report)
            if hadamard:
                y, j, l = report  # _hcms_perturb returns (b * H[l][h_j(x)], j, l)
                y, j, l = int(y), int(j), int(l)
                assert y in (1, -1) and 0 <= j < k and 0 <= l < m
                lines.append(f"{j}\t{l}\t{y}")
                agree[0] += y == (-1 if bin(l & xxh(x, j, m)).count("1") % 2 else 1)
            else:
                v, j = report  # _cms_perturb returns (v, j), v in {-1, +1}^m
                j = int(j)
                assert 0 <= j < k and len(v) == m and all(int(b) in (1, -1) for b in v)
                bits = "".join("1" if int(b) == 1 else "0" for b in v)
                lines.append(f"{j}\t{bits}")
                h = xxh(x, j, m)
                agree[0] += bits[h] == "1"
                agree[1] += bits.count("1") - (bits[h] == "1")
        assert server.n == n
        with open(os.path.join(out, f"{protocol}_reports.txt"), "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        est = server.estimate_all(items, suppress_warnings=True)
        theirs = {x: float(e) for x, e in zip(items, est)}
        for x in items:
            estimates.append(f"{protocol}\t{x}\t{theirs[x]!r}")

        # Sanity of the sign conventions (deterministic for these seeds).
        if hadamard:
            rate, expected = agree[0] / n, math.exp(EPSILON) / (1 + math.exp(EPSILON))
            print(f"hcms: y = H[l][h_j(x)] in {rate:.4f} of reports (expected {expected:.4f})")
            assert abs(rate - expected) < 0.02
        else:
            p1 = math.exp(EPSILON / 2) / (1 + math.exp(EPSILON / 2))
            r1, r0 = agree[0] / n, agree[1] / (n * (m - 1))
            print(f"cms: bit h_j(x) set in {r1:.4f} of reports (expected {p1:.4f}), "
                  f"other bits in {r0:.4f} (expected {1 - p1:.4f})")
            assert abs(r1 - p1) < 0.03 and abs(r0 - (1 - p1)) < 0.01

        # Independent recomputation from the file just written (docs/algorithms/sketches.md).
        with open(os.path.join(out, f"{protocol}_reports.txt"), encoding="utf-8") as f:
            written = f.read().splitlines()
        recompute = recompute_hcms if hadamard else recompute_cms
        ours = recompute(written, items, k, m)
        results[protocol] = compare(protocol, ours, theirs, n)

    with open(os.path.join(out, "estimates.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(estimates) + "\n")
    with open(os.path.join(out, "population.txt"), "w", encoding="utf-8") as f:
        f.write("".join(f"{x}\t{h}\n" for x, h in holders.items()))

    params = [
        ("pure_ldp_commit", git_commit(root)),
        ("python", sys.version.split()[0]),
        ("numpy", np.__version__),
        ("scipy", scipy.__version__),
        ("xxhash_binding", xxhash.VERSION),
        ("xxhash_library", xxhash.XXHASH_VERSION),
        ("bitarray", bitarray.__version__),
        ("epsilon", repr(EPSILON)),
        ("cms_k", CMS["k"]),
        ("cms_m", CMS["m"]),
        ("cms_n", CMS["n"]),
        ("hcms_k", HCMS["k"]),
        ("hcms_m", HCMS["m"]),
        ("hcms_n", HCMS["n"]),
        ("population", f"the first {WORDS} words of subtlex_top1000.tsv, holders ~ 1/rank^{ZIPF_EXPONENT}, "
                       "largest remainder"),
        ("hcms_population_multiplier", HCMS_MULTIPLIER),
        ("absent_items", ",".join(absent)),
        ("base_seed", BASE_SEED),
        ("user_order", "random.Random(base_seed+10*i).shuffle(users), i = 1 cms, 2 hcms"),
        ("seeding", "random.seed(base_seed+i); numpy.random.seed(base_seed+i) before each protocol's "
                    "clients, i = 1 cms, 2 hcms"),
    ]
    with open(os.path.join(out, "params.txt"), "w", encoding="utf-8") as f:
        f.write("".join(f"{key}={value}\n" for key, value in params))

    total = sum(os.path.getsize(os.path.join(out, name)) for name in os.listdir(out))
    print(f"wrote {len(os.listdir(out))} files, {total} bytes, to {out}")


if __name__ == "__main__":
    main()
