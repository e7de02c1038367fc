#!/usr/bin/env bash
# Rewrites the default layer's pre-rendered picture in index.html (checked by tests/prerender.rs).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cargo run --quiet --example prerender
