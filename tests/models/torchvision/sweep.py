#!/usr/bin/env python3
"""Every CNN classifier of torchvision, printed and read by padlab, against torch's own run.

For each model of `torchvision.models.list_models(module=torchvision.models)` but the
transformers (ViT, Swin, MaxViT): build it untrained on torch's meta device (no memory for
weights, shapes only), `print(model)`, read the printout with `padlab port --json`, trace the
model on a meta batch as tests/models/truth_torch.py does, and compare operation by operation
as tests/models/verify.py does; also padlab's parameter count against torch's.

torchvision is not in the project's requirements. Install it beside the frameworks' torch:

    python -m pip install torchvision==0.29.2   # works with torch 2.15

    python tests/models/torchvision/sweep.py                 # every CNN
    python tests/models/torchvision/sweep.py resnet18 vgg11  # some
    python tests/models/torchvision/sweep.py --write DIR     # keep the printouts in DIR
"""

import argparse
import contextlib
import io
import json
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.dirname(HERE)
sys.path.insert(0, MODELS)
import truth_torch  # noqa: E402
import verify  # noqa: E402

NOT_CNNS = ("vit_", "swin_", "maxvit_")
# The input each model is made for (the others take 224x224).
INPUTS = {"inception_v3": "3x299x299"}


@contextlib.contextmanager
def on_meta(torch):
    """Parameters and buffers made on the meta device as each module registers them (torch's
    `torch.device("meta")` would also put the builders' own arithmetic there: RegNet's widths)."""
    nn = torch.nn
    register_parameter, register_buffer = nn.Module.register_parameter, nn.Module.register_buffer

    def parameter(self, name, p):
        if p is not None:
            p = nn.Parameter(p.to("meta"), requires_grad=p.requires_grad)
        register_parameter(self, name, p)

    def buffer(self, name, b, persistent=True):
        register_buffer(self, name, None if b is None else b.to("meta"), persistent)

    nn.Module.register_parameter, nn.Module.register_buffer = parameter, buffer
    try:
        yield
    finally:
        nn.Module.register_parameter, nn.Module.register_buffer = register_parameter, register_buffer


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*", help="models to run (default: every CNN)")
    parser.add_argument("--write", help="a folder to keep the printouts in")
    args = parser.parse_args()
    import torch
    import torchvision

    names = args.names or [n for n in torchvision.models.list_models(module=torchvision.models)
                           if not n.startswith(NOT_CNNS)]
    results = {"equal": [], "wrong": [], "refused": []}
    for name in names:
        shape = INPUTS.get(name, "3x224x224")
        with on_meta(torch):
            model = torchvision.models.get_model(name, weights=None)
        model.eval()
        text = f"{model}\n"
        if args.write:
            with open(os.path.join(args.write, f"printed_{name}.txt"), "w") as f:
                f.write(f"# padlab-input: {shape}\n{text}")
        p = subprocess.run([verify.PADLAB, "port", "--json", "--input", shape], input=text,
                           capture_output=True, text=True)
        if p.returncode:
            results["refused"].append(name)
            print(f"{name}: REFUSED: {p.stderr.strip()[:400]}")
            continue
        table = json.loads(p.stdout)
        # padlab's parameter count, as its self-check script asserts it.
        check = subprocess.run([verify.PADLAB, "port", "--to", "torch", "--check", "--input", shape],
                               input=text, capture_output=True, text=True).stdout
        counted = re.search(r"parameters\(\)\) == (\d+)", check)
        counted = int(counted.group(1)) if counted else None
        x = torch.randn(2, *[int(s) for s in shape.split("x")], device="meta")
        with contextlib.redirect_stdout(io.StringIO()):
            ops = truth_torch.trace(model, x)
        total, bad = verify.compare_torch(table, {"ops": ops})
        params = sum(p.numel() for p in model.parameters())
        errors = [l for l in table["layers"] if l.get("error")]
        if bad or counted != params or errors:
            results["wrong"].append(name)
            first = bad[0] if bad else (errors[0]["error"][:200] if errors else "")
            print(f"{name}: WRONG {len(bad)} of {total} operations differ; params "
                  f"{counted} vs torch's {params}; first: {first}")
        else:
            results["equal"].append(name)
            print(f"{name}: {total} operations equal torch's ({params} parameters)")
    print()
    for k, v in results.items():
        print(f"{k}: {len(v)}" + (f" ({', '.join(v)})" if v and k != "equal" else ""))
    sys.exit(1 if results["wrong"] or results["refused"] else 0)


if __name__ == "__main__":
    main()
