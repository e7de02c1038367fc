#!/usr/bin/env bash
# Optional proof for `padlab port`: every model in tests/models/ ported to torch, keras, tf and
# jax, each self-check script run against the real frameworks, and padlab's per-layer shapes
# compared with the source framework's own. Uses the same private environment as the fixtures
# (tests/fixtures/requirements.txt; about 4 GB with torch; nothing global).
#   scripts/verify-models.sh                 # every model (about 15 minutes)
#   scripts/verify-models.sh --only dcgan    # the models whose file name contains "dcgan"
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/frameworks-env.sh"
cd "$root"
cargo build --release --quiet --bin padlab
exec "$venv/bin/python" tests/models/verify.py "$@"
