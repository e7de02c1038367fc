#!/usr/bin/env python3
"""Proof for `padlab port`: every model in tests/models/, read by padlab, against the real
frameworks.

For each model (a `.py` paste, a `printed_*.txt` printout, a `summary_*.txt` table):
- padlab's table (`padlab port --json`) is compared operation by operation with the source
  framework's own run: `truth_torch.py` (every top-level torch call, in order, with the module
  it ran in) or `truth_keras.py` (every Keras operation at the leaves, by name). A torch layer
  that runs several calls (a reflect-padded convolution runs `pad` then `conv2d`) is one row;
  a Keras custom layer whose arithmetic padlab reads is one operation to Keras.
- `padlab port --to T --check` for T in torch, keras, tf, jax: the script must print
  "padlab self-check passed".

A model's input shape, when its code does not state one, is on a `# padlab-input:` line, the
model to port on `# padlab-model:`. Scripts run in worker processes that keep the frameworks
imported; a crash is a failure, not the end of the run. Run it through scripts/verify-models.sh.
"""

import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "common"))
from frameworks_worker import Worker, failure, passed  # noqa: E402

TARGETS = ["torch", "keras", "tf", "jax"]
PADLAB = os.path.join(ROOT, "target", "release", "padlab")
NOT_MODELS = ("verify.py", "truth_torch.py", "truth_keras.py", "make_printouts.py", "make_summaries.py")


def padlab(args, stdin):
    p = subprocess.run([PADLAB, "port", *args], input=stdin, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def header(text, key):
    m = re.search(rf"^# padlab-{key}:\s*(.+?)\s*$", text, re.M)
    return m.group(1) if m else None


def truth(path, framework, extra):
    """The source framework's own per-operation record (its referee script)."""
    script = os.path.join(HERE, "truth_torch.py" if framework == "torch" else "truth_keras.py")
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", KERAS_BACKEND="tensorflow")
    # PADLAB_REFEREE_PYTHON: a Python with more installed for the referee (torchvision, say)
    # than the one running the targets' checks.
    python = os.environ.get("PADLAB_REFEREE_PYTHON", sys.executable)
    p = subprocess.run([python, script, path, *extra], capture_output=True, text=True, env=env)
    if p.returncode != 0 or not p.stdout.strip():
        return None, p.stderr.strip().splitlines()[-1:] if p.stderr.strip() else ["no output"]
    return json.loads(p.stdout.strip().splitlines()[-1]), None


TORCH_LAYERS = None


def torch_rows(ops):
    """Collapses the calls one torch layer makes in one call of it into one row (its last
    call's shapes); a layer called again (YOLOv5's SPPF pools three times) is a row a call."""
    rows = []
    for op in ops:
        leaf = op.get("module_type") in torch_layer_names() and op.get("stock", True) and op.get("module")
        same_call = rows and rows[-1].get("module") == op["module"] and rows[-1].get("call") == op.get("call")
        if leaf and same_call and rows[-1].get("leaf"):
            rows[-1] = dict(op, leaf=True)
        else:
            rows.append(dict(op, leaf=bool(leaf)))
    return rows


def torch_layer_names():
    global TORCH_LAYERS
    if TORCH_LAYERS is None:
        try:
            import torch.nn as nn
            TORCH_LAYERS = {n for n in dir(nn) if isinstance(getattr(nn, n), type)}
        except ImportError:
            TORCH_LAYERS = set()
    return TORCH_LAYERS


def compare_torch(table, record):
    # nn.Identity runs no torch call: not a row for torch.
    ours = [l for l in table["layers"] if l["kind"] != "Identity"]
    # A `torch.zeros` made in a forward is no row of padlab's: it reads it as a constant (a
    # recurrent layer's initial state, equal to the default one).
    theirs = [r for r in torch_rows(record["ops"]) if r["op"] != "zeros"]
    pairs = []
    for i in range(max(len(ours), len(theirs))):
        a = ours[i] if i < len(ours) else None
        b = theirs[i] if i < len(theirs) else None
        pairs.append((a and a["name"], a and a["output"], b and f'{b["module"]}:{b["op"]}', b and b["shapes"][0]))
    bad = [p for p in pairs if p[1] != p[3]]
    return len(theirs), bad


def compare_keras(table, record):
    theirs = {((op["container"] + "/") if op["container"] else "") + op["name"]: op for op in record["ops"]}
    ours = {l["name"]: l for l in table["layers"]}
    bad = []
    matched = set()
    for name, op in theirs.items():
        want = op["shapes"][0]
        if name in ours:
            got = ours[name]["output"]
            matched.add(name)
        else:
            # A custom layer padlab reads into its operations: its last one is its output.
            inner = [l for l in table["layers"] if l["name"].startswith(name + "/")]
            if not inner:
                bad.append((None, None, name, want))
                continue
            matched.update(l["name"] for l in inner)
            got = inner[-1]["output"]
        if got != want:
            bad.append((name, got, name, want))
    # Tensor math inside a custom layer (`x + self.conv(x)` in its call) is no operation Keras
    # records: such rows are checked where their container ends, the last of them against the
    # container's own output.
    containers = {c["path"]: c["shapes"][0] for c in record.get("containers", [])}
    for name in ours:
        if name in matched:
            continue
        path = name.rsplit("/", 1)[0] if "/" in name else None
        if path in containers:
            inside = [l for l in table["layers"] if l["name"].startswith(path + "/")]
            if inside[-1]["name"] != name or ours[name]["output"] == containers[path]:
                continue
        bad.append((name, ours[name]["output"], None, None))
    return len(theirs), bad


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--only", help="substrings of the model file names to run, comma-separated")
    parser.add_argument("--no-checks", action="store_true", help="compare tables only")
    parser.add_argument("--targets", default=",".join(TARGETS))
    parser.add_argument("--keras-backend", default="tensorflow", choices=["tensorflow", "torch", "jax"],
                        help="the backend the self-check scripts run Keras on (the referee stays on TensorFlow)")
    parser.add_argument("--dir", default=HERE, help="the models' folder (ops/ holds one small model per ported operation)")
    args = parser.parse_args()
    files = sorted(glob.glob(os.path.join(args.dir, "*.py")) + glob.glob(os.path.join(args.dir, "printed_*.txt")) + glob.glob(os.path.join(args.dir, "summary_*.txt")))
    only = [o for o in (args.only or "").split(",") if o]
    files = [f for f in files if os.path.basename(f) not in NOT_MODELS and (not only or any(o in os.path.basename(f) for o in only))]
    targets = [t for t in args.targets.split(",") if t]
    worker = Worker(args.keras_backend)
    tmp = tempfile.mkdtemp(prefix="padlab-models-")
    counts = {"models": 0, "checks": 0, "passed": 0, "shape_models": 0, "shape_ops": 0}
    by_pair = {}
    failures = []
    for path in files:
        name = os.path.basename(path).rsplit(".", 1)[0]
        text = open(path).read()
        extra = []
        if header(text, "input"):
            extra += ["--input", header(text, "input")]
        if header(text, "model") and path.endswith(".py"):
            extra += ["--model", header(text, "model")]
        code, out, err = padlab(["--json", *extra], text)
        if code != 0:
            failures.append(f"{name}: --json failed: {err.strip()}")
            print(f"{name}: padlab refused: {err.strip()[:300]}")
            continue
        table = json.loads(out)
        counts["models"] += 1
        source = table["framework"]
        # The source framework's own run (for printouts and summaries: the model they came from).
        # Printouts and summaries name their model's file on a `# printed from` / `# summary of` line.
        m = re.search(r"^# (?:printed from|summary of)\s+(\S+)\s*$", text, re.M)
        origin = m.group(1) if m else None
        truth_path = os.path.join(ROOT, origin) if origin else path
        truth_text = open(truth_path).read() if os.path.exists(truth_path) else text
        truth_extra = []
        if header(truth_text, "input") or header(text, "input"):
            truth_extra += ["--input", header(text, "input") or header(truth_text, "input")]
        if origin and header(truth_text, "model"):
            truth_extra += ["--build", header(truth_text, "model")]
        record, why = truth(truth_path, source, truth_extra)
        if record is None:
            failures.append(f"{name}: the {source} referee did not run: {why}")
        else:
            total, bad = (compare_torch if source == "torch" else compare_keras)(table, record)
            if bad:
                failures.append(f"{name}: {len(bad)} of {total} operations differ from {source}'s, first: {bad[0]}")
                print(f"{name} ({source}): {len(bad)} of {total} operations DIFFER, first: {bad[0]}")
            else:
                counts["shape_models"] += 1
                counts["shape_ops"] += total
                print(f"{name} ({source}, input {table['input']}): {total} operations equal {source}'s")
        if args.no_checks:
            continue
        for target in targets:
            counts["checks"] += 1
            pair = f"{source}->{target}"
            by_pair.setdefault(pair, [0, 0])[1] += 1
            code, script, err = padlab(["--to", target, "--check", *extra], text)
            if code != 0:
                failures.append(f"{name} -> {target}: padlab refused: {err.strip()}")
                print(f"   -> {target:<6} FAILED (padlab: {err.strip()[:200]})")
                continue
            script_path = os.path.join(tmp, f"{name}-{target}.py")
            with open(script_path, "w") as f:
                f.write(script)
            r = worker.run(script_path)
            ok = passed(r)
            line = next((l for l in r["out"].splitlines() if "self-check passed" in l), "")
            print(f"   -> {target:<6} {'passed' if ok else 'FAILED'} {line[len('padlab self-check passed: '):] if ok else failure(r)[:300]}")
            if ok:
                counts["passed"] += 1
                by_pair[pair][0] += 1
            else:
                failures.append(f"{name} -> {target}: {r.get('error')} {r.get('where')} (script: {script_path})")
    print()
    print(f"models: {counts['models']}; per-operation shapes equal to the framework's in {counts['shape_models']} "
          f"models ({counts['shape_ops']} operations); self-checks passed {counts['passed']} of {counts['checks']}")
    for pair, (ok, total) in sorted(by_pair.items()):
        print(f"   {pair:<14} {ok}/{total}")
    if failures:
        print("\nFailures:")
        for f in failures:
            print(" -", f)
        sys.exit(1)


if __name__ == "__main__":
    main()
