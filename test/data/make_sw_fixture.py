#!/usr/bin/python3
"""Generates the Square Wave cross-check fixtures of test/unit/range_square_wave_test.cpp.

Not run in CI: the fixtures it writes are committed. The authors' code (sw.py of
vvv214/LDP_Protocols, MIT licence) is NOT part of this repository; this script imports
sw.py from a checkout whose path is given on the command line, and only what it computed
(reports, histograms, transition-matrix columns, EM and EMS estimates) is committed.

    /usr/bin/python3 test/data/make_sw_fixture.py LDP_PROTOCOLS_CHECKOUT [OUT_DIR]

OUT_DIR defaults to test/data/sw beside this script. Needs Debian's python3-numpy and
python3-scipy (sw.py imports scipy). Deterministic: NumPy's legacy global generator,
which sw.py's reports draw from, is seeded before each case.

sw.sw(values, 0, 1, eps, 1024, 1024) is called as its authors call it: it draws the
reports, bins them with numpy.histogram over [-w/2, 1 + w/2] (its w is the wave's full
width, ours the half-width), builds its transition matrix and runs EM. The script wraps
sw.EM to record its inputs (the histogram and the matrix) and to run sw.EMS on the same
inputs too, wraps numpy.histogram to record the reports, and wraps the norm sw.py's loops
evaluate once per pass to count the passes and read the last step:
  iterations = passes when the log-likelihood rule stopped the loop, passes - 1 otherwise;
  stop = loglik | step (L1 step <= 1/N) | cap (10000 updates).

Cases: values are bucket centres (b + 0.5)/1024 of a 10-bit domain, b drawn from a
seeded mixture (60% a binomial bump near bucket 250, 40% one near bucket 760):
  small  epsilon = 1, n = 2000: reports, histogram, EM, EMS, three matrix columns
  large  epsilon = 2, n = 100000: histogram, EM, EMS

Files written (text, one record a line, tab-separated):
  params.txt              key<TAB>value: versions, the checkout's commit, per case
                          epsilon, n, w (sw.py's full width, repr), seed, and for EM
                          and EMS their iterations and stop
  <case>_hist.txt         the 1024 counts of numpy.histogram
  <case>_em.txt           sw.py's EM estimate: 1024 shares (repr), summing to 1
  <case>_ems.txt          sw.py's EMS estimate, the same
  small_reports.txt       the 2000 reports (repr)
  small_transform.txt     bin<TAB>bucket<TAB>T[bucket][bin] (repr) for bins 0, 300 and
                          1023, every bucket whose entry is not the floor q*m_cell (which
                          params.txt gives as small.floor)
"""
import os
import subprocess
import sys

import numpy

D = 1024
CASES = (("small", 1.0, 2000, 20240701), ("large", 2.0, 100000, 20240702))
COLUMNS = (0, 300, 1023)


def population(n, seed):
    rng = numpy.random.RandomState(seed)
    first = rng.binomial(D - 1, 250 / (D - 1), size=n)
    second = rng.binomial(D - 1, 760 / (D - 1), size=n)
    pick = rng.uniform(size=n) < 0.6
    buckets = numpy.where(pick, first, second)
    return (buckets + 0.5) / D


class Recorder:
    """Wraps sw.py's module globals np and LA; records what we compare."""

    def __init__(self, sw):
        self.sw = sw
        self.reports = None
        self.norms = []
        rec = self

        class NP:
            def __getattr__(self, name):
                return getattr(numpy, name)

            def histogram(self, a, *args, **kw):
                rec.reports = numpy.array(a, copy=True)
                return numpy.histogram(a, *args, **kw)

        class LA:
            @staticmethod
            def norm(*args, **kw):
                v = numpy.linalg.norm(*args, **kw)
                rec.norms.append(float(v))
                return v

        sw.np = NP()
        sw.LA = LA
        self.em, self.ems = sw.EM, sw.EMS
        self.out = {}

        def em(n, hist, transform, max_iteration, threshold):
            rec.out["hist"] = numpy.array(hist, copy=True)
            rec.out["transform"] = numpy.array(transform, copy=True)
            for name, fn in (("ems", rec.ems), ("em", rec.em)):
                rec.norms = []
                theta = fn(n, hist, transform, max_iteration, threshold)
                rec.out[name] = theta
                rec.out[name + "_run"] = rec.run(sum(hist), max_iteration)
            return rec.out["em"]

        sw.EM = em

    def run(self, sample_size, max_iteration):
        passes = len(self.norms)
        last = self.norms[-1]
        if last > 1 / sample_size and passes - 1 < max_iteration:
            return passes, "loglik"
        if last <= 1 / sample_size:
            return passes - 1, "step"
        return passes - 1, "cap"


def write_lines(path, lines):
    with open(path, "w") as f:
        for line in lines:
            f.write(line + "\n")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    root = os.path.abspath(sys.argv[1])
    out = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "sw")
    if not os.path.isfile(os.path.join(root, "sw.py")):
        sys.exit(f"{root} has no sw.py")
    sys.path.insert(0, root)
    import scipy
    import sw

    os.makedirs(out, exist_ok=True)
    commit = subprocess.run(["git", "-C", root, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    params = [f"peer\tgithub.com/vvv214/LDP_Protocols sw.py", f"commit\t{commit or 'unknown'}",
              f"python\t{sys.version.split()[0]}", f"numpy\t{numpy.__version__}", f"scipy\t{scipy.__version__}",
              f"domain\t{D}", "randomized_bins\t1024", "domain_bins\t1024"]
    rec = Recorder(sw)
    for name, eps, n, seed in CASES:
        values = population(n, seed)
        numpy.random.seed(seed)
        sw.sw(values, 0, 1, eps, 1024, 1024)
        ee = numpy.exp(eps)
        w = ((eps * ee) - ee + 1) / (2 * ee * (ee - 1 - eps)) * 2
        params += [f"{name}.epsilon\t{eps!r}", f"{name}.n\t{n}", f"{name}.seed\t{seed}", f"{name}.w\t{w!r}"]
        for est in ("em", "ems"):
            iterations, stop = rec.out[est + "_run"]
            params += [f"{name}.{est}.iterations\t{iterations}", f"{name}.{est}.stop\t{stop}"]
            write_lines(os.path.join(out, f"{name}_{est}.txt"), [repr(float(t)) for t in rec.out[est]])
        write_lines(os.path.join(out, f"{name}_hist.txt"), [str(int(c)) for c in rec.out["hist"]])
        if name == "small":
            write_lines(os.path.join(out, "small_reports.txt"), [repr(float(y)) for y in rec.reports])
            t = rec.out["transform"]
            floor = float(t[t.shape[0] - 1, 0])  # far from bin 0's wave: q * m_cell
            params.append(f"small.floor\t{floor!r}")
            write_lines(os.path.join(out, "small_transform.txt"),
                        [f"{i}\t{j}\t{float(t[j, i])!r}" for i in COLUMNS for j in range(t.shape[0])
                         if float(t[j, i]) != floor])
        print(f"{name}: done", file=sys.stderr)
    write_lines(os.path.join(out, "params.txt"), params)


if __name__ == "__main__":
    main()
