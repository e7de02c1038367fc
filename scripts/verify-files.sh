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
# Keras 3 does not load some Keras 2 files (keras2_groups.h5, keras2_nested.h5); their
# self-checks load them with tf_keras, installed on the side as regenerate.sh does.
extra="${PADLAB_FILES_EXTRA:-$root/target/files-extra}"
if ! PYTHONPATH="$extra" "$venv/bin/python" -c "import tf_keras" 2>/dev/null; then
  "$venv/bin/pip" install --quiet --no-deps --target "$extra" -r tests/files/requirements.txt ||
    echo "tf_keras is not installed: the Keras 2 files Keras 3 refuses say so in their checks" >&2
fi
export PYTHONPATH="$extra${PYTHONPATH:+:$PYTHONPATH}"
cargo build --release --quiet --bin padlab
exec "$venv/bin/python" tests/files/verify.py "$@"
