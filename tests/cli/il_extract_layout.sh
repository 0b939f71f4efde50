# gdmap il extract is exact on bounds that are not canonical (issue 20):
# a copy of a real image with one method's bounds re-encoded non-minimally
# in place (tests/r2r/reencode_bounds.py: a nibble varint with a redundant
# leading zero group), in the nibble form and in packed2. The extract
# describes the method with `layout` overrides, and `il build --format
# FORM` of it gives the crafted image's bytes, not the canonical ones.
# Arguments: GDMAP SOURCE_ROOT BLOBS_DRIVER (see tests/CMakeLists.txt).
set -euo pipefail
gdmap=$1
root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli_test.bash"
command -v jq >/dev/null 2>&1 || { echo "SKIP: jq is needed to read the JSON"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is needed for the reference reader"; exit 77; }
data=$root/tests/data/r2r
[ -f "$data/Microsoft.Win32.Primitives.dll" ] || { echo "SKIP: no test images in $data"; exit 77; }
w=$work
is() { jq -e "$1" "$w/out" >/dev/null || { cat "$w/out" >&2; fail "not true: $1"; }; }

for image in Microsoft.Win32.Primitives.dll net10-linux-x64/System.ComponentModel.dll; do
  expect 0 python3 "$root/tests/r2r/reencode_bounds.py" "$data/$image" "$w/crafted.dll"
  read -r token form hex <"$w/out"
  # The canonical bytes of the same bounds, from the untouched image.
  expect 0 "$gdmap" il extract "$data/$image" --method "$token" -o "$w/plain.json"
  expect 0 "$gdmap" il build "$w/plain.json" --format "$form" -o "$w/plain.bin"
  [ "$(xxd -p "$w/plain.bin" | tr -d '\n')" != "$hex" ] || fail "$image: the crafted blob is canonical"

  expect 0 "$gdmap" il extract "$w/crafted.dll" --json -o "$w/crafted.json"
  is '.nonCanonical == 1 and .written == true'
  expect 0 "$gdmap" il extract "$w/crafted.dll" --method "$token" -o "$w/one.json"
  jq -e '.methods | length == 1 and (.[0].layout != null)' "$w/one.json" >/dev/null ||
    fail "$image: method $token is not described with a layout"
  expect 0 "$gdmap" il build "$w/one.json" --format "$form" -o "$w/rebuilt.bin"
  [ "$(xxd -p "$w/rebuilt.bin" | tr -d '\n')" = "$hex" ] ||
    fail "$image: il build of the extract gives $(xxd -p "$w/rebuilt.bin" | tr -d '\n'), the image has $hex"
  # The whole extract builds every method back, this one included.
  expect 0 "$gdmap" il build "$w/crafted.json" --format "$form" --method "$token" -o "$w/whole.bin"
  cmp -s "$w/whole.bin" "$w/rebuilt.bin" || fail "$image: the whole extract builds other bytes for $token"
  # And the blob reads as the same bounds, only not canonical.
  expect 0 "$gdmap" il check "$w/rebuilt.bin" --format "$form"
  has out "not canonical"
done
echo "il_extract_layout: ok"
