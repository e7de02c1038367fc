#!/usr/bin/env bash
# Optional proof for `padlab port`: every model in tests/models/ ported to torch, keras, tf and
# jax, each self-check script run against the real frameworks, and padlab's per-layer shapes
# compared with the source framework's own. Uses the same private environment as the fixtures
# (tests/fixtures/requirements.txt; about 4 GB with torch; nothing global).
#   scripts/verify-models.sh                 # every model (about 15 minutes)
#   scripts/verify-models.sh --only dcgan    # the models whose file name contains "dcgan"
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
venv="${PADLAB_FRAMEWORKS_VENV:-$root/tests/fixtures/.venv}"
if ! [ -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --upgrade pip
fi
"$venv/bin/pip" install --quiet -r tests/fixtures/requirements.txt
export KERAS_HOME="$venv/keras-home" XDG_CACHE_HOME="$venv/cache"
cargo build --release --quiet --bin padlab
exec "$venv/bin/python" tests/models/verify.py "$@"
