#!/usr/bin/env bash
# Re-makes the model-file fixtures (onnx/, keras/) and their truth (truth/) with the real tools,
# in the frameworks' private environment of tests/fixtures (see tests/fixtures/regenerate.sh,
# which installs it). The default torch exporter needs onnxscript, which that environment does
# not pin: it is installed into a scratch folder on the side (requirements.txt here).
#   tests/files/regenerate.sh             # everything
#   tests/files/regenerate.sh helper      # only the onnx.helper graphs (then all the truth)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="${PADLAB_FRAMEWORKS_VENV:-$here/../fixtures/.venv}"
if ! [ -x "$venv/bin/python" ]; then
  echo "no frameworks environment at $venv: run tests/fixtures/regenerate.sh first (it installs" >&2
  echo "one), or point PADLAB_FRAMEWORKS_VENV at one" >&2
  exit 1
fi
scratch="${PADLAB_SCRATCH:-$(mktemp -d)}"
if ! PYTHONPATH="$scratch/extra" "$venv/bin/python" -c "import onnxscript, tf_keras, tf2onnx" 2>/dev/null; then
  "$venv/bin/pip" install --quiet --no-deps --target "$scratch/extra" -r "$here/requirements.txt"
fi
export PYTHONPATH="$scratch/extra" KERAS_HOME="$scratch/keras-home" XDG_CACHE_HOME="$scratch/cache" TF_CPP_MIN_LOG_LEVEL=3
"$venv/bin/python" "$here/make_fixtures.py" "$@"
"$venv/bin/python" "$here/truth.py"
