#!/usr/bin/env python3
"""Proof for `padlab port FILE`: every model file in tests/files/{onnx,keras}, read by padlab,
against the runtimes' own record (tests/files/truth, made by truth.py with ONNX Runtime and
Keras), and every self-check script run in the real frameworks.

- `padlab port FILE --json`: each ONNX node's output shape (one sample) and the pads (or crops)
  before each axis as ONNX Runtime applies them; each Keras layer's output (a nested model: its
  last layer's). A file ONNX Runtime refuses must have a row with an error. ONNX nodes that
  padlab folds (shape arithmetic) have no row and are counted apart.
- `padlab port FILE --to T --check` for T in torch, keras, tf, jax: the script, given the file's
  path as its argument, must print "padlab self-check passed". A port padlab refuses (a node it
  reads but does not port, a model ONNX Runtime refuses) is counted as refused, with the reason.

Scripts run in a worker process that keeps the frameworks imported; a crash is a failure, not
the end of the run. Run it through scripts/verify-files.sh.
"""

import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "common"))
from frameworks_worker import Worker, failure, passed  # noqa: E402

TARGETS = ["torch", "keras", "tf", "jax"]
PADLAB = os.path.join(ROOT, "target", "release", "padlab")


def padlab(args):
    p = subprocess.run([PADLAB, "port", *args], capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def sample(shape):
    return None if shape is None else list(shape[1:])


def read_table(path, truth):
    """padlab's table, with --input (the truth's first input, batch left out) when the file asks."""
    code, out, err = padlab([path, "--json"])
    extra = []
    if code != 0 and "--input" in err:
        first = next(iter(truth["inputs"].values()))
        extra = ["--input", "x".join(str(d) for d in first[1:])]
        code, out, err = padlab([path, "--json", *extra])
    if code != 0:
        return None, extra, err.strip()
    return json.loads(out), extra, None


def compare_onnx(table, truth):
    """Problems, rows compared, nodes folded (no row)."""
    rows = {r["name"]: r for r in table["layers"]}
    problems, compared, folded = [], 0, []
    if truth.get("error"):
        if not any(r.get("error") for r in table["layers"]):
            problems.append(f"ONNX Runtime refuses the model ({truth['error'][:120]}), padlab shows no error")
        return problems, compared, folded
    for node in truth["nodes"]:
        row = rows.get(node["name"])
        if row is None:
            folded.append(node["op_type"])
            continue
        compared += 1
        want = [sample(o["shape"]) for o in node["outputs"]]
        got = row.get("outputs") or [row.get("output")]
        if want[0] is None:
            if not row.get("error"):
                problems.append(f"{node['name']}: ONNX Runtime gives no shape, padlab {got[0]}")
            continue
        if got[:len(want)] != want[:len(got)] or got[0] != want[0]:
            problems.append(f"{node['name']} ({node['op_type']}): output {got} != ONNX Runtime {want}")
        for key, mine in (("pads_begin", "pad_before"), ("crop_begin", "crop_before")):
            if key in node and row.get(mine) != node[key]:
                problems.append(f"{node['name']}: {mine} {row.get(mine)} != ONNX Runtime {node[key]}")
    return problems, compared, folded


def compare_keras(table, truth):
    """Problems, rows compared, and the refused layer (padlab's table stops at a layer it
    refuses: that row carries the refusal, the layers after it have none)."""
    problems, compared = [], 0
    rows = table["layers"]
    refused = next((r["name"] for r in rows if r.get("error")), None)
    after_refused = False
    for layer in truth["layers"]:
        name = layer["name"]
        if after_refused or name == refused:
            after_refused = True
            continue
        mine = [r for r in rows if r["name"] == name or r["name"].startswith(name + "/")]
        if not mine:
            problems.append(f"{name} ({layer['class_name']}): no row")
            continue
        compared += 1
        got = mine[-1].get("output")
        if got != sample(layer["output"]):
            problems.append(f"{name} ({layer['class_name']}): output {got} != Keras {sample(layer['output'])}")
    return problems, compared, [refused] if refused else []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", help="only the files whose name contains this")
    ap.add_argument("--no-checks", action="store_true", help="tables only")
    args = ap.parse_args()
    files = sorted(glob.glob(os.path.join(HERE, "onnx", "*.onnx")) + glob.glob(os.path.join(HERE, "keras", "*")))
    if args.only:
        files = [f for f in files if args.only in os.path.basename(f)]
    worker = None if args.no_checks else Worker()
    tmp = tempfile.mkdtemp(prefix="padlab-files-")
    equal, differ, unread, rows_compared, folded_total = 0, 0, 0, 0, 0
    passes = {t: 0 for t in TARGETS}
    failed = {t: [] for t in TARGETS}
    refused = {t: [] for t in TARGETS}
    for path in files:
        base = os.path.basename(path)
        truth = json.load(open(os.path.join(HERE, "truth", base + ".json")))
        table, extra, err = read_table(path, truth)
        if table is None:
            unread += 1
            print(f"UNREAD  {base}: {err}")
            continue
        compare = compare_onnx if base.endswith(".onnx") else compare_keras
        problems, compared, folded = compare(table, truth)
        if not base.endswith(".onnx"):
            folded = []  # (a Keras table's refused layer, said by its check's refusal)
        rows_compared += compared
        folded_total += len(folded)
        if problems:
            differ += 1
            print(f"DIFFERS {base}:")
            for p in problems:
                print(f"        {p}")
        else:
            equal += 1
            print(f"EQUAL   {base}: {compared} rows" + (f", {len(folded)} folded ({', '.join(sorted(set(folded)))})" if folded else ""))
        if worker is None:
            continue
        for target in TARGETS:
            code, out, err = padlab([path, "--to", target, "--check", *extra])
            if code != 0:
                refused[target].append(f"{base}: {err.strip()[:200]}")
                print(f"  {target:5} refused: {err.strip()[:200]}")
                continue
            script = os.path.join(tmp, f"{base}.{target}.py")
            with open(script, "w") as f:
                f.write(out)
            r = worker.run(script, path)
            if passed(r):
                passes[target] += 1
                print(f"  {target:5} passed")
            else:
                failed[target].append(base)
                print(f"  {target:5} FAILED: {failure(r)} {r.get('where', '')}  ({script})")
    print()
    print(f"tables: {equal} of {len(files)} files equal to the truth ({rows_compared} rows compared, "
          f"{folded_total} shape-arithmetic nodes folded), {differ} differ, {unread} unread")
    if worker is not None:
        for t in TARGETS:
            print(f"{t:5}: {passes[t]} passed, {len(failed[t])} failed, {len(refused[t])} refused by padlab")
    bad = differ + unread + sum(len(v) for v in failed.values())
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
