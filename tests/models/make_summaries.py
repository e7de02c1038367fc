#!/usr/bin/env python3
"""Writes the corpus's `model.summary()` tables: tests/models/summary_<name>.txt.

Each is the real summary Keras prints for a corpus model, as people paste it, under a header:

    # padlab-input: HxWxC              (only when the model file has one)
    # summary of tests/models/<file>.py

Keras 3 prints the new box-drawing table; Keras 2 (the tf-keras package, TF_USE_LEGACY_KERAS=1)
prints the old one (`Layer (type)  Output Shape  Param #` between `====` and `____` lines). The
tables come from `truth_keras.py MODEL --summary`, run in a subprocess per model.

Run it with the frameworks' Python (tests/fixtures/.venv: tensorflow-cpu 2.21, keras 3.15):

    tests/fixtures/.venv/bin/python tests/models/make_summaries.py [--tf-keras DIR] [--check]

Keras 2 is not in tests/fixtures/requirements.txt; install it apart, without touching that
environment, and name the folder:

    tests/fixtures/.venv/bin/python -m pip install --no-deps --target DIR tf-keras==2.21.0

(it needs nothing but the tensorflow already there). Without --tf-keras the Keras 2 tables are
skipped, unless tf_keras is importable anyway. --check compares instead of writing and exits 1
on a difference.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# (summary name, model file, Keras major version)
SUMMARIES = [
    ("mnist_convnet", "keras_mnist_convnet.py", 3),           # a Sequential
    ("toy_resnet", "keras_toy_resnet.py", 3),                 # residual adds: Connected to
    ("xception_small", "keras_xception_small.py", 3),         # strided 'same', odd sizes
    ("vae_encoder", "keras_vae_encoder.py", 3),               # three outputs, a custom layer
    ("flowers_no_input", "keras_flowers_no_input.py", 3),     # nested Sequential, no input shape
    ("keras2_cifar10_cnn", "keras_cifar10_cnn.py", 2),        # a Sequential, Keras 2 style
    ("keras2_toy_resnet", "keras_toy_resnet.py", 2),          # Connected to, Keras 2 style
    ("keras2_dcgan_generator", "keras_dcgan_tutorial.py", 2),  # strided 'same' transposed convs
]


def summary(model_file, major, tf_keras_dir, scratch):
    env = dict(os.environ, KERAS_HOME=os.path.join(scratch, "keras"),
               XDG_CACHE_HOME=os.path.join(scratch, "cache"), TF_CPP_MIN_LOG_LEVEL="3",
               KERAS_BACKEND="tensorflow", PYTHONIOENCODING="utf-8")
    env.pop("TF_USE_LEGACY_KERAS", None)
    if major == 2:
        env["TF_USE_LEGACY_KERAS"] = "1"
        if tf_keras_dir:
            env["PYTHONPATH"] = os.pathsep.join(p for p in [tf_keras_dir, env.get("PYTHONPATH")] if p)
    p = subprocess.run([sys.executable, os.path.join(HERE, "truth_keras.py"),
                        os.path.join(HERE, model_file), "--summary"],
                       capture_output=True, text=True, encoding="utf-8", env=env)
    if p.returncode != 0:
        raise SystemExit(f"{model_file} (Keras {major}): {p.stderr.strip()[-2000:]}")
    return p.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tf-keras", help="a folder holding the tf_keras package (Keras 2)")
    ap.add_argument("--check", action="store_true", help="compare with the files instead of writing")
    ap.add_argument("--only", help="a substring of the summary names to make")
    args = ap.parse_args()

    have_keras2 = bool(args.tf_keras)
    if not have_keras2:
        try:
            import importlib.util
            have_keras2 = importlib.util.find_spec("tf_keras") is not None
        except ImportError:
            have_keras2 = False
    scratch = tempfile.mkdtemp(prefix="padlab-summaries-")
    differ = []
    for name, model_file, major in SUMMARIES:
        if args.only and args.only not in name:
            continue
        if major == 2 and not have_keras2:
            print(f"skipped summary_{name}.txt: Keras 2 (tf-keras) is not installed; see --tf-keras")
            continue
        text = open(os.path.join(HERE, model_file)).read()
        m = re.search(r"^# padlab-input:\s*(\S+)", text, re.M)
        head = (f"# padlab-input: {m.group(1)}\n" if m else "") + \
            f"# summary of tests/models/{model_file}\n"
        body = summary(model_file, major, args.tf_keras, scratch)
        body = "\n".join(line.rstrip() for line in body.splitlines()) + "\n"
        out = head + body
        path = os.path.join(HERE, f"summary_{name}.txt")
        if args.check:
            old = open(path, encoding="utf-8").read() if os.path.exists(path) else None
            if old != out:
                differ.append(path)
            print(f"{'same' if old == out else 'DIFFERENT'}: summary_{name}.txt")
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(out)
            print(f"wrote summary_{name}.txt (Keras {major}, {len(body.splitlines())} lines)")
    if differ:
        sys.exit(1)


if __name__ == "__main__":
    main()
