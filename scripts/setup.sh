#!/usr/bin/env bash
# Installs what building and testing padlab needs, skipping whatever is already present at the
# right version. Safe to run any number of times. Only crates.io, npm, and Debian packages are used.
#
#   scripts/setup.sh          # everything: build tools and the browser for tests
#   scripts/setup.sh build    # only what `trunk build` / `trunk serve` needs
set -euo pipefail

want="${1:-all}"
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

TRUNK_VERSION="0.21.14"
BINARYEN_VERSION="132.0.0"
# wasm-bindgen-cli must match the wasm-bindgen crate exactly; Cargo.toml pins it with "=".
WASM_BINDGEN_VERSION="$(sed -n 's/^wasm-bindgen = { version = "=\([0-9.]*\)".*/\1/p; s/^wasm-bindgen = "=\([0-9.]*\)"/\1/p' Cargo.toml | head -n 1)"
TOOLS_DIR="${PADLAB_TOOLS_DIR:-$HOME/.cache/padlab-tools}"

say() { printf '[setup] %s\n' "$*" >&2; }
have_version() { command -v "$1" >/dev/null 2>&1 && "$1" --version 2>/dev/null | grep -qF "$2"; }

export PATH="$HOME/.cargo/bin:$TOOLS_DIR/node_modules/.bin:$PATH"

if ! command -v cargo >/dev/null 2>&1; then
  say "cargo not found: install Rust with rustup first (https://rustup.rs)"; exit 1
fi

if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi
rustup component list --installed 2>/dev/null | grep -q '^clippy' || rustup component add clippy rustfmt

if ! have_version trunk "trunk $TRUNK_VERSION"; then
  say "installing trunk $TRUNK_VERSION (about 15 minutes on 2 cores, once)"
  cargo install trunk --version "$TRUNK_VERSION" --locked
fi

if [ -z "$WASM_BINDGEN_VERSION" ]; then say "could not read the wasm-bindgen pin from Cargo.toml"; exit 1; fi
if ! have_version wasm-bindgen "wasm-bindgen $WASM_BINDGEN_VERSION"; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION (about 5 minutes, once)"
  # Not --locked: its lockfile names a crate version the index lacks (see docs in ARCHITECTURE.md).
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi

if ! have_version wasm-opt "version ${BINARYEN_VERSION%%.*}"; then
  say "installing binaryen $BINARYEN_VERSION (wasm-opt) from npm into $TOOLS_DIR"
  mkdir -p "$TOOLS_DIR"
  (cd "$TOOLS_DIR" && npm install --no-audit --no-fund --silent "binaryen@$BINARYEN_VERSION")
fi

[ "$want" = build ] && exit 0

if ! [ -x /usr/bin/chromium ] || ! [ -x /usr/bin/chromedriver ]; then
  say "installing Debian chromium + chromium-driver"
  if [ "$(id -u)" -eq 0 ]; then apt_get=(apt-get); else apt_get=(sudo apt-get); fi
  "${apt_get[@]}" update -qq
  DEBIAN_FRONTEND=noninteractive "${apt_get[@]}" install -y -qq chromium chromium-driver >/dev/null
fi

# The e2e packages are exactly e2e/package-lock.json: reinstalled whenever the lock changes.
want_lock="$(sha256sum e2e/package-lock.json | cut -d' ' -f1)"
have_lock="$(cat e2e/node_modules/.padlab-lock.sha256 2>/dev/null || true)"
if [ "$have_lock" != "$want_lock" ]; then
  say "installing the e2e npm packages (Playwright without its browser download, axe-core)"
  (cd e2e && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --silent)
  echo "$want_lock" > e2e/node_modules/.padlab-lock.sha256
fi
say "ready"
