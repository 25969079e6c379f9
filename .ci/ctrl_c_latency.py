#!/usr/bin/env python3
"""Ctrl-C latency of every dpsynth command, measured through the real binary (SPEC §3: a
cancelled run ends within 100 ms and leaves no partial output files).

Each case starts dpsynth in a fresh folder, waits for a moment of the run (a time after the
start, or a line on stderr plus a delay), sends SIGINT, and measures the time until the process
has exited. It then checks the exit status (130) and that no file was created or changed
(SHA-256 of every file before and after; a study may keep complete replicates).

    python3 .ci/ctrl_c_latency.py build/app/dpsynth            # every case, ~3 minutes
    python3 .ci/ctrl_c_latency.py build/app/dpsynth --only fit # cases whose name contains "fit"
    python3 .ci/ctrl_c_latency.py build/app/dpsynth --repeat 3 # the worst of three per case

Not run by CI: latencies on a shared machine say more about its load than about dpsynth. The
tests (tests/app/interrupt_test.cpp) check exit status and files, not milliseconds.
"""
import argparse
import hashlib
import json
import os
import random
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time


def snapshot(folder):
    out = {}
    for root, dirs, files in os.walk(folder):
        for d in dirs:
            out[os.path.relpath(os.path.join(root, d), folder) + "/"] = ""
        for f in files:
            path = os.path.join(root, f)
            try:
                with open(path, "rb") as fh:
                    out[os.path.relpath(path, folder)] = hashlib.sha256(fh.read()).hexdigest()
            except OSError:
                out[os.path.relpath(path, folder)] = "special"
    return out


def write_csv(path, header, rows):
    with open(path, "w") as f:
        f.write(header + "\n")
        f.writelines(rows)


def session_json(data, outcome, family, mechanisms, m=1, chains=2, warmup=150, draws=150,
                 covariates=()):
    with open(data, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()
    mech = []
    for name, epsilon, lower, upper in mechanisms:
        mech.append({"mechanism": name, "c": 1, "g": 0, "radius": 0, "radius_relative": False,
                     "k": 0.95, "epsilon": epsilon, "downscale": 1, "lower": lower,
                     "upper": upper, "bins": 0, "reproducible_noise": False})
    return json.dumps({
        "version": 1,
        "data": {"file": os.path.basename(data), "sample": "", "sha256": digest,
                 "outcome": outcome, "covariates": list(covariates), "family": family,
                 "drop_missing": False, "weights_from": ""},
        "mechanisms": mech,
        "run": {"seed": 5, "neighbours": "replace-one", "chains": chains, "warmup": warmup,
                "draws": draws, "threads": 2, "metric": "auto", "sd_scale": 1},
        "synthetic_datasets": m})


class Inputs:
    """Input files shared by the cases (made once, hard-linked into each case's folder)."""

    def __init__(self, dpsynth, folder):
        self.folder = folder
        rnd = random.Random(7)
        gen = lambda kind, n, name: subprocess.run(
            [dpsynth, "generate", "--kind", kind, "--n", str(n), "--out",
             os.path.join(folder, name)], check=True, capture_output=True)
        gen("salary", 1_000_000, "salary1m.csv")
        gen("nbmix", 1_000_000, "nbmix1m.csv")
        gen("nbmix", 1000, "nbmix.csv")
        # 7·10^6 count records with a covariate: the read, the typing and the record grouping of
        # a large file.
        with open(os.path.join(folder, "counts7m.csv"), "w") as f:
            f.write("y,g\n")
            block = "".join(f"{rnd.randrange(40)},{'abcd'[i % 4]}\n" for i in range(100_000))
            for _ in range(70):
                f.write(block)
        write_csv(os.path.join(folder, "nb.csv"), "y,u", [f"{'ab'[i % 2]},{i % 3}\n"
                                                          for i in range(1000)])
        with open(os.path.join(folder, "session_m.dpsynth"), "w") as f:
            f.write(session_json(os.path.join(folder, "nbmix.csv"), "count", "negbin",
                                 [("unweighted", None, None, None)], m=3000))
        with open(os.path.join(folder, "session_1m.dpsynth"), "w") as f:
            f.write(session_json(os.path.join(folder, "salary1m.csv"), "salary", "normal",
                                 [("unweighted", None, None, None),
                                  ("ph", 1.0, 0.0, 300000.0)], chains=1, warmup=20, draws=20,
                                 covariates=["gender", "age_group"]))
        # A perturbed-histogram release of 10^8 records (the readers' maximum) and naive-Bayes and
        # linreg releases of 10^7.
        with open(os.path.join(folder, "ph_big.json"), "w") as f:
            json.dump({"version": 1, "kind": "ph",
                       "mechanism": "perturbed histogram, discrete Laplace noise",
                       "epsilon": 1.0, "neighbours": "replace-one", "n": 100_000_000,
                       "bounds": {"lower": 0, "upper": 100}, "bins": 10,
                       "edges": [10 * i for i in range(11)], "binning": "x",
                       "integer": False, "sensitivity": 2,
                       "noise_rate": {"numerator": 500000, "denominator": 1000000},
                       "noise": "x", "noisy_counts": [10_000_000] * 10,
                       "noisy_counts_clamped_at_zero": False, "synthesizer_family": "normal",
                       "model": "x", "not_for_release": True}, f)
        subprocess.run([dpsynth, "release", "--kind", "naive-bayes", "--data",
                        os.path.join(folder, "nb.csv"), "--class", "y", "--class-levels", "a|b",
                        "--features", "u", "--levels", "u=0|1|2", "--epsilon", "1", "--seed",
                        "1", "--out", os.path.join(folder, "nb_small.json")], check=True,
                       capture_output=True)
        with open(os.path.join(folder, "nb_small.json")) as f:
            nb = json.load(f)
        nb["n"] = 10_000_000
        nb["noisy_counts"] = [c * 10_000 for c in nb["noisy_counts"]]
        with open(os.path.join(folder, "nb_big.json"), "w") as f:
            json.dump(nb, f)
        with open(os.path.join(folder, "study_big.json"), "w") as f:
            json.dump({"version": 1, "source": {"generator": "poisson(100)", "n": 10_000_000},
                       "mechanisms": ["unweighted"], "epsilon": [6], "replicates": 2,
                       "sampler": {"chains": 1, "warmup": 20, "draws": 20}, "seed": 3}, f)

    def link_into(self, case_folder):
        for name in os.listdir(self.folder):
            os.link(os.path.join(self.folder, name), os.path.join(case_folder, name))


# name, arguments, moments: ("after", seconds) or ("on", stderr text, seconds after it).
def cases():
    fit = ["fit", "--outcome", "salary", "--family", "normal", "--seed", "1"]
    return [
        ("fit 1e6: read", ["fit", "--data", "salary1m.csv"] + fit[1:] +
         ["--covariates", "gender,age_group", "--synthetic-out", "s.csv", "--report", "r.json"],
         [("after", 0.05), ("after", 0.2)]),
        ("fit 7e6: read, typing and grouping",
         ["fit", "--data", "counts7m.csv", "--outcome", "y", "--covariates", "g", "--family",
          "poisson", "--seed", "1", "--chains", "1", "--warmup", "20", "--draws", "20"],
         [("after", 0.5), ("after", 1.5), ("after", 2.5), ("after", 3.5), ("after", 4.5)]),
        ("fit 1e6: sampling",
         ["fit", "--data", "salary1m.csv"] + fit[1:] +
         ["--covariates", "gender,age_group", "--chains", "1", "--warmup", "30", "--draws", "30",
          "--synthetic-out", "s.csv"],
         [("on", "unweighted", 0.0), ("on", "unweighted", 0.3), ("on", "unweighted", 1.0)]),
        ("fit 1e6: synthesis and writing (10 datasets)",
         ["fit", "--data", "nbmix1m.csv", "--outcome", "count", "--family", "poisson", "--seed",
          "1", "--chains", "1", "--warmup", "20", "--draws", "20", "--datasets", "10",
          "--synthetic-out", "s.csv", "--report", "r.json"],
         [("on", "stage unweighted", 0.1), ("on", "stage unweighted", 0.6),
          ("on", "stage unweighted", 1.5)]),
        ("run 1e6: sampling, synthesis, export",
         ["run", "--session", "session_1m.dpsynth", "--out", "o"],
         [("after", 2.0), ("on", "stage unweighted", 0.0), ("on", "stage unweighted", 1.0),
          ("on", "stage unweighted", 3.0), ("on", "stage unweighted", 6.0),
          ("on", "stage unweighted", 10.0), ("on", "stage unweighted", 15.0)]),
        ("run: 3000 synthetic datasets",
         ["run", "--session", "session_m.dpsynth", "--out", "o"],
         [("on", "stage unweighted", 0.5), ("on", "stage unweighted", 2.0)]),
        ("study n = 1e7",
         ["study", "--config", "study_big.json", "--out", "st", "--threads", "1"],
         [("after", 0.3), ("after", 1.0), ("after", 3.0)]),
        ("infer ph n = 1e8",
         ["infer", "--release", "ph_big.json", "--family", "normal", "--out", "p", "--chains",
          "1", "--iterations", "20", "--warmup", "10", "--seed", "1"],
         [("after", 0.2), ("after", 1.0), ("after", 3.0)]),
        ("infer naive-Bayes n = 1e7",
         ["infer", "--release", "nb_big.json", "--out", "p", "--chains", "2", "--iterations",
          "20", "--warmup", "10", "--seed", "1"],
         [("after", 0.2), ("after", 1.0), ("after", 3.0)]),
        ("release naive-Bayes on 7e6 records",
         ["release", "--kind", "naive-bayes", "--data", "counts7m.csv", "--class", "g",
          "--class-levels", "a|b|c|d", "--features", "y",
          "--levels", "y=" + "|".join(str(i) for i in range(40)), "--epsilon", "1",
          "--out", "rel.json"],
         [("after", 0.5), ("after", 2.0), ("after", 3.5)]),
        ("generate 1e6",
         ["generate", "--kind", "salary", "--n", "1000000", "--out", "g.csv"],
         [("after", 0.1), ("after", 0.4)]),
    ]


def run_case(dpsynth, inputs, args, moment):
    folder = tempfile.mkdtemp(prefix="dpsynth-latency-")
    try:
        inputs.link_into(folder)
        before = snapshot(folder)
        start = time.monotonic()
        p = subprocess.Popen([dpsynth] + args, cwd=folder, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        err = b""
        kind = moment[0]
        if kind == "after":
            deadline = start + moment[1]
        else:
            deadline = None
            while p.poll() is None and moment[1].encode() not in err:
                ready, _, _ = select.select([p.stderr], [], [], 0.01)
                if ready:
                    chunk = os.read(p.stderr.fileno(), 65536)
                    if not chunk:
                        break
                    err += chunk
            deadline = time.monotonic() + moment[2]
        while time.monotonic() < deadline and p.poll() is None:
            ready, _, _ = select.select([p.stderr], [], [], max(0.0, deadline - time.monotonic()))
            if ready:
                chunk = os.read(p.stderr.fileno(), 65536)
                if chunk:
                    err += chunk
        if p.poll() is not None:
            rest = p.stderr.read()
            return {"finished": True, "code": p.returncode, "at": time.monotonic() - start,
                    "err": (err + rest).decode(errors="replace")}
        sent = time.monotonic()
        p.send_signal(signal.SIGINT)
        try:
            p.wait(timeout=60)
        except subprocess.TimeoutExpired:  # a hang: recorded as such, then killed
            p.kill()
            p.wait()
        latency = time.monotonic() - sent
        rest = p.stderr.read()
        err = (err + rest).decode(errors="replace")
        after = snapshot(folder)
        changed = sorted(k for k in set(before) | set(after) if before.get(k) != after.get(k))
        return {"finished": False, "code": p.returncode, "at": sent - start,
                "latency": latency, "changed": changed, "err": err}
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dpsynth")
    parser.add_argument("--only", default="")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--verbose", action="store_true")
    a = parser.parse_args()
    dpsynth = os.path.abspath(a.dpsynth)
    work = tempfile.mkdtemp(prefix="dpsynth-latency-inputs-")
    try:
        inputs = Inputs(dpsynth, work)
        worst = 0.0
        print(f"{'case':46} {'moment':28} {'latency':>9} {'exit':>5}  files changed")
        for name, args, moments in cases():
            if a.only and a.only not in name:
                continue
            for moment in moments:
                label = (f"{moment[1]:.2f} s after start" if moment[0] == "after"
                         else f"{moment[2]:.1f} s after '{moment[1]}'")
                results = [run_case(dpsynth, inputs, args, moment) for _ in range(a.repeat)]
                done = [r for r in results if r["finished"]]
                signalled = [r for r in results if not r["finished"]]
                if not signalled:
                    r = done[0]
                    print(f"{name:46} {label:28} {'(done)':>9} {r['code']:>5}  finished at "
                          f"{r['at']:.2f} s before the signal")
                    continue
                r = max(signalled, key=lambda r: r["latency"])
                worst = max(worst, r["latency"])
                changed = ", ".join(r["changed"][:4]) + (" ..." if len(r["changed"]) > 4 else "")
                print(f"{name:46} {label:28} {1000 * r['latency']:7.0f} ms {r['code']:>5}  "
                      f"{changed or '-'}")
                if a.verbose:
                    print("    " + r["err"].strip().replace("\n", "\n    ")[-600:])
        print(f"worst latency: {1000 * worst:.0f} ms")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
