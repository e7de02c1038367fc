#!/usr/bin/env python3
"""Every Keras Applications model padlab has, read by padlab, against Keras's own build.

For each model of padlab's copy (src/model/code/zoo/keras_applications.py) and a few ways of
building it (the top with its default input; no top at two input sizes, pooled or not): a
two-line paste `model = keras.applications.X(weights=None, ...)` is read with
`padlab port --json` and run by tests/models/truth_keras.py, and the two are compared
operation by operation as tests/models/verify.py does; padlab's parameter count (the one its
self-check asserts) against `model.count_params()`.

    python tests/models/keras_applications/sweep.py                    # every model
    python tests/models/keras_applications/sweep.py ResNet50 VGG16     # some
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
MODELS = os.path.dirname(HERE)
sys.path.insert(0, MODELS)
import verify  # noqa: E402

ALL = [
    "VGG16", "VGG19", "ResNet50", "ResNet101", "ResNet152", "ResNet50V2", "ResNet101V2",
    "ResNet152V2", "MobileNet", "MobileNetV2", "DenseNet121", "DenseNet169", "DenseNet201",
    "InceptionV3", "Xception", "EfficientNetB0", "EfficientNetB1", "EfficientNetB2",
    "EfficientNetB3", "EfficientNetB4", "EfficientNetB5", "EfficientNetB6", "EfficientNetB7",
]
# Input sides without the top: an odd one and an even one (the stride-2 paddings differ).
SIDES = {"InceptionV3": (139, 150), "Xception": (99, 112)}
CONFIGS = [
    "include_top=True",
    "include_top=False, input_shape=({s0}, {s0}, 3)",
    "include_top=False, input_shape=({s1}, {s1}, 3), pooling='avg'",
    "include_top=True, weights='imagenet'",
    "include_top=False, input_shape=(128, 128, 3), alpha=0.5",
]


def configs(name):
    s0, s1 = SIDES.get(name, (97, 128))
    out = [c.format(s0=s0, s1=s1) for c in CONFIGS[:3]]
    if name.startswith("EfficientNet"):
        out.append(CONFIGS[3])  # the ImageNet weights add a Rescaling
    if name.startswith("MobileNet"):
        out.append(CONFIGS[4])
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*", help="models to run (default: all)")
    args = parser.parse_args()
    results = {"equal": [], "wrong": [], "refused": []}
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.names or ALL:
            for config in configs(name):
                weights = "" if "weights=" in config else "weights=None, "
                text = f"import keras\nmodel = keras.applications.{name}({weights}{config})\n"
                what = f"{name}({config})"
                path = os.path.join(tmp, "paste.py")
                with open(path, "w") as f:
                    f.write(text)
                code, out, err = verify.padlab(["--json"], text)
                if code:
                    results["refused"].append(what)
                    print(f"{what}: REFUSED: {err.strip()[:400]}")
                    continue
                table = json.loads(out)
                check = verify.padlab(["--to", "keras", "--check"], text)[1]
                counted = re.search(r"count_params\(\) == (\d+)", check)
                counted = int(counted.group(1)) if counted else None
                record, why = verify.truth(path, "keras", [])
                if record is None:
                    results["refused"].append(what)
                    print(f"{what}: KERAS FAILED: {why}")
                    continue
                total, bad = verify.compare_keras(table, record)
                if bad or counted != record["params"]:
                    results["wrong"].append(what)
                    print(f"{what}: WRONG {len(bad)} of {total} operations differ; params "
                          f"{counted} vs Keras's {record['params']}; first: {bad[:1]}")
                else:
                    results["equal"].append(what)
                    print(f"{what}: {total} operations equal Keras's ({counted} parameters)")
    print()
    for k, v in results.items():
        print(f"{k}: {len(v)}" + (f" ({'; '.join(v)})" if v and k != "equal" else ""))
    sys.exit(1 if results["wrong"] or results["refused"] else 0)


if __name__ == "__main__":
    main()
