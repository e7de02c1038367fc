#!/usr/bin/env python3
"""Proof for `padlab port`: every model in tests/models/*.py, ported to every target, checked
against the real frameworks.

For each model:
- `padlab port --json` gives padlab's layer table; the source model, rebuilt from the paste by
  the check script's own first half, reports each layer's output shape (torch: forward hooks on
  its modules, in call order; Keras: its layers called in order). Both are printed, and must be
  equal, layer by layer.
- `padlab port --to T --check` for T in torch, keras, tf, jax: the script copies the weights,
  runs both models and must print "padlab self-check passed".

A model's input shape, when its code does not state one, is on a `# padlab-input:` line.
Scripts run in worker processes that keep the frameworks imported; a crash is a failure, not
the end of the run. Run it through scripts/verify-models.sh.
"""

import argparse
import contextlib
import glob
import io
import json
import os
import re
import subprocess
import sys
import tempfile
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
TARGETS = ["torch", "keras", "tf", "jax"]
PADLAB = os.path.join(ROOT, "target", "release", "padlab")

PROBE = r'''
import json as _json
_shapes = []
if "torch" in globals() and isinstance(source, torch.nn.Module):
    _leaves = [m for m in source.modules() if not list(m.children())]
    for _m in _leaves:
        _m.register_forward_hook(lambda m, i, o: _shapes.append(list(o.shape[1:])))
    source.eval()
    with torch.no_grad():
        source(torch.from_numpy(x))
else:
    def _flat(layers):
        for _l in layers:
            if hasattr(_l, "layers") and not isinstance(_l, keras.layers.InputLayer):
                yield from _flat(_l.layers)
            elif not isinstance(_l, keras.layers.InputLayer):
                yield _l
    _y = x
    for _l in _flat(source.layers):
        _y = _l(_y, training=False)
        _shapes.append(list(_y.shape[1:]))
print("PADLAB_SHAPES " + _json.dumps(_shapes))
'''


def serve():
    """Worker: reads script paths, runs each, answers one JSON line with what it printed."""
    import warnings
    warnings.filterwarnings("ignore")
    for line in sys.stdin:
        path = line.strip()
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
                exec(compile(open(path).read(), path, "exec"), {"__name__": "__main__"})
            answer = {"ok": True, "out": out.getvalue()[-4000:]}
        except BaseException as e:  # noqa: BLE001 - every failure is a result
            answer = {"ok": False, "out": out.getvalue()[-1000:],
                      "error": f"{type(e).__name__}: {str(e)[:600]}",
                      "where": traceback.format_exc().splitlines()[-4:-1]}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


class Worker:
    def __init__(self):
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", KERAS_BACKEND="tensorflow", JAX_PLATFORMS="cpu")
        self.proc = subprocess.Popen([sys.executable, __file__, "--worker"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)

    def run(self, path):
        self.proc.stdin.write(path + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            self.proc.wait()
            self.__init__()
            return {"ok": False, "error": "the worker crashed (a framework abort)"}
        return json.loads(line)


def padlab(args, stdin):
    p = subprocess.run([PADLAB, "port", *args], input=stdin, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def source_kind(framework):
    return framework


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--worker", action="store_true")
    parser.add_argument("--only", help="a substring of the model file names to run")
    args = parser.parse_args()
    if args.worker:
        serve()
        return
    files = sorted(glob.glob(os.path.join(HERE, "*.py")))
    files = [f for f in files if os.path.basename(f) != "verify.py" and (not args.only or args.only in f)]
    worker = Worker()
    tmp = tempfile.mkdtemp(prefix="padlab-models-")
    counts = {"models": 0, "checks": 0, "passed": 0, "shape_models": 0, "shape_layers": 0}
    by_pair = {}
    failures = []
    for path in files:
        name = os.path.basename(path)[:-3]
        text = open(path).read()
        m = re.search(r"^# padlab-input:\s*(\S+)", text, re.M)
        extra = ["--input", m.group(1)] if m else []
        code, out, err = padlab(["--json", *extra], text)
        if code != 0:
            failures.append(f"{name}: --json failed: {err.strip()}")
            continue
        table = json.loads(out)
        counts["models"] += 1
        source = table["framework"]
        # Per-layer shapes from the real framework (the check script's source half).
        code, script, err = padlab(["--to", source, "--check", *extra], text)
        if code == 0:
            head = script.split(" port (padlab) ----")[0].rsplit("\n", 1)[0]
            rng = "\nrng = np.random.default_rng(0)\n"
            x_line = next(l for l in script.splitlines() if l.startswith("x = rng.standard_normal"))
            probe_path = os.path.join(tmp, f"{name}-shapes.py")
            with open(probe_path, "w") as f:
                f.write(head + rng + x_line + "\n" + PROBE)
            r = worker.run(probe_path)
            got = None
            if r["ok"]:
                for line in r["out"].splitlines():
                    if line.startswith("PADLAB_SHAPES "):
                        got = json.loads(line[len("PADLAB_SHAPES "):])
            rows = table["layers"]
            if source == "torch":
                # Hooks see modules only: the table's rows that are modules, in order.
                rows = [row for row in rows if row["kind"][:1].isupper() and row["kind"] != "Identity"]
            ours = [row["output"] for row in rows]
            print(f"{name} ({source}, input {table['input']}): per-layer output shapes")
            for i, row in enumerate(rows):
                theirs = got[i] if got is not None and i < len(got) else None
                mark = "ok" if theirs == row["output"] else "DIFFERENT"
                print(f"   {row['kind']:<24} padlab {str(row['output']):<18} {source} {str(theirs):<18} {mark}")
            if got is None:
                failures.append(f"{name}: the source model did not run: {r.get('error')} {r.get('where')}")
            elif got != ours:
                failures.append(f"{name}: per-layer shapes differ: padlab {ours}, {source} {got}")
            else:
                counts["shape_models"] += 1
                counts["shape_layers"] += len(ours)
        else:
            failures.append(f"{name}: no {source} check script: {err.strip()}")
        for target in TARGETS:
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
            passed = r["ok"] and "padlab self-check passed" in r.get("out", "")
            line = next((l for l in r.get("out", "").splitlines() if "self-check passed" in l), "")
            print(f"   -> {target:<6} {'passed' if passed else 'FAILED'} {line[len('padlab self-check passed: '):] if passed else r.get('error', '')[:300]}")
            if passed:
                counts["passed"] += 1
                by_pair[pair][0] += 1
            else:
                failures.append(f"{name} -> {target}: {r.get('error')} {r.get('where')} (script: {script_path})")
    print()
    print(f"models: {counts['models']}; per-layer shapes equal to the framework's in {counts['shape_models']} "
          f"models ({counts['shape_layers']} layers); self-checks passed {counts['passed']} of {counts['checks']}")
    for pair, (ok, total) in sorted(by_pair.items()):
        print(f"   {pair:<14} {ok}/{total}")
    if failures:
        print("\nFailures:")
        for f in failures:
            print(" -", f)
        sys.exit(1)


if __name__ == "__main__":
    main()
