# Sourced by the scripts that run the real frameworks (verify-codegen.sh, verify-models.sh,
# verify-files.sh, tests/fixtures/regenerate.sh): their one private environment, pinned by
# tests/fixtures/requirements.txt (about 4 GB with torch; nothing global), made on first use and
# brought up to date; Keras's and the downloads' caches inside it unless set. Sets `root` (the
# repository) and `venv`.
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="${PADLAB_FRAMEWORKS_VENV:-$root/tests/fixtures/.venv}"
if ! [ -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --upgrade pip
fi
"$venv/bin/pip" install --quiet -r "$root/tests/fixtures/requirements.txt"
export KERAS_HOME="${KERAS_HOME:-$venv/keras-home}" XDG_CACHE_HOME="${XDG_CACHE_HOME:-$venv/cache}"
export TF_CPP_MIN_LOG_LEVEL=3
