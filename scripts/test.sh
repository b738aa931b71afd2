#!/usr/bin/env bash
# Every test tier, in order from fastest feedback to slowest. Stops at the first failure.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each tier says when it starts, in seconds since the run began: where a slow run spends its time.
tier() { echo; echo "==> [${SECONDS} s] $*"; }

tier "set-up"
bash scripts/setup.sh
setup_seconds=$SECONDS

tier "format: cargo fmt --check (rustfmt.toml)"
cargo fmt --check

tier "lint: the product speaks of itself (no session or issue numbers in tracked files)"
node scripts/check-product-voice.mjs

tier "lint: clippy denies unwrap/expect/panic/indexing in shipped code (native and wasm32)"
cargo clippy --quiet --all-targets -- -D warnings
cargo clippy --quiet --lib --target wasm32-unknown-unknown -- -D warnings
cargo clippy --quiet --lib --target wasm32-unknown-unknown --no-default-features --features mcp -- -D warnings
cargo clippy --quiet --no-default-features --features mcp --test lean_build --test mcp_decision -- -D warnings
cargo clippy --quiet --lib --target wasm32-unknown-unknown --no-default-features --features engine -- -D warnings
cargo clippy --quiet --lib --target wasm32-unknown-unknown --no-default-features --features tools -- -D warnings
cargo clippy --quiet --lib --target wasm32-unknown-unknown --no-default-features --features settings -- -D warnings
cargo clippy --quiet --lib --target wasm32-unknown-unknown --no-default-features --features webview -- -D warnings
cargo clippy --quiet --lib --target wasm32-unknown-unknown --no-default-features --features engine,trap-test -- -D warnings

tier "native: cargo test"
cargo test --quiet
cargo test --quiet --features schema --test schema
# The core as the MCP entry ships it, without the shell analysis (Cargo feature `analysis`).
cargo test --quiet --no-default-features --features mcp --test lean_build --test mcp_decision

tier "fuzz: each cargo-fuzz target for 5 s from its kept corpus (tests/fuzz-corpus), properties asserted"
bash scripts/fuzz-smoke.sh 5

tier "build: pkg/ (Node and web builds of the MCP entry and of the engine; the settings page)"
node scripts/build.mjs

# The boundary tests run optimised, but without the release profile's link-time optimisation
# over one codegen unit: that is for the shipped modules (built above and tested below), and it
# made the test build take a minute longer. Both tiers share this one build.
wasm_test() { CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 wasm-pack test "$@" --release -- --test wasm; }

tier "wasm in Node: wasm-bindgen-test"
wasm_test --node

tier "wasm in headless Chromium: wasm-bindgen-test"
WASM_BINDGEN_USE_BROWSER=1 wasm_test --headless --chrome

tier "types: tsc --strict against the generated .d.ts"
node_modules/.bin/tsc -p tests/types

tier "JS: the packed package (MCP entry and engine) in Node, the esbuild bundle, the playground and settings pages in Chromium"
node --test --test-concurrency=1 tests/js/

tier "agents: the real Claude Code, Codex and Gemini CLIs against stand-in models, toolgate as their hook (command and serve)"
node --test --test-concurrency=1 tests/agents/

tier "VS Code: the example extension in code-server (Node extension host + webview settings page), driven by Chromium"
node --test --test-concurrency=1 tests/vscode/

echo; echo "==> [${SECONDS} s] every tier passed"
# For `npm run bench`: how long the whole run took here, and its set-up (what a fresh machine installs).
mkdir -p .cache
printf '{"seconds":%d,"setupSeconds":%d,"finished":"%s"}\n' "$SECONDS" "$setup_seconds" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" > .cache/last-npm-test.json
