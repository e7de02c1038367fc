#!/usr/bin/env bash
# Optional proof for `padlab port FILE`: every model file in tests/files/ read by padlab and
# compared with ONNX Runtime's and Keras's own record (tests/files/truth), then ported to
# torch, keras, tf and jax, each self-check script run in the real frameworks on the file.
# Uses the same private environment as the fixtures (scripts/frameworks-env.sh).
#   scripts/verify-files.sh                # every file
#   scripts/verify-files.sh --only conv2d  # the files whose name contains "conv2d"
#   scripts/verify-files.sh --no-checks    # the tables only
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/frameworks-env.sh"
cd "$root"
cargo build --release --quiet --bin padlab
exec "$venv/bin/python" tests/files/verify.py "$@"
