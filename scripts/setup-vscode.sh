#!/usr/bin/env bash
# Installs code-server (a real VS Code workbench with a Node extension host) for the code-server
# test tier (tests/vscode/) and `npm run vscode`, idempotently and without anything but the npm
# registry (see ../shared/vscode-e2e.md): into .cache/code-server/ (gitignored).
#
# code-server 4.100.3 is VS Code 1.100.3, the last line whose engines.node is 20. Its install
# scripts download from GitHub and fail as root, so they are skipped; the one native add-on the
# server needs (argon2) is compiled from source, and VS Code's own dependencies are installed
# without scripts (the terminal, ripgrep and spdlog add-ons stay unbuilt: extensions and webviews
# do not need them). A second run costs well under a second.
set -euo pipefail
cd "$(dirname "$0")/.."

VERSION=4.100.3
DIR=.cache/code-server
STAMP="$DIR/installed-$VERSION"
say() { echo "setup-vscode: $*"; }

if [ -f "$STAMP" ] && [ -f "$DIR/node_modules/code-server/out/node/entry.js" ]; then
  say "code-server $VERSION is installed in $DIR"
  exit 0
fi

say "installing code-server $VERSION into $DIR (about 300 MB; a minute or two)"
rm -rf "$DIR"
mkdir -p "$DIR"
# A package.json of its own, so npm installs here and not into the repository's node_modules.
cat > "$DIR/package.json" <<JSON
{ "name": "toolgate-code-server", "private": true, "description": "code-server for toolgate's VS Code tier (scripts/setup-vscode.sh)" }
JSON
(
  cd "$DIR"
  npm install --ignore-scripts --no-audit --no-fund --no-save --loglevel=error "code-server@$VERSION"
  npm rebuild argon2 --loglevel=error
  cd node_modules/code-server/lib/vscode
  npm install --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error
  ln -sfn node_modules node_modules.asar
)
node "$DIR/node_modules/code-server/out/node/entry.js" --version >/dev/null
touch "$STAMP"
say "code-server $VERSION installed in $DIR"
