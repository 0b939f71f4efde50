# ReadyToRun 26 (.NET 11.0.0) in CI without a restore: the images crossgen2
# 11.0.0 made of tests/data/r2r/sample/src (tests/data/r2r/README.md,
# "net11"). Every method built back in the image's form gives its bytes;
# runtime async's three bodies (the Task-returning thunk, the async variant,
# its resumption stub) are extracted, looked up and located as bodies of
# their own; a version past the newest known is read with a warning and
# refused with --strict; the self-checks turn a misreading into a located
# error (IL offsets past the method's IL, a file cut short).
# Arguments: GDMAP SOURCE_ROOT BLOBS_DRIVER (see tests/CMakeLists.txt).
set -euo pipefail
gdmap=$1
root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli_test.bash"
command -v jq >/dev/null 2>&1 || { echo "SKIP: jq is needed to read the JSON"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is needed for the reference reader"; exit 77; }
net11=$root/tests/data/r2r/sample/net11
w=$work
is() { jq -e "$1" "$w/out" >/dev/null || { cat "$w/out" >&2; fail "not true: $1"; }; }
# patch FILE OFFSET BYTES: BYTES (printf escapes) written over FILE at OFFSET.
patch() { printf "$3" | dd of="$1" bs=1 seek="$(($2))" conv=notrunc 2>/dev/null; }

# --- every method against the reference reader, and built back byte for byte ---
for image in Sample.A.x64.dll Sample.Async.x64.dll; do
  expect 0 "$gdmap" il extract "$net11/$image" -o "$w/x.json"
  expect 0 python3 "$root/tests/r2r/compare_extract.py" "$net11/$image" "$w/x.json" --gdmap "$gdmap" --workdir "$w"
  has out "methods agree (il build byte-identical)"
done

# --- runtime async: three bodies of one token ---
expect 0 "$gdmap" il extract "$net11/Sample.Async.x64.dll" --names -o "$w/async.json" --json
is '.majorVersion == 26 and .minorVersion == 1 and .boundsForm == "packed3" and .methods == 3
  and .asyncVariants == 1 and .resumptionStubs == 1 and .skipped.duplicates == 0'
jq -e '[.methods[] | [.token, (.instantiation // {}), .codeSize, [.code[].size]]] ==
  [["0x06000001", {}, 188, [143, 23, 22]],
   ["0x06000001", {"asyncVariant": true}, 238, [210, 28]],
   ["0x06000001", {"asyncVariant": true, "resumptionStub": true}, 25, [25]]]' "$w/async.json" >/dev/null ||
  fail "the thunk, the async variant and the resumption stub"
expect 0 "$gdmap" il extract "$net11/Sample.Async.x64.dll" -o "$w/async.json"
has err "3 methods (2 MethodDef, 0 instantiations, 0 unboxing stubs), 3 bounds blobs (0 methods share one); skipped 0; runtime async: 1 async variant, 1 resumption stub"
expect 2 "$gdmap" il lookup "$w/async.json" --method 0x06000001
has err "has 3 bodies, one per instantiation ((none), async, async resumption): choose one with --instantiation TEXT"
expect 0 "$gdmap" il lookup "$w/async.json" --method 0x06000001 --instantiation 'async resumption'
has out "0x06000001: S_OK, count 5, 5 copied"
expect 0 "$gdmap" il build "$w/async.json" --format packed3 --method 0x06000001 --instantiation async -o "$w/v.bin"
# The stub's code is located in the stub, not in the variant's funclets.
expect 0 "$gdmap" il locate "$net11/Sample.Async.x64.dll" 0x10930 0x1094d --names
has out '0x00010930: method 0x06000001 Sample.Async.Waiter.AddLater(System.Threading.Tasks.Task`1<Int32>, Int32) async, funclet +0xe0 of 238 bytes'
has out '0x0001094d: method 0x06000001 Sample.Async.Waiter.AddLater(System.Threading.Tasks.Task`1<Int32>, Int32) async resumption, body +0xd of 25 bytes: IL 0x1e (native 13-18)'
expect 0 "$gdmap" il locate "$net11/Sample.Async.x64.dll" 0x1094d --json
is '.addresses[0].method.instantiation == {"type": [], "method": [], "asyncVariant": true, "resumptionStub": true}'

# --- no ceiling: one past the newest known reads as it, with a warning ---
cp "$net11/Sample.A.x64.dll" "$w/27.dll"
patch "$w/27.dll" 0x564 '\x1b'
expect 0 "$gdmap" il extract "$w/27.dll" -o "$w/27.json"
has err "27.dll: warning: byte 0x00000564: READYTORUN_HEADER: version 27.1 is newer than the newest gdmap knows (26, .NET 11): read as 26 [r2r-newer-version]"
has err "ReadyToRun 27.1 read as 26 (packed3 bounds): 6 methods"
expect 0 "$gdmap" il extract "$net11/Sample.A.x64.dll" -o "$w/26.json"
cmp -s "$w/26.json" "$w/27.json" || fail "27 read as 26 differs from 26"
expect 1 "$gdmap" il extract "$w/27.dll" --strict -o "$w/27s.json"
has err "read as 26 (refused: --strict) [r2r-newer-version]"
[ ! -e "$w/27s.json" ] || fail "--strict wrote its output"
expect 1 "$gdmap" il locate "$w/27.dll" 0x10790 --strict
expect 0 "$gdmap" il locate "$w/27.dll" 0x10790 --json
is '.warnings == 1 and .diagnostics[0].rule == "r2r-newer-version" and .addresses[0].method.token == "0x06000002"'
# A .NET Core 2.0 image labelled 27: the newest rules misread it, and that
# is a located error, not a wrong answer.
cp "$root/tests/data/r2r/Microsoft.Win32.Primitives.dll" "$w/old27.dll"
patch "$w/old27.dll" 0x44c '\x1b'
expect 1 "$gdmap" il extract "$w/old27.dll" -o "$w/old27.json"
has err "debugInfo[0] (method 0x06000001): bounds blob"

# --- methods sharing one body (.NET Core 3.1's CoreLib has 138) ---
# Shapes::Area's entry (file 5511) made to name Point::.ctor's first
# runtime function: the IL check catches that Area's 4 bytes of IL are not
# what that body was compiled from ...
cp "$net11/Sample.A.x64.dll" "$w/shared.dll"
patch "$w/shared.dll" 5511 '\x00'
expect 1 "$gdmap" il extract "$w/shared.dll" -o "$w/shared.json"
has err "method 0x06000002: bounds["
has err "past the method's 4 bytes of IL: the image is misread, or not what its metadata says [r2r-il-offset-past-body]"
# ... so its tiny IL header (file 0xa40) is made to say 63 bytes.
patch "$w/shared.dll" 0xa40 '\xfe'
expect 0 "$gdmap" il extract "$w/shared.dll" -o "$w/shared.json" --json
is '.sharedBodies == 2'
jq -e '[.methods[] | select((.token == "0x06000001" or .token == "0x06000002") and .instantiation == null)
  | [.codeSize, .code, .bounds]] | length == 2 and .[0] == .[1]' "$w/shared.json" >/dev/null || fail "two methods, one body"
expect 0 "$gdmap" il locate "$w/shared.dll" 0x10783
has out "method 0x06000001 (one body with method 0x06000002), body"
expect 0 "$gdmap" il locate "$w/shared.dll" 0x10783 --json
is '.addresses[0].sharedWith == [{"token": "0x06000002"}]'

# --- self-checks ---
# Shapes::SafeDivide's fat IL header (file 0xa48) made to say 2 bytes of IL.
cp "$net11/Sample.A.x64.dll" "$w/il.dll"
patch "$w/il.dll" 0xa4c '\x02\x00\x00\x00'
expect 1 "$gdmap" il extract "$w/il.dll" -o "$w/il.json"
has err "il.dll: error: byte 0x00001816: method 0x06000003: bounds[3] names IL offset 0xb, past the method's 2 bytes of IL: the image is misread, or not what its metadata says [r2r-il-offset-past-body]"
[ ! -e "$w/il.json" ] || fail "wrote a description of a misread image"
expect 1 "$gdmap" il locate "$w/il.dll" 0x107a0
has err "[r2r-il-offset-past-body]"
# A file cut short: the end of .data and all of .reloc gone.
head -c 6500 "$net11/Sample.A.x64.dll" >"$w/cut.dll"
expect 1 "$gdmap" il extract "$w/cut.dll" -o "$w/cut.json"
has err "cut.dll: error: byte 0x000001c0: PE: section '.data' has its raw data at [0x1400, 0x1a00), past the end of the file (6500 bytes): the file is truncated [r2r-truncated]"
echo "PASS"
