#!/usr/bin/env python3
"""Proof for `padlab code --to torch --export-safe`: the module exports to ONNX and stays exact.

For recorded layers (accepted by their framework; `--per-file N` from each fixture file), the
export-safe PyTorch module is built, run eagerly on a random input, exported with
`torch.onnx.export(..., dynamo=False)` and run in ONNX Runtime; both outputs must agree to 1e-4
(-inf where both are -inf). Run it with the frameworks' environment:
    tests/fixtures/.venv/bin/python tests/codegen/export_onnx.py [--per-file 15]
"""

import argparse
import io
import json
import os
import subprocess
import sys
import warnings

warnings.filterwarnings("ignore")
os.environ.setdefault("ORT_LOG_SEVERITY_LEVEL", "3")

import numpy as np  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--padlab", default=os.path.join(ROOT, "target/release/padlab"))
    ap.add_argument("--fixtures", default=os.path.join(ROOT, "tests/fixtures"))
    ap.add_argument("--per-file", type=int, default=15)
    args = ap.parse_args()
    import torch
    import onnxruntime as ort

    torch.manual_seed(0)
    sys.path.insert(0, HERE)
    from verify import OPS, TARGETS, sources  # the same layers the check scripts use

    specs = sources(args.per_file, OPS, TARGETS, args.fixtures)
    failures, passed = [], 0
    for spec in specs:
        gen = subprocess.run([args.padlab, "code", "--to", "torch", "--export-safe"],
                             input=json.dumps(spec), capture_output=True, text=True)
        try:
            if gen.returncode:
                raise RuntimeError(gen.stderr.strip())
            ns = {}
            exec(gen.stdout, ns)
            layer = ns["PadlabLayer"]
            module = (layer(3, 4) if spec["op"] in ("conv", "conv_transpose") else layer()).eval()
            x = torch.randn(2, 3, *spec["input"])
            with torch.no_grad():
                want = module(x).numpy()
            buf = io.BytesIO()
            torch.onnx.export(module, (x,), buf, dynamo=False, opset_version=18)
            opts = ort.SessionOptions()
            opts.log_severity_level = 3
            session = ort.InferenceSession(buf.getvalue(), opts, providers=["CPUExecutionProvider"])
            got = session.run(None, {session.get_inputs()[0].name: x.numpy()})[0]
            if got.shape != want.shape:
                raise AssertionError(f"ONNX shape {got.shape} vs torch {want.shape}")
            if not np.allclose(got, want, atol=1e-4):
                raise AssertionError(f"outputs differ by {float(np.nanmax(np.abs(got - want)))}")
            passed += 1
        except Exception as e:  # noqa: BLE001 - every failure is a result
            failures.append(f"{json.dumps(spec)}\n     {type(e).__name__}: {str(e)[:300]}")
    for line in failures[:15]:
        print("FAIL", line)
    print(f"{len(specs)} layers: {passed} export to ONNX and agree, {len(failures)} fail")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
