#!/usr/bin/env python3
"""Times the model reader natively (issue 17's targets): a ResNet-152 paste read, traced and
ported, and pastes of 12,500 to 100,000 layers (the time must grow linearly with the paste).
Medians of repeated runs of the release CLI; reports, never assertions.

    cargo build --release --bin padlab && python3 scripts/bench-reader.py [--runs 7]
"""
import argparse
import os
import statistics
import subprocess
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PADLAB = os.path.join(ROOT, "target", "release", "padlab")


def timed(args, text, runs):
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        p = subprocess.run([PADLAB, "port", *args], input=text, capture_output=True, text=True)
        times.append(time.perf_counter() - t)
        if p.returncode != 0:
            raise SystemExit(f"padlab port {' '.join(args)} failed: {p.stderr.strip()}")
    return statistics.median(times), min(times)


def chain(n):
    """A torch Sequential of n layers (a conv, then ReLU / BatchNorm pairs)."""
    body = ["    nn.Conv2d(3, 8, 3, padding=1),"]
    body += ["    nn.ReLU()," if k % 2 else "    nn.BatchNorm2d(8)," for k in range(n - 1)]
    return "import torch.nn as nn\nmodel = nn.Sequential(\n" + "\n".join(body) + "\n)\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    resnet = open(os.path.join(ROOT, "tests", "models", "torch_resnet152.py")).read()
    for target in ["torch", "keras"]:
        med, best = timed(["--to", target, "--input", "3x224x224", "--model",
                           "ResNet152(img_channel=3, num_classes=1000)"], resnet, args.runs)
        print(f"ResNet-152 paste (515 operations) read, traced and ported to {target}: "
              f"median {med * 1000:.0f} ms (fastest {best * 1000:.0f} ms)")
    previous = None
    for n in [12_500, 25_000, 50_000, 100_000]:
        med, best = timed(["--json", "--input", "3x8x8"], chain(n), max(3, args.runs // 2))
        ratio = f", x{med / previous:.2f} for twice the layers" if previous else ""
        print(f"{n:>7} layers read and tabled: median {med:.2f} s (fastest {best:.2f} s){ratio}")
        previous = med


if __name__ == "__main__":
    main()
