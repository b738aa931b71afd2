#!/usr/bin/env bash
# Installs what the build and tests need, idempotently: each step checks before it installs,
# so a second run costs a few seconds. Nothing is downloaded outside the package registries.
set -euo pipefail
cd "$(dirname "$0")/.."

# The wasm-bindgen CLI must be exactly the crate's version (Cargo.toml pins it with "=").
BINDGEN_VERSION=$(sed -n 's/^wasm-bindgen = "=\([^"]*\)"/\1/p' Cargo.toml)
WASM_PACK_VERSION=0.15.1

say() { echo "setup: $*"; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$BINDGEN_VERSION" ]; then
  say "installing wasm-bindgen-cli $BINDGEN_VERSION"
  cargo install wasm-bindgen-cli --version "$BINDGEN_VERSION" --force
fi

if [ "$(wasm-pack --version 2>/dev/null | awk '{print $2}')" != "$WASM_PACK_VERSION" ]; then
  say "installing wasm-pack $WASM_PACK_VERSION"
  cargo install wasm-pack --version "$WASM_PACK_VERSION" --force
fi

# cargo-fuzz needs nightly for libFuzzer's instrumentation (the bounded fuzz run of npm test).
if ! rustup toolchain list | grep -q '^nightly'; then
  say "installing the nightly toolchain (minimal profile) for cargo-fuzz"
  rustup toolchain install nightly --profile minimal
fi

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  say "installing Debian chromium and chromium-driver"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-driver >/dev/null
fi

# npm ci when node_modules is missing or older than the lock file.
if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  say "npm ci"
  npm ci --no-audit --no-fund
fi
# code-server 4.100.3 into .cache/code-server/ (the VS Code tier and `npm run vscode`), offline.
bash scripts/setup-vscode.sh
say "ready (wasm-bindgen $BINDGEN_VERSION, wasm-pack $WASM_PACK_VERSION, $(chromium --version 2>/dev/null | head -1))"
