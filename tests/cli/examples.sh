# Every bundled example: the checked-in map is what `gdmap build` writes for
# its description, `verify` agrees, `check` gives the expected verdict, and a
# valid map dumps to a description that rebuilds it byte for byte.
# Arguments: GDMAP SOURCE_ROOT BLOBS_DRIVER (see tests/CMakeLists.txt).
set -euo pipefail
gdmap=$1
examples=$2/examples/maps
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

count=0
for description in "$examples"/*.json; do
  name=$(basename "$description" .json)
  map=$examples/$name.gdmap
  [ -f "$map" ] || fail "$name: no checked-in map $map"
  "$gdmap" build "$description" -o "$work/$name.gdmap"
  cmp "$map" "$work/$name.gdmap" || fail "$name: build differs from the checked-in map"
  "$gdmap" verify "$description" "$map" >/dev/null || fail "$name: verify reports a difference"
  if [ "$name" = malformed-raw ]; then
    status=0
    "$gdmap" check --json "$map" >"$work/check.json" || status=$?
    [ "$status" -eq 1 ] || fail "$name: check exited $status, expected 1"
    grep -q '"valid": false' "$work/check.json" || fail "$name: check --json does not say invalid"
    # The two raw items break two different rules: no types, and a type cut off by its item's end.
    grep -q '"path": "heap@0x3.count"' "$work/check.json" || fail "$name: no diagnostic for the zero type count"
    grep -q '"path": "heap@0x5.type\[0\]' "$work/check.json" || fail "$name: no diagnostic for the truncated type"
  else
    "$gdmap" check --strict "$map" >/dev/null || fail "$name: check --strict rejects it"
    "$gdmap" dump "$map" -o "$work/$name.dump.json"
    "$gdmap" build "$work/$name.dump.json" -o "$work/$name.rebuilt.gdmap"
    cmp "$map" "$work/$name.rebuilt.gdmap" || fail "$name: dump does not rebuild the same bytes"
  fi
  count=$((count + 1))
done
[ "$count" -ge 5 ] || fail "only $count examples found"
echo "examples: $count descriptions rebuild their checked-in maps"
