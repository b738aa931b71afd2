#!/usr/bin/env bash
# A bounded fuzz run: each target of fuzz/ for a few seconds (a fixed seed, so a run is the same
# mutations on every machine up to its time limit), starting from its kept corpus in
# tests/fuzz-corpus/<target>/. Fails on any crash, that is on any property that breaks (the
# properties are in fuzz/properties/), including one found before and not yet fixed: no finding is
# tolerated, here or in tests/fuzz_regressions.rs.
#
# Needs the nightly toolchain (libFuzzer instrumentation); installs cargo-fuzz at the pinned version.
# Usage: scripts/fuzz-smoke.sh [seconds per target, default 5]
set -euo pipefail
cd "$(dirname "$0")/.."

CARGO_FUZZ_VERSION=0.13.2
SECONDS_PER_TARGET=${1:-5}
TARGETS=(shell_analysis settings_readers mcp_names decide)

say() { echo "fuzz-smoke: $*"; }

if ! rustup toolchain list | grep -q '^nightly'; then
  say "the nightly toolchain is missing (cargo-fuzz needs it): rustup toolchain install nightly --profile minimal"
  exit 1
fi
if [ "$(cargo fuzz --version 2>/dev/null | awk '{print $2}')" != "$CARGO_FUZZ_VERSION" ]; then
  say "installing cargo-fuzz $CARGO_FUZZ_VERSION"
  cargo install cargo-fuzz --version "$CARGO_FUZZ_VERSION" --locked --force
fi

# The fuzz crate is its own workspace with its own target directory (gitignored).
export CARGO_TARGET_DIR="$PWD/fuzz/target"

# No sanitizer: the core is safe Rust, a broken property panics, and AddressSanitizer costs ~5x.
say "building the targets (nightly, no sanitizer)"
nice -n 15 cargo +nightly fuzz build --fuzz-dir fuzz --sanitizer none

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for target in "${TARGETS[@]}"; do
  # libFuzzer adds new inputs to its first corpus directory: give it a copy, never the kept corpus.
  # Crash inputs have regression tests of their own and would stop the run at once.
  mkdir -p "$work/$target"
  find "tests/fuzz-corpus/$target" -maxdepth 1 -type f ! -name 'crash-*' -exec cp {} "$work/$target/" \;
  say "$target: ${SECONDS_PER_TARGET}s from $(ls "$work/$target" | wc -l) corpus files"
  if ! nice -n 15 cargo +nightly fuzz run --fuzz-dir fuzz --sanitizer none "$target" "$work/$target" -- \
    -max_total_time="$SECONDS_PER_TARGET" -seed=1 -artifact_prefix="$work/" > "$work/$target.log" 2>&1; then
    tail -n 40 "$work/$target.log"
    mkdir -p fuzz/artifacts/smoke
    for crash in "$work"/crash-*; do
      [ -f "$crash" ] && cp "$crash" fuzz/artifacts/smoke/ && say "kept the input as fuzz/artifacts/smoke/$(basename "$crash")"
    done
    say "$target FAILED: a property broke (message above)"
    exit 1
  fi
  grep -E '^Done [0-9]+ runs' "$work/$target.log" | sed "s/^/fuzz-smoke: $target: /"
done
say "all ${#TARGETS[@]} targets passed"
