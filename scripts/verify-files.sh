#!/usr/bin/env bash
# Optional proof for `padlab port FILE`: every model file in tests/files/ read by padlab and
# compared with ONNX Runtime's and Keras's own record (tests/files/truth), then ported to
# torch, keras, tf and jax, each self-check script run in the real frameworks on the file.
# Uses the same private environment as the fixtures (tests/fixtures/requirements.txt).
#   scripts/verify-files.sh                # every file
#   scripts/verify-files.sh --only conv2d  # the files whose name contains "conv2d"
#   scripts/verify-files.sh --no-checks    # the tables only
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
venv="${PADLAB_FRAMEWORKS_VENV:-$root/tests/fixtures/.venv}"
if ! [ -x "$venv/bin/python" ]; then
  echo "verify-files: no framework environment at $venv (make it with scripts/verify-models.sh)" >&2
  exit 2
fi
export KERAS_HOME="${KERAS_HOME:-$venv/keras-home}" XDG_CACHE_HOME="${XDG_CACHE_HOME:-$venv/cache}"
export TF_CPP_MIN_LOG_LEVEL=3
cargo build --release --quiet --bin padlab
exec "$venv/bin/python" tests/files/verify.py "$@"
