#!/usr/bin/env bash
# The runtime matrix (`npm run test:matrix`, also run by .ci/run): under each Node.js line users run,
# the tests once with each SQLite binding that loads there, and the demo. docs/TESTING.md says what
# each run holds and how long it takes.
#
#   bash scripts/test-matrix.sh [--after-npm-test] [MAJOR ...]   # default: 20 22 24; out/ and dist/ built
#
# --after-npm-test (.ci/run): `npm test` has just run the first binding's tests under the `node` on
# PATH, so that one run is not repeated where a runtime is the same Node.js version.
#
# Each Node.js is the npm registry's node-linux-<arch>@MAJOR (the binary and its headers), installed
# into $HERMES_LENS_RUNTIMES (default <tmpdir>/hermes-lens-runtimes: outside the repository, and
# readable by every user, as the bad-input tests run the CLI as `nobody`).
# better-sqlite3 is compiled once per Node.js ABI against that Node's own headers
# (npm_config_nodedir) and kept there too; the build in node_modules is put back at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

same_as_npm_test=
if [ "${1:-}" = --after-npm-test ]; then same_as_npm_test=$(node --version); shift; fi
majors=("$@")
[ ${#majors[@]} -gt 0 ] || majors=(20 22 24)
runtimes="${HERMES_LENS_RUNTIMES:-${TMPDIR:-/tmp}/hermes-lens-runtimes}"
case "$(uname -m)" in x86_64) arch=x64 ;; aarch64) arch=arm64 ;; *) echo "test-matrix: no node-linux package for $(uname -m)" >&2; exit 1 ;; esac
[ -f out/test/support/forcedDriver.js ] && [ -f dist/cli.js ] || { echo 'test-matrix: build first (npm run compile && npm run build)' >&2; exit 1; }

bs3_version=$(node -p "require('better-sqlite3/package.json').version")
bs3_binary=node_modules/better-sqlite3/build/Release/better_sqlite3.node
scratch=$(mktemp -d)
cp "$bs3_binary" "$scratch/own.node"
restore() {
  cp "$scratch/own.node" "$bs3_binary"
  cp "$scratch/own.node" dist/native/better_sqlite3.node
  rm -rf "$scratch"
}
trap restore EXIT

node_dir() { echo "$runtimes/node-$1/node_modules/node-linux-$arch"; }

install_node() {
  [ -x "$(node_dir "$1")/bin/node" ] && return
  npm install --prefix "$runtimes/node-$1" --no-save --no-audit --no-fund --loglevel=error "node-linux-$arch@$1" >/dev/null
}

# better-sqlite3 for one runtime, compiled in a copy of the package so node_modules stays as npm left it.
build_bs3() {
  local dir node abi cached
  dir=$(node_dir "$1")
  node="$dir/bin/node"
  abi=$("$node" -p process.versions.modules)
  cached="$runtimes/better-sqlite3-$bs3_version-abi$abi-linux-$arch.node"
  [ -f "$cached" ] && return
  if [ "$abi" = "$(node -p process.versions.modules)" ]; then cp "$bs3_binary" "$cached"; return; fi
  local work="$scratch/build-$1"
  mkdir -p "$work" && cp -r node_modules/better-sqlite3 "$work/" && rm -rf "$work/better-sqlite3/build"
  (cd "$work/better-sqlite3" && PATH="$dir/bin:$PATH" npm_config_nodedir="$dir" "$node" "$(npm config get node-gyp)" rebuild --release >"$work/gyp.log" 2>&1) ||
    { echo "test-matrix: compiling better-sqlite3 for Node.js $1 failed:" >&2; tail -20 "$work/gyp.log" >&2; return 1; }
  cp "$work/better-sqlite3/build/Release/better_sqlite3.node" "$cached.partial" && mv "$cached.partial" "$cached"
}

echo "Runtime matrix: Node.js ${majors[*]} (linux-$arch), runtimes in $runtimes"
mkdir -p "$runtimes"
for major in "${majors[@]}"; do install_node "$major"; done
# The compiles run side by side (one core each), each in its own copy of the package.
pids=()
for major in "${majors[@]}"; do build_bs3 "$major" & pids+=($!); done
for pid in "${pids[@]}"; do wait "$pid"; done

mocha_files_all=('out/test/unit/**/*.test.js' 'out/test/protocol/**/*.test.js' 'out/test/reliability/badInput.test.js')
# The tests that start the lens's own processes, which take the forced binding: the language server
# over stdio (hover, the refresh code action read back from state.db, Hermes-written homes), the
# bad-input corpus through the CLI and the server, the CLI's exit codes, stderr, demo and status, and
# each binding on the demo and the Hermes-written homes.
mocha_files_lens=(out/test/protocol/{server,sqliteBinding,hermesBuilds,sessionListDelta}.test.js
  out/test/reliability/badInput.test.js out/test/unit/cli/{quietStderr,exitCodes,demo,status}.test.js 'out/test/unit/store/**/*.test.js')

failed=()
run() { # run LABEL COMMAND...
  local started=$SECONDS
  echo
  echo "── $1"
  if "${@:2}"; then echo "── $1: passed in $((SECONDS - started)) s"; else failed+=("$1"); echo "── $1: FAILED after $((SECONDS - started)) s"; fi
}

# The demo as a user runs it, then the binding status --json reports for its home.
demo() { # demo NODE DRIVER
  local out="$scratch/demo-$RANDOM" driver
  HERMES_LENS_SQLITE_DRIVER="$2" "$1" dist/cli.js demo --dir "$out" >"$out.stdout" 2>"$out.stderr" || { cat "$out.stderr"; return 1; }
  [ ! -s "$out.stderr" ] || { echo "the demo wrote on stderr:"; cat "$out.stderr"; return 1; }
  grep -q 'Profile default (active)' "$out.stdout" || { echo 'the demo printed no profile'; return 1; }
  driver=$(HERMES_LENS_SQLITE_DRIVER="$2" "$1" dist/cli.js status --json --home "$out/hermes" | "$1" -p 'JSON.parse(require("fs").readFileSync(0, "utf8")).sqlite.driver')
  [ "$driver" = "$2" ] || { echo "status --json names $driver, not $2"; return 1; }
  echo "demo: nothing on stderr; status --json reads state.db with $driver"
}

for major in "${majors[@]}"; do
  dir=$(node_dir "$major")
  node="$dir/bin/node"
  version=$("$node" --version)
  abi=$("$node" -p process.versions.modules)
  cp "$runtimes/better-sqlite3-$bs3_version-abi$abi-linux-$arch.node" "$bs3_binary"
  cp "$bs3_binary" dist/native/better_sqlite3.node
  drivers=(better-sqlite3 @photostructure/sqlite)
  "$node" -e "require('node:sqlite')" 2>/dev/null && drivers+=(node:sqlite)
  for driver in "${drivers[@]}"; do
    if [ "$driver" = better-sqlite3 ] && [ "$version" = "$same_as_npm_test" ]; then
      echo; echo "── Node.js $version, $driver: unit, conformance, protocol and bad-input tests: run by npm test just before"
    elif [ "$driver" = better-sqlite3 ]; then
      # The first binding: the whole list, every process on it.
      run "Node.js $version, $driver: unit, conformance, protocol and bad-input tests" \
        env PATH="$dir/bin:$PATH" "$node" node_modules/.bin/mocha --require ./out/test/support/isolatedCache.js --reporter ./scripts/summary-reporter.cjs --timeout 60000 "${mocha_files_all[@]}"
    else
      run "Node.js $version, $driver: the CLI, the language server over stdio and the bad-input corpus" \
        env PATH="$dir/bin:$PATH" HERMES_LENS_TEST_SQLITE_DRIVER="$driver" "$node" node_modules/.bin/mocha --require ./out/test/support/isolatedCache.js --require ./out/test/support/forcedDriver.js --reporter ./scripts/summary-reporter.cjs --timeout 60000 "${mocha_files_lens[@]}"
    fi
    run "Node.js $version, $driver: the demo" demo "$node" "$driver"
  done
done

echo
if [ ${#failed[@]} -gt 0 ]; then
  printf 'Runtime matrix FAILED: %s\n' "${failed[@]}"
  exit 1
fi
echo "Runtime matrix passed: Node.js ${majors[*]}, each binding that loads there."
