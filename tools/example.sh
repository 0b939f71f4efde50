#!/usr/bin/env bash
# The main job on a bundled example: installs what is missing, builds gdmap,
# then builds, checks, dumps, verifies and looks up a generic dictionary map,
# and an IL-to-native map (the worked example of docs/il-map.md).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install-deps.sh build
cmake --preset release >/dev/null
cmake --build --preset release --target gdmap_cli >/dev/null
gdmap=build/release/tools/gdmap
out=build/example
mkdir -p "$out"
# Echo each command as a user would type it (quoted), then run it.
run() {
  local shown=()
  for arg in "$@"; do
    case $arg in *[!A-Za-z0-9_./:@=-]*) shown+=("'$arg'") ;; *) shown+=("$arg") ;; esac
  done
  echo "\$ gdmap ${shown[*]}"
  "$gdmap" "$@"
}
run build examples/maps/basic.json -o "$out/basic.gdmap"
run check "$out/basic.gdmap"
run dump "$out/basic.gdmap" -o "$out/basic.dump.json"
run verify "$out/basic.dump.json" "$out/basic.gdmap"
run verify examples/maps/basic.json "$out/basic.gdmap"
run lookup "$out/basic.gdmap" 0x1000
run sig decode '15 12 49 01 08'
il=examples/il/worked_example.json
run il build "$il" --format nibble --method 0x06000001 -o "$out/worked.nibble"
run il check "$out/worked.nibble" --format nibble --strict
run il convert "$out/worked.nibble" --from nibble --to api --code-size 40 -o "$out/worked.api"
run il verify "$il" "$out/worked.api" --format api --method 0x06000001
run il dump "$out/worked.nibble" --format nibble --code-size 40
run il lookup "$il" --method 0x06000001 --native 12
