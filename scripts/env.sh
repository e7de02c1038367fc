# Sourced by the scripts: where the pinned tools live, and the settings Trunk needs offline.
export PATH="$HOME/.cargo/bin:${PADLAB_TOOLS_DIR:-$HOME/.cache/padlab-tools}/node_modules/.bin:$PATH"
export TRUNK_SKIP_VERSION_CHECK=true
export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
export CHROMEDRIVER=/usr/bin/chromedriver
