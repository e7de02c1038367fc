# Sourced by the scripts: where the pinned tools live, and the settings Trunk needs offline.
export PATH="$HOME/.cargo/bin:${PADLAB_TOOLS_DIR:-$HOME/.cache/padlab-tools}/node_modules/.bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export CHROMEDRIVER=/usr/bin/chromedriver
# Panic locations compiled into the site name dependency sources by path: publish them as
# `cargo/registry/...`, not as the build machine's home directory.
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="--remap-path-prefix=${CARGO_HOME:-$HOME/.cargo}=cargo"
