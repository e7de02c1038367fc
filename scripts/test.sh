#!/usr/bin/env bash
# Runs every test: formatting, lints, native tests (fixtures, properties, contract), the release
# build, and the browser e2e suite at / and under the /padlab/ sub-path. Installs what is missing.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
scripts/setup.sh
source scripts/env.sh

step() { printf '\n==> %s\n' "$*"; }
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
# Runs a test command, keeping its output for the closing count.
counted() { "$@" 2>&1 | tee -a "$log"; }
step "cargo fmt --check";               cargo fmt --all -- --check
step "cargo fetch";                     cargo fetch --quiet
step "cargo clippy (all targets)";      cargo clippy --all-targets --quiet -- -D warnings
step "cargo clippy (with the app)";     cargo clippy --all-targets --all-features --quiet -- -D warnings
step "cargo clippy (wasm32 app + worker)"; cargo clippy --target wasm32-unknown-unknown --bins --features web --quiet -- -D warnings
step "cargo test";                      counted cargo test --quiet
step "trunk build --release";           trunk build --release --quiet
step "e2e at /";                        (cd e2e && counted npx playwright test)
step "trunk build --release (/padlab/)"
trunk build --release --quiet --public-url /padlab/ --dist dist-subpath
step "e2e under /padlab/"
(cd e2e && PADLAB_BASE=/padlab/ PADLAB_DIST=../dist-subpath PADLAB_PORT=4174 counted npx playwright test)

# One closing line over every runner: cargo's "N passed; M failed" and Playwright's "N passed".
sum() { grep -oE '[0-9]+' | awk '{ s += $1 } END { print s + 0 }'; }
passed=$(grep -oE '(ok|FAILED)\. [0-9]+ passed|^ +[0-9]+ passed' "$log" | sum)
failed=$(grep -oE '[0-9]+ failed' "$log" | sum)
printf '\ntests: %s passed, %s failed\n' "$passed" "$failed"
