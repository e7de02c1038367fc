#!/usr/bin/env bash
# Optional proof for the code generator: runs `padlab code --check` scripts for every
# source x target x op against the real frameworks (torch, TensorFlow/Keras, ONNX Runtime, JAX),
# installed into a private virtual environment (about 4 GB with torch; nothing global).
#   scripts/verify-codegen.sh                  # 30 layers per framework x op file, all targets
#   scripts/verify-codegen.sh --per-file 5     # a quicker pass
#   scripts/verify-codegen.sh --answers        # the answer lines (`padlab answer`), run as written
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/frameworks-env.sh"
cd "$root"
cargo build --release --quiet --bin padlab
if [ "${1:-}" = "--answers" ]; then
  shift
  exec "$venv/bin/python" tests/codegen/verify_answers.py "$@"
fi
exec "$venv/bin/python" tests/codegen/verify.py "$@"
