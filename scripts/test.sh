#!/usr/bin/env bash
# Runs every test: formatting, lints, native tests (fixtures, properties, contract), the release
# build, and the browser e2e suite at / and under the /padlab/ sub-path. Installs what is missing.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
scripts/setup.sh
source scripts/env.sh

step() { printf '\n==> %s\n' "$*"; }
step "cargo fmt --check";               cargo fmt --all -- --check
step "cargo fetch";                     cargo fetch --quiet
step "cargo clippy (all targets)";      cargo clippy --all-targets --quiet -- -D warnings
step "cargo clippy (wasm32 app)";       cargo clippy --target wasm32-unknown-unknown --bin padlab-web --quiet -- -D warnings
step "cargo test";                      cargo test --quiet
step "trunk build --release";           trunk build --release --quiet
step "e2e at /";                        (cd e2e && npx playwright test)
step "trunk build --release (/padlab/)"
trunk build --release --quiet --public-url /padlab/ --dist dist-subpath
step "e2e under /padlab/";              (cd e2e && PADLAB_BASE=/padlab/ PADLAB_DIST=../dist-subpath PADLAB_PORT=4174 npx playwright test)
step "all tests passed"
