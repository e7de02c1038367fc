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
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "common"))
from frameworks_worker import Worker, failure, passed  # noqa: E402

TARGETS = ["torch", "keras", "tf", "onnx", "jax"]
OPS = ["conv", "conv_transpose", "max_pool", "avg_pool"]


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
    passes, failed = Counter(), Counter()
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
                if passed(result):
                    passes[key] += 1
                    os.remove(path)
                else:
                    failed[key] += 1
                    failures.append((spec, f"{target} on {backend}", failure(result) + " " + " | ".join(result.get("where", [])) + f" [{path}]"))
        if (i + 1) % 50 == 0:
            print(f"  {i + 1}/{len(specs)} layers, {sum(passes.values())} passed, {sum(failed.values())} failed", flush=True)
    for spec, target, why in failures[: args.show]:
        print(f"FAIL {json.dumps(spec)} -> {target}\n     {why[:700]}")
    print("\nsource -> target, op: passed/total")
    for key in sorted(set(passes) | set(failed)):
        total = passes[key] + failed[key]
        print(f"  {key[0]:12} -> {key[1]:16} {key[2]:15} {passes[key]:4}/{total}")
    total_pass, total_fail = sum(passes.values()), sum(failed.values())
    print(f"\n{len(specs)} layers x {len(targets)} targets (Keras scripts on {', '.join(backends)}): "
          f"{total_pass} passed, {total_fail} failed")
    return 1 if total_fail else 0


if __name__ == "__main__":
    sys.exit(main())
