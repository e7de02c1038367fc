#!/usr/bin/env python3
"""Proof for the answer lines (`padlab answer`, the lines at the top of the web app): run them.

For each recorded layer (the same picks as verify.py) and each target with answer lines that
can run as written (torch, keras, tf, jax), a script:
- keeps the definitions of `padlab code --to T --check` (its `run_padlab_layer` is the full
  target code, which verify.py proves equal to the source framework),
- runs the answer lines on the same input and weights (placeholders `C_in`, `C_out`, `batch`
  filled in, the bias zero: answer lines leave it out), and
- asserts the two agree to 1e-4.
Answers with a `#` line (a step only the full code spells out) or a helper of the full code
(`pad_edge`, `pad_wrap`, a zero-inserted kernel) are counted as "spelled out", not run.
Run it through scripts/verify-codegen.sh --answers (same environment as verify.py).
"""

import argparse
import json
import os
import subprocess
import sys
from collections import Counter

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import verify  # noqa: E402

RUNNABLE = ["torch", "keras", "tf", "jax"]

# Runs the answer lines. `x` is NCHW numpy, `w` the torch-layout weight (or None for a pool).
HARNESS = r'''
def run_answer(target, lines, x, w, op):
    import json, re
    import numpy as np
    n = x.ndim - 2
    transposed = op == "conv_transpose"
    if w is None:
        c_in = c_out = x.shape[1]
    elif transposed:
        c_in, c_out = w.shape[0], w.shape[1]
    else:
        c_out, c_in = w.shape[0], w.shape[1]
    # TF / Keras kernels: spatial first, then (in, out) for a conv, (out, in) for a transposed one.
    last = None if w is None else np.ascontiguousarray(np.transpose(w, list(range(2, 2 + n)) + [1, 0]))
    env = {"C_in": int(c_in), "C_out": int(c_out), "batch": int(x.shape[0])}
    if target == "torch":
        import torch, torch.nn as nn, torch.nn.functional as F
        env.update(torch=torch, nn=nn, F=F, x=torch.from_numpy(x))
        with torch.no_grad():
            for line in lines:
                if line.startswith("x = "):
                    exec(line, env)
                    continue
                m = eval(line, env)
                if getattr(m, "weight", None) is not None:
                    m.weight.copy_(torch.from_numpy(w))
                if getattr(m, "bias", None) is not None:
                    m.bias.zero_()
                # A transposed layer's line may say how it is called: `conv(x, output_size=[...])`.
                called = re.search(r"called as conv\(x, output_size=(\[[0-9, ]*\])\)", line)
                if called:
                    env["x"] = m(env["x"], output_size=json.loads(called.group(1)))
                else:
                    env["x"] = m(env["x"])
        return env["x"].numpy()
    if target == "keras":
        import keras
        from keras import layers
        env.update(keras=keras, layers=layers, x=np.moveaxis(x, 1, -1))
        for line in lines:
            if line.startswith("x = "):
                exec(line, env)
                continue
            layer = eval(line, env)
            layer(env["x"])
            if layer.weights:
                layer.set_weights([last] + [np.zeros(v.shape, np.float32) for v in layer.weights[1:]])
            env["x"] = keras.ops.convert_to_numpy(layer(env["x"]))
        return np.moveaxis(np.asarray(env["x"]), -1, 1)
    if target == "tf":
        import tensorflow as tf
        env.update(tf=tf, x=tf.constant(np.moveaxis(x, 1, -1)), w=None if last is None else tf.constant(last))
        for line in lines:
            if line.startswith("x = "):
                exec(line, env)
            else:
                env["x"] = eval(line, env)
        return np.moveaxis(np.asarray(env["x"]), -1, 1)
    if target == "jax":
        import jax.numpy as jnp
        from jax import lax
        env.update(jnp=jnp, lax=lax, x=jnp.asarray(x), w=None if w is None else jnp.asarray(w))
        for line in lines:
            if line.startswith("x = "):
                exec(line, env)
            else:
                env["x"] = eval(line, env)
        return np.asarray(env["x"])
    raise ValueError(target)
'''


def runnable(lines):
    return not any(l.startswith("#") or "pad_edge" in l or "pad_wrap" in l or "zero-inserted" in l
                   for l in lines)


def script(check, target, lines, op):
    head, sep, tail = check.partition("rng = np.random.default_rng(0)\n")
    if not sep:
        raise ValueError("no rng line in the check script")
    data = [l for l in tail.splitlines() if l.startswith(("x = rng", "w = rng", "b = rng"))]
    body = "\n".join(data)
    return f'''{head}{HARNESS}
rng = np.random.default_rng(0)
{body}
b = np.zeros_like(b)
y = run_padlab_layer(x, w, b)
y_answer = run_answer({target!r}, {lines!r}, x, w if {op.startswith("conv")} else None, {op!r})
assert y_answer.shape == y.shape, f"answer shape {{y_answer.shape}}, full code {{y.shape}}"
error = float(np.max(np.abs(y - y_answer))) if y.size else 0.0
assert np.allclose(y, y_answer, atol=1e-4), f"the answer lines differ from the full code by {{error}}"
print("padlab self-check passed")
'''


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--padlab", default=os.path.join(verify.ROOT, "target/release/padlab"))
    ap.add_argument("--per-file", type=int, default=30)
    ap.add_argument("--fixtures", default=os.path.join(verify.ROOT, "tests/fixtures"))
    ap.add_argument("--out", default=os.path.join(verify.ROOT, "target/answer-check"))
    ap.add_argument("--show", type=int, default=15)
    ap.add_argument("--ops", default=",".join(verify.OPS))
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    specs = verify.sources(args.per_file, args.ops.split(","), verify.TARGETS, args.fixtures)
    answers = subprocess.run([args.padlab, "answer"], input="\n".join(json.dumps(s) for s in specs) + "\n",
                             capture_output=True, text=True, check=True).stdout.splitlines()
    # Keras answers run on the source's backend when it names one, else on TensorFlow.
    workers = {}
    counts, failures = Counter(), []
    for i, (spec, answer) in enumerate(zip(specs, answers)):
        answer = json.loads(answer)
        for target in RUNNABLE:
            a = answer.get(target, {})
            if "lines" not in a:
                counts[f"{target}: refused"] += 1
                continue
            if not runnable(a["lines"]):
                counts[f"{target}: spelled out"] += 1
                continue
            check = subprocess.run([args.padlab, "code", "--to", target, "--check"], input=json.dumps(spec),
                                   capture_output=True, text=True)
            if check.returncode != 0:
                counts[f"{target}: no full code"] += 1
                continue
            path = os.path.join(args.out, f"{i:05d}_{spec['framework']}_{spec['op']}_to_{target}.py")
            with open(path, "w") as f:
                f.write(script(check.stdout, target, a["lines"], spec["op"]))
            backend = spec.get("backend", "tensorflow") if spec["framework"] == "keras" else "tensorflow"
            if backend not in workers:
                workers[backend] = verify.Worker(backend)
            worker = workers[backend]
            result = worker.run(path)
            if verify.passed(result):
                counts[f"{target}: passed"] += 1
            else:
                counts[f"{target}: FAILED"] += 1
                failures.append((path, a["lines"], result))
        if (i + 1) % 100 == 0:
            print(f"  {i + 1}/{len(specs)} layers, {dict(sorted(counts.items()))}", flush=True)
    print(f"{len(specs)} layers")
    for key, value in sorted(counts.items()):
        print(f"  {key}: {value}")
    for path, lines, result in failures[:args.show]:
        print(f"FAILED {path}\n  {lines}\n  {verify.failure(result)}\n  {result.get('where', '')}")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
