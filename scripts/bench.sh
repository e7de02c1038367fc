#!/usr/bin/env bash
# Builds the release site and measures it in Debian's Chromium (see BENCHMARKS.md).
# Numbers on a shared machine are noisy: the script reports medians and percentiles of
# repeated runs; PADLAB_RUNS sets the repetitions (default 15).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
scripts/setup.sh
source scripts/env.sh
cargo fetch --quiet
trunk build --release --quiet
(cd e2e && exec python3 serve.py 4175 ../dist /) &
echo $! > "$root/target/bench-server.pid"
trap 'kill "$(cat "$root/target/bench-server.pid")" 2>/dev/null || true' EXIT
sleep 1
cd e2e && node bench.mjs
