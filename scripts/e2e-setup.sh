#!/usr/bin/env bash
# Prepare the machine for the end-to-end tiers (test/e2e): Debian packages + a cached code-server.
#
# Idempotent and non-interactive (CI, root, no TTY):
#   1. apt-installs what is missing of: chromium neovim ripgrep + code-server's native build deps
#      (apt-get update runs only when something is missing).
#   2. installs code-server 4.100.3 from the npm registry on first use into
#      ${HERMES_LENS_E2E_CACHE:-$HOME/.cache/hermes-lens-e2e}/code-server-4.100.3 (outside the repo, never
#      in package.json) and reuses it afterwards.
#   3. prints the code-server binary path on the last line of stdout (progress goes to stderr), so
#        CODE_SERVER_BIN="$(scripts/e2e-setup.sh | tail -n1)"
#      works. test/e2e/support/codeServer.ts finds the same path by itself.
#
#   scripts/e2e-setup.sh --packages-only   does step 1 only (what `npm run test:nvim` needs).
#
# test/e2e/README.md describes the whole set-up; the comment beside each step says why it is there.
set -euo pipefail

CS_VERSION=4.100.3
CACHE_ROOT="${HERMES_LENS_E2E_CACHE:-$HOME/.cache/hermes-lens-e2e}"
CS_DIR="$CACHE_ROOT/code-server-$CS_VERSION"
CS_BIN="$CS_DIR/node_modules/.bin/code-server"
STAMP="$CS_DIR/.install-complete"

log() { printf '[e2e-setup] %s\n' "$*" >&2; }
die() { log "ERROR: $*"; exit 1; }

# ---------------------------------------------------------------------------------------------
# 1. Debian packages
# ---------------------------------------------------------------------------------------------
APT_PACKAGES=(chromium neovim ripgrep libkrb5-dev libsecret-1-dev libx11-dev libxkbfile-dev pkg-config)
missing=()
for p in "${APT_PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if ((${#missing[@]})); then
  SUDO=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null || die "need root (or sudo) to apt-get install: ${missing[*]}"
    SUDO="sudo -n"
  fi
  log "apt-get install: ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq >&2
  $SUDO apt-get install -y -qq "${missing[@]}" >&2
else
  log "Debian packages present: ${APT_PACKAGES[*]}"
fi
if [ "${1:-}" = "--packages-only" ]; then
  exit 0
fi

# ---------------------------------------------------------------------------------------------
# 2. code-server (cached)
# ---------------------------------------------------------------------------------------------
if [ -f "$STAMP" ] && [ -x "$CS_BIN" ]; then
  log "code-server $CS_VERSION already installed in $CS_DIR"
  echo "$CS_BIN"
  exit 0
fi

major="$(node -p 'process.versions.node.split(".")[0]')"
[ "$major" = 20 ] || die "code-server $CS_VERSION needs Node 20 (found $(node -v))"

start=$(date +%s)
log "installing code-server $CS_VERSION into $CS_DIR (first use; takes a few minutes)"
rm -rf "$CS_DIR"
mkdir -p "$CS_DIR"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# 2a. Find the @vscode/ripgrep version code-server's VS Code pins, and the asset its postinstall wants.
#     (npm pack fills npm's cache, so the install below does not download the tarball again.)
(cd "$work" && npm pack --silent "code-server@$CS_VERSION" >/dev/null)
tar -xzf "$work/code-server-$CS_VERSION.tgz" -C "$work" package/lib/vscode/npm-shrinkwrap.json
RG_PKG_VERSION="$(node -e '
  const s = require(process.argv[1]);
  const p = s.packages && s.packages["node_modules/@vscode/ripgrep"];
  if (!p || !p.version) process.exit(1);
  console.log(p.version);' "$work/package/lib/vscode/npm-shrinkwrap.json")" \
  || die "cannot find @vscode/ripgrep in code-server's lib/vscode/npm-shrinkwrap.json"
(cd "$work" && npm pack --silent "@vscode/ripgrep@$RG_PKG_VERSION" >/dev/null)
tar -xzf "$work/vscode-ripgrep-$RG_PKG_VERSION.tgz" -C "$work" package/lib/postinstall.js
RG_ASSET_VERSION="$(sed -n "s/^const VERSION = '\(v[^']*\)'.*/\1/p" "$work/package/lib/postinstall.js")"
[ -n "$RG_ASSET_VERSION" ] || die "cannot read VERSION from @vscode/ripgrep@$RG_PKG_VERSION lib/postinstall.js"
case "$(uname -m)" in
  x86_64) RG_TARGET=x86_64-unknown-linux-musl ;;
  aarch64) RG_TARGET=aarch64-unknown-linux-musl ;;
  *) die "unsupported arch $(uname -m)" ;;
esac

# 2b. The ripgrep trick: a cached "download" holding Debian's rg at the archive's top level.
#     @vscode/ripgrep looks at <os.tmpdir()>/vscode-ripgrep-cache-<pkg version>/<asset> before GitHub.
RG_CACHE_DIR="$(node -p 'require("os").tmpdir()')/vscode-ripgrep-cache-$RG_PKG_VERSION"
RG_ASSET="$RG_CACHE_DIR/ripgrep-$RG_ASSET_VERSION-$RG_TARGET.tar.gz"
mkdir -p "$RG_CACHE_DIR" "$work/rg"
cp "$(command -v rg)" "$work/rg/rg"
tar -czf "$RG_ASSET.tmp" -C "$work/rg" rg
mv "$RG_ASSET.tmp" "$RG_ASSET"
log "ripgrep: @vscode/ripgrep@$RG_PKG_VERSION will use $RG_ASSET (Debian $(rg --version | head -n1))"

# 2c. npm install into the cache folder (its own package.json; never the project's).
cat >"$CS_DIR/package.json" <<EOF
{ "name": "hermes-lens-e2e-code-server", "private": true, "description": "cache for scripts/e2e-setup.sh" }
EOF
export npm_config_unsafe_perm=true   # code-server's postinstall refuses root without it
export npm_config_yes=true           # node-pty's postinstall runs `npx node-gyp`
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
if ! (cd "$CS_DIR" && npm install --no-save --no-package-lock --loglevel=error "code-server@$CS_VERSION" >&2); then
  die "npm install code-server@$CS_VERSION failed (see output above); $CS_DIR left for inspection"
fi
[ -x "$CS_BIN" ] || die "installed, but $CS_BIN is missing"
# Sanity: the bundled ripgrep and the native modules are in place.
[ -x "$CS_DIR/node_modules/code-server/lib/vscode/node_modules/@vscode/ripgrep/bin/rg" ] \
  || die "code-server installed without @vscode/ripgrep/bin/rg"
XDG_CONFIG_HOME="$work" "$CS_BIN" --version >&2 || die "code-server --version failed"  # keep ~/.config clean

date -u +%FT%TZ >"$STAMP"
log "code-server $CS_VERSION installed in $(( $(date +%s) - start ))s"
echo "$CS_BIN"
