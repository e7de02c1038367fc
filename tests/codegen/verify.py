#!/usr/bin/env python3
"""Proof for the code generator: run `padlab code --check` scripts against the real frameworks.

Every script builds the target layer, runs a random input and asserts the output shape equals
padlab's answer; across frameworks it also builds the source layer, copies the weights (with the
layout conversion) and asserts the outputs agree to 1e-4.

The layers come from the recorded fixtures (tests/fixtures/*.jsonl): every configuration a real
framework accepted is a source. `--per-file N` takes N of them from each framework x op file
(spread evenly), and each is checked against every target. Scripts run in worker processes
(a framework crash is recorded, not fatal). Run it through scripts/verify-codegen.sh.
"""

import argparse
import glob
import json
import os
import subprocess
import sys
import traceback
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TARGETS = ["torch", "keras", "tf", "onnx", "jax"]
OPS = ["conv", "conv_transpose", "max_pool", "avg_pool"]


def serve():
    """Worker: reads script paths, runs each, answers one JSON line."""
    import io
    import contextlib
    import warnings
    warnings.filterwarnings("ignore")
    for line in sys.stdin:
        path = line.strip()
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                exec(compile(open(path).read(), path, "exec"), {"__name__": "__main__"})
            answer = {"ok": "self-check passed" in out.getvalue()}
            if not answer["ok"]:
                answer["error"] = "no pass line: " + out.getvalue()[-300:]
        except BaseException as e:  # noqa: BLE001 - every failure is a result
            answer = {"ok": False, "error": f"{type(e).__name__}: {str(e)[:500]}",
                      "where": traceback.format_exc().splitlines()[-3:-1]}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


class Worker:
    """Runs scripts in a child process on one Keras backend (fixed when keras is imported)."""

    def __init__(self, backend="tensorflow"):
        self.backend = backend
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", KERAS_BACKEND=backend, JAX_PLATFORMS="cpu")
        self.proc = subprocess.Popen([sys.executable, __file__, "--worker"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)

    def run(self, path):
        self.proc.stdin.write(path + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if line:
            return json.loads(line)
        code = self.proc.wait()
        self.__init__(self.backend)
        return {"ok": False, "error": f"worker crashed (exit {code})"}


# The seeds' scenarios, always checked (../shared/seeds in the project's history).
SEEDS = [
    {"op": "conv", "framework": "keras", "input": [100, 20], "kernel": [4, 1], "padding": "same"},
    {"op": "conv_transpose", "framework": "torch", "input": [249], "kernel": 7, "stride": 6, "padding": 9,
     "output_padding": 4},
    {"op": "conv", "framework": "keras", "input": [30, 30], "kernel": 3, "padding": "same"},
    {"op": "max_pool", "framework": "keras", "input": [30, 30], "kernel": 2, "stride": 2, "padding": "same"},
    {"op": "conv", "framework": "tf", "input": [224, 224], "kernel": 3, "stride": 2, "padding": [[1, 1], [1, 1]]},
    {"op": "conv", "framework": "tf", "input": [224, 224], "kernel": 3, "stride": 2, "padding": "same"},
    {"op": "conv", "framework": "torch", "input": [6, 6], "kernel": 5, "stride": 2, "padding": 2},
    {"op": "conv", "framework": "keras", "input": [224, 224], "kernel": 7, "stride": 2, "padding": "same"},
    {"op": "conv_transpose", "framework": "keras", "input": [4], "kernel": 3, "stride": 2, "padding": "same"},
    {"op": "max_pool", "framework": "torch", "input": [112, 112], "kernel": 3, "stride": 2, "padding": 1,
     "ceil_mode": True},
    {"op": "avg_pool", "framework": "torch", "input": [7, 7], "kernel": 3, "stride": 2, "padding": 1},
]


def sources(per_file, only_ops, only_fws, fixtures):
    picked = [s for s in SEEDS if s["op"] in only_ops and s["framework"] in only_fws]
    for path in sorted(glob.glob(os.path.join(fixtures, "*.jsonl"))):
        rows = [json.loads(l) for l in open(path)]
        ok = [r["spec"] for r in rows if "output" in r["expect"]]
        ok = [s for s in ok if s["op"] in only_ops and s["framework"] in only_fws]
        if not ok:
            continue
        step = max(1, len(ok) // per_file)
        picked.extend(ok[::step][:per_file])
    return picked


def main():
    if sys.argv[1:] == ["--worker"]:
        return serve()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--padlab", default=os.path.join(ROOT, "target/release/padlab"))
    ap.add_argument("--per-file", type=int, default=30)
    ap.add_argument("--fixtures", default=os.path.join(ROOT, "tests/fixtures"),
                    help="where the source layers come from (a fresh generate.py --out batch works)")
    ap.add_argument("--targets", default=",".join(TARGETS))
    ap.add_argument("--ops", default=",".join(OPS))
    ap.add_argument("--frameworks", default=",".join(TARGETS))
    ap.add_argument("--out", default=os.path.join(ROOT, "target/codegen-check"))
    ap.add_argument("--show", type=int, default=15, help="failures to print")
    ap.add_argument("--keras-backends", default="tensorflow,torch,jax",
                    help="every script with Keras in it (source or target) runs on each of these; "
                         "a Keras source that names its backend runs on that one")
    ap.add_argument("--flag", action="append", default=[], choices=["--export-safe", "--functional"],
                    help="also pass this option to `padlab code` (repeatable)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    specs = sources(args.per_file, args.ops.split(","), args.frameworks.split(","), args.fixtures)
    targets = args.targets.split(",")
    backends = args.keras_backends.split(",")
    workers = {b: Worker(b) for b in backends}
    passed, failed = Counter(), Counter()
    failures = []
    for i, spec in enumerate(specs):
        for target in targets:
            flags = ["--check", *args.flag]
            gen = subprocess.run([args.padlab, "code", "--to", target, *flags], input=json.dumps(spec),
                                 capture_output=True, text=True)
            if spec.get("backend"):
                on = [spec["backend"]]
            elif "keras" in (spec["framework"], target):
                on = backends
            else:
                on = backends[:1]
            for backend in on:
                source = spec["framework"] + (f"@{spec['backend']}" if spec.get("backend") else "")
                key = (source, target + (f"@{backend}" if "keras" in (spec["framework"], target) else ""), spec["op"])
                if gen.returncode != 0:
                    failed[key] += 1
                    failures.append((spec, target, "padlab code failed: " + gen.stderr.strip()))
                    continue
                path = os.path.join(args.out, f"{i:05d}_{spec['framework']}_{spec['op']}_to_{target}_{backend}.py")
                with open(path, "w") as fh:
                    fh.write(gen.stdout)
                if backend not in workers:
                    workers[backend] = Worker(backend)
                result = workers[backend].run(path)
                if result["ok"]:
                    passed[key] += 1
                    os.remove(path)
                else:
                    failed[key] += 1
                    failures.append((spec, f"{target} on {backend}", result["error"] + " " + " | ".join(result.get("where", [])) + f" [{path}]"))
        if (i + 1) % 50 == 0:
            print(f"  {i + 1}/{len(specs)} layers, {sum(passed.values())} passed, {sum(failed.values())} failed", flush=True)
    for spec, target, why in failures[: args.show]:
        print(f"FAIL {json.dumps(spec)} -> {target}\n     {why[:700]}")
    print("\nsource -> target, op: passed/total")
    for key in sorted(set(passed) | set(failed)):
        total = passed[key] + failed[key]
        print(f"  {key[0]:12} -> {key[1]:16} {key[2]:15} {passed[key]:4}/{total}")
    total_pass, total_fail = sum(passed.values()), sum(failed.values())
    print(f"\n{len(specs)} layers x {len(targets)} targets (Keras scripts on {', '.join(backends)}): "
          f"{total_pass} passed, {total_fail} failed")
    return 1 if total_fail else 0


if __name__ == "__main__":
    sys.exit(main())
