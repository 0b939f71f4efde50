# gdmap il extract on the real ReadyToRun images of tests/data/r2r (.NET
# Core 2.0 Linux x64 and 2.1 Windows x86): every method agrees with the
# independent reader tests/r2r/r2r_reference.py, and `il build --format
# nibble` of every extracted method gives the image's bytes; `il lookup`
# answers as GetILToNativeMapping (one method checked by hand); the summary,
# --json, --method and the errors.
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
[ -f "$data/System.Threading.Tasks.Extensions.dll" ] || { echo "SKIP: no test images in $data"; exit 77; }
w=$work
is() { jq -e "$1" "$w/out" >/dev/null || { cat "$w/out" >&2; fail "not true: $1"; }; }

# --- every method of every test image, against the reference ---
for image in Microsoft.Win32.Primitives.dll System.Threading.Tasks.Extensions.dll \
  x86/System.Runtime.CompilerServices.VisualC.dll; do
  expect 0 "$gdmap" il extract "$data/$image" -o "$w/x.json"
  expect 0 python3 "$root/tests/r2r/compare_extract.py" "$data/$image" "$w/x.json" --gdmap "$gdmap" --workdir "$w"
  has out "methods agree (il build byte-identical)"
  # The same bytes on every run, and to stdout as to a file.
  "$gdmap" il extract "$data/$image" 2>/dev/null | cmp -s - "$w/x.json" || fail "$image: stdout differs from -o"
done

# --- the summary (stderr) and --json ---
img=$data/System.Threading.Tasks.Extensions.dll
expect 0 "$gdmap" il extract "$img" -o "$w/tte.json"
has err "Linux x64, ReadyToRun 2.2 (nibble bounds): 39 methods (2 MethodDef, 37 instantiations, 0 unboxing stubs), 32 bounds blobs (13 methods share one); skipped 0"
expect 0 "$gdmap" il extract "$img" -o "$w/tte2.json" --json
is '.machine == "Linux x64" and .peMachine == "0x0000fd1d" and .majorVersion == 2 and .minorVersion == 2'
is '.methods == 39 and .methodDefs == 2 and .instantiations == 37 and .blobs == 32 and .methodsSharingBlobs == 13'
is '.nonCanonical == 0 and .skipped == {"noDebugInfo": 0, "noBounds": 0, "duplicates": 0}'
is '.written == true and .output != null and .diagnostics == []'
cmp -s "$w/tte.json" "$w/tte2.json" || fail "--json changed the description"
jq -e '[.methods[] | select(.instantiation)] | length == 37' "$w/tte.json" >/dev/null || fail "37 instantiations expected"
jq -e '.methods[0].instantiation == {"type": ["__Canon"]}' "$w/tte.json" >/dev/null ||
  fail "method 0 is an instantiation over __Canon"
# The description reads back: il lookup validates it whole.
expect 0 "$gdmap" il extract "$data/x86/System.Runtime.CompilerServices.VisualC.dll" -o "$w/vc.json" --json
is '.machine == "Windows x86" and .methods == 9 and .blobs == 4'

# --- il lookup on an extracted method: what GetILToNativeMapping says ---
# Checked by hand from the image: method 0x06000001 (an instantiation over
# __Canon, 25 bytes of code) has the nibble bounds 05 21 35 52 29 92 a5 21 00 02:
# 5 bounds (0 PROLOG se) (5 0x0 se) (10 0x7 se) (23 0xe se) (23 EPILOG se).
# The IL 0xe row is zero-length (23-23): kept, as the runtime keeps it.
expect 0 "$gdmap" il extract "$img" --method 0x06000001 -o "$w/one.json"
jq -e '.methods | length == 1' "$w/one.json" >/dev/null || fail "one body of 0x06000001"
expect 0 "$gdmap" il build "$w/one.json" --format nibble -o "$w/one.nibble"
[ "$(xxd -p "$w/one.nibble")" = 052135522992a5210002 ] ||
  fail "0x06000001's nibble bytes: $(xxd -p "$w/one.nibble")"
expect 0 "$gdmap" il lookup "$w/one.json" --json
is '.hr == "S_OK" and .count == 5 and .truncated == false'
is '.entries == [{"il": "prolog", "nativeStart": 0, "nativeEnd": 5}, {"il": 0, "nativeStart": 5, "nativeEnd": 10},
  {"il": 7, "nativeStart": 10, "nativeEnd": 23}, {"il": 14, "nativeStart": 23, "nativeEnd": 23},
  {"il": "epilog", "nativeStart": 23, "nativeEnd": 25}]'
# A whole description without instantiations answers for any of its tokens.
expect 0 "$gdmap" il extract "$data/Microsoft.Win32.Primitives.dll" -o "$w/w32.json"
expect 0 "$gdmap" il lookup "$w/w32.json" --method 0x06000001 --native 0
has out "0x06000001: S_OK"
expect 1 "$gdmap" il lookup "$w/w32.json" --method 0x06000099
has err "[il-method-not-found]"

# --- errors: located, with their rule and status ---
expect 1 "$gdmap" il extract "$data/Microsoft.Win32.Primitives.dll" --method 0x06000099 -o "$w/none.json"
has err "no precompiled body of method 0x06000099 (10 bodies) [il-method-not-found]"
[ ! -e "$w/none.json" ] || fail "nothing is written after an error"
printf 'not an image' >"$w/text.dll"
expect 1 "$gdmap" il extract "$w/text.dll" -o "$w/t.json"
has err "text.dll: error: byte 0x00000000:"
has err "[r2r-not-pe]"
head -c 3000 "$img" >"$w/cut.dll"
expect 1 "$gdmap" il extract "$w/cut.dll" -o "$w/t.json" --json
is '.written == false and (.diagnostics[0].rule | startswith("r2r-")) and .diagnostics[0].offset != null'
# A damaged bounds blob: method 0x06000001's count nibble (file offset
# 0x168c, see docs/r2r.md) set to 0, then its padding nibble (0x1699) set.
cp "$data/Microsoft.Win32.Primitives.dll" "$w/bad.dll"
printf '\x00' | dd of="$w/bad.dll" bs=1 seek=$((0x168c)) conv=notrunc 2>/dev/null
expect 1 "$gdmap" il extract "$w/bad.dll" -o "$w/bad.json"
has err "bad.dll: error: byte 0x0000168c:"
has err "(method 0x06000001)"
has err "[il-empty-bounds]"
[ ! -e "$w/bad.json" ] || fail "nothing is written after an error"
cp "$data/Microsoft.Win32.Primitives.dll" "$w/bad.dll"
printf '\x12' | dd of="$w/bad.dll" bs=1 seek=$((0x1699)) conv=notrunc 2>/dev/null
expect 1 "$gdmap" il extract "$w/bad.dll" -o "$w/bad.json"
has err "byte 0x00001699:"
has err "[il-nonzero-padding]"
expect 2 "$gdmap" il extract "$w/cut.dll" -o "$w/cut.dll"
has err "[output-is-input]"
expect 2 "$gdmap" il extract "$img" --json
has out '"rule": "usage"'
expect 2 "$gdmap" il extract "$w/missing.dll"
has err "[input-unreadable]"
# --names: each method named from the image's own metadata; the named
# description reads back and gives the same bounds as the plain one.
expect 0 "$gdmap" il extract "$img" --names -o "$w/named.json"
has_file() { grep -qF -- "$2" "$1" || fail "$1 lacks: $2"; }
has_file "$w/named.json" '"name": "System.Threading.Tasks.ValueTask`1::.ctor"'
python3 - "$w/named.json" "$w/tte.json" <<'PY' || fail "--names changed more than the names"
import json, sys
named, plain = (json.load(open(p))["methods"] for p in sys.argv[1:3])
assert len(named) == len(plain) and all("name" in m and "signature" in m for m in named)
for a, b in zip(named, plain):
    a = dict(a); a.pop("name"); a.pop("signature")
    assert a == b, (a, b)
PY
expect 0 "$gdmap" il lookup "$w/named.json" --method 0x06000001
expect 1 "$gdmap" il extract "$root/README.md" --names -o "$w/no.json"
echo "il_extract: ok"
