#!/usr/bin/env bash
# Serves the app on http://127.0.0.1:8080 (rebuilding on change). Installs what is missing first.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
scripts/setup.sh build
source scripts/env.sh
cargo fetch --quiet
exec trunk serve --address 127.0.0.1 --port "${PORT:-8080}" "$@"
