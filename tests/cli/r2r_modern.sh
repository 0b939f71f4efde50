# gdmap il extract and il locate on the modern ReadyToRun images of
# tests/data/r2r (R2R 3.1, 5.4, 9.1, 10.1 and 16.0 framework images; x64,
# x86 with funclets, ARM64 and ARM images crossgen2 10 made of
# tests/data/r2r/sample/src; a hot/cold-split one; a composite image and
# its two component assemblies): every method agrees with the independent
# reader tests/r2r/r2r_reference.py and `il build` in the image's own form
# gives the image's bytes; a few methods checked by hand; composite
# images by component; addresses located in bodies and funclets.
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
w=$work
is() { jq -e "$1" "$w/out" >/dev/null || { cat "$w/out" >&2; fail "not true: $1"; }; }

# --- every method of every image, against the reference, byte for byte ---
images="netcore3.1-linux-x64/System.Diagnostics.Tools.dll net6-win-x64/System.ComponentModel.dll
  net8-linux-x64/System.ComponentModel.dll net9-linux-x64/System.ComponentModel.dll
  net10-linux-x64/System.ComponentModel.dll net10-linux-arm64/System.ComponentModel.dll
  net10-win-x86/System.ComponentModel.dll sample/Sample.A.x64.dll sample/Sample.A.x86.dll
  sample/Sample.A.arm64.dll sample/Sample.A.arm.dll sample/Sample.A.hotcold.dll"
for image in $images; do
  expect 0 "$gdmap" il extract "$data/$image" -o "$w/x.json"
  expect 0 python3 "$root/tests/r2r/compare_extract.py" "$data/$image" "$w/x.json" --gdmap "$gdmap" --workdir "$w"
  has out "methods agree (il build byte-identical)"
done

# --- the version, machine and form each image declares ---
summary() { "$gdmap" il extract "$data/$1" -o "$w/x.json" --json >"$w/out" || fail "$1: il extract failed"; }
summary netcore3.1-linux-x64/System.Diagnostics.Tools.dll
is '.majorVersion == 3 and .minorVersion == 1 and .boundsForm == "nibble" and .machine == "Linux x64"'
summary net6-win-x64/System.ComponentModel.dll
is '.majorVersion == 5 and .minorVersion == 4 and .machine == "Windows x64" and .peMachine == "0x00008664"'
summary net10-linux-arm64/System.ComponentModel.dll
is '.majorVersion == 16 and .boundsForm == "packed2" and .machine == "Linux ARM64" and .peMachine == "0x0000d11d"'
summary net10-win-x86/System.ComponentModel.dll
is '.majorVersion == 16 and .machine == "Windows x86"'
summary sample/Sample.A.arm.dll
is '.machine == "Linux ARM" and .methods == 6 and .instantiations == 1'

# --- by hand: Shapes::Area (w * h) and Shapes::SafeDivide (try/catch/finally) ---
# x64: `mov eax, edi; imul eax, esi; ret` is 6 bytes: the bounds are the
# prolog and IL 0 at 0 (no frame) and the epilog at 5 (the ret).
expect 0 "$gdmap" il extract "$data/sample/Sample.A.x64.dll" --names -o "$w/x64.json"
jq -e '.methods[] | select(.name == "Sample.A.Shapes::Area") | .codeSize == 6 and .code == [{"rva": "0x00010720", "size": 6}]
  and .bounds == [{"native": 0, "il": "prolog", "source": ["stack_empty"]}, {"native": 0, "il": 0, "source": ["stack_empty"]},
  {"native": 5, "il": "epilog", "source": ["stack_empty"]}]' "$w/x64.json" >/dev/null || fail "x64 Shapes::Area"
# The body and two funclets (catch, finally) are three runtime functions
# of 38, 18 and 14 bytes, one block: each funclet's PROLOG bound lies at
# its own start (38, 56), which the code ranges give independently.
jq -e '.methods[] | select(.name == "Sample.A.Shapes::SafeDivide") | .codeSize == 70
  and ([.code[].size] == [38, 18, 14]) and ([.bounds[] | select(.il == "prolog") | .native] == [0, 38, 56])' \
  "$w/x64.json" >/dev/null || fail "x64 Shapes::SafeDivide"
# ARM64: fixed 4-byte instructions, a frame (stp/mov ... ldp/ret): 20 bytes.
expect 0 "$gdmap" il extract "$data/sample/Sample.A.arm64.dll" --names -o "$w/arm64.json"
jq -e '.methods[] | select(.name == "Sample.A.Shapes::Area") | .codeSize == 20 and ([.bounds[].native] == [0, 8, 12])' \
  "$w/arm64.json" >/dev/null || fail "ARM64 Shapes::Area"
jq -e '.methods[] | select(.name == "Sample.A.Shapes::SafeDivide") | ([.code[].size] == [124, 20, 40])
  and ([.bounds[] | select(.il == "prolog") | .native] == [0, 124, 144])' "$w/arm64.json" >/dev/null || fail "ARM64 SafeDivide"
# ARM (Thumb-2): the runtime functions' begin addresses carry the Thumb bit;
# the code starts at the even address, 2-byte units.
expect 0 "$gdmap" il extract "$data/sample/Sample.A.arm.dll" --names -o "$w/arm.json"
jq -e '.methods[] | select(.name == "Sample.A.Shapes::SafeDivide") | ([.code[].size] == [58, 24, 28])
  and ([.code[].rva] == ["0x00011510", "0x0001154a", "0x00011562"])
  and ([.bounds[] | select(.il == "prolog") | .native] == [0, 58, 82])' "$w/arm.json" >/dev/null || fail "ARM SafeDivide"
# x86 with funclets (R2R 14+): each runtime function's unwind data is a u32
# FunctionLength.
expect 0 "$gdmap" il extract "$data/sample/Sample.A.x86.dll" --names -o "$w/x86.json"
jq -e '.methods[] | select(.name == "Sample.A.Shapes::SafeDivide") | ([.code[].size] == [33, 13, 10])
  and ([.bounds[] | select(.il == "prolog") | .native] == [0, 33, 46])' "$w/x86.json" >/dev/null || fail "x86 SafeDivide"

# --- il locate: addresses in a body and in a funclet ---
expect 0 "$gdmap" il locate "$data/sample/Sample.A.x64.dll" 0x1073a 0x10758 --names
has out "0x0001073a: method 0x06000003 Sample.A.Shapes.SafeDivide(Int32, Int32)"
has out "body +0xa of 70 bytes: IL 0x0 (native 10-20)"
has out "0x00010758: method 0x06000003 Sample.A.Shapes.SafeDivide(Int32, Int32), funclet +0x28 of 70 bytes: IL 0x7 (native 39-51)"
expect 0 "$gdmap" il locate "$data/sample/Sample.A.x64.dll" 0x10758 --json
is '.addresses[0].part == "funclet" and .addresses[0].offset == 40 and .addresses[0].il == [{"il": 7, "nativeStart": 39, "nativeEnd": 51}]
  and .addresses[0].method.token == "0x06000003" and .unknown == 0'
# An instantiation, as --instantiation takes it.
expect 0 "$gdmap" il locate "$data/sample/Sample.A.x64.dll" 0x10860 0x10861 --names
has out "0x00010860: method 0x06000004 Sample.A.Shapes.Max[[System.__Canon, System.Private.CoreLib]](System.Collections.Generic.List\`1<System.__Canon>) ::<__Canon>, body +0x0 of 208 bytes: IL prolog (native 0-41)"
has out "0x00010861: method 0x06000004 Sample.A.Shapes.Max[[System.__Canon, System.Private.CoreLib]](System.Collections.Generic.List\`1<System.__Canon>) ::<__Canon>, body +0x1 of 208 bytes"
expect 1 "$gdmap" il locate "$data/sample/Sample.A.x64.dll" 0x10
has out "0x00000010: in no method's code"

# --- hot/cold splitting (R2R 8.0+, section 120) ---
# SafeDivide's handlers went to the cold part: a hot body of 38 bytes, then
# the funclets far away; the bounds count the cold code from the hot
# code's end (the PROLOG bounds at 38 and 56 again).
expect 0 "$gdmap" il extract "$data/sample/Sample.A.hotcold.dll" -o "$w/hc.json" --json
is '.splitMethods == 1'
jq -e '.methods[] | select(.token == "0x06000003") | .codeSize == 70
  and .code == [{"rva": "0x00010740", "size": 38}, {"rva": "0x000112b0", "size": 18}, {"rva": "0x000112c2", "size": 14}]
  and ([.bounds[] | select(.il == "prolog") | .native] == [0, 38, 56])' "$w/hc.json" >/dev/null || fail "hot/cold SafeDivide"
expect 0 "$gdmap" il locate "$data/sample/Sample.A.hotcold.dll" 0x112b5
has out "0x000112b5: method 0x06000003, cold +0x2b of 70 bytes: IL 0x7 (native 39-51)"

# --- composite images ---
comp=$data/sample/composite
# The whole composite image in one description: every component's
# methods, grouped by component, each with its "component".
expect 0 "$gdmap" il extract "$comp/Sample.r2r.dll" --names -o "$w/c.json"
has err "Sample.r2r.dll (2 components): Linux x64, ReadyToRun 16.0 (packed2 bounds): 12 methods"
jq -e '[.methods[].component] == ["Sample.A", "Sample.A", "Sample.A", "Sample.A", "Sample.A", "Sample.A", "Sample.A",
  "Sample.B", "Sample.B", "Sample.B", "Sample.B", "Sample.B"] and (.methods[0].name == "Sample.A.Point::.ctor")
  and ([.methods[] | select(.component == "Sample.B") | .name][0] == "Sample.B.Program::Run")' "$w/c.json" >/dev/null ||
  fail "every component in one description"
# Tokens repeat across components: --component chooses, the listing names them.
expect 2 "$gdmap" il lookup "$w/c.json" --method 0x06000003
has err "Sample.A: (none), Sample.B: (none)): choose one with --component NAME and --instantiation TEXT"
expect 0 "$gdmap" il lookup "$w/c.json" --method 0x06000003 --component Sample.B
has out "0x06000003 Sample.B.Program.Run(Int32): S_OK"
expect 0 "$gdmap" il build "$w/c.json" --format packed2 --method 0x06000003 --component Sample.A -o "$w/sa3.bin"
# A component the image does not have: every one listed, in a field of its
# own in JSON (a message is cut at 512 bytes, the list never).
expect 1 "$gdmap" il extract "$comp/Sample.r2r.dll" --component Nope -o "$w/no.json"
has err "no component 'Nope' in this composite image of 2 component assemblies"
has err "note: component 0: Sample.A (7 bodies)"
has err "note: component 1: Sample.B (5 bodies)"
expect 1 "$gdmap" il extract "$comp/Sample.r2r.dll" --component Nope -o "$w/no.json" --json
is '.components == [{"name": "Sample.A", "bodies": 7}, {"name": "Sample.B", "bodies": 5}]'
expect 0 "$gdmap" il extract "$comp/Sample.r2r.dll" --component Sample.B --names -o "$w/b.json"
jq -e '[.methods[].name] == ["Sample.B.Program::Run", "Sample.B.Greeter`1::.ctor", "Sample.B.Greeter`1::Greet",
  "Sample.B.Greeter`1::.ctor", "Sample.B.Greeter`1::Greet"]' "$w/b.json" >/dev/null || fail "component Sample.B"
# A component assembly points at its composite image, read beside it.
expect 0 "$gdmap" il extract "$comp/Sample.A.dll" --names -o "$w/a.json"
has err "Sample.A.dll: a component of the composite image Sample.r2r.dll"
jq -e '[.methods[] | select(.instantiation == null) | .name] == ["Sample.A.Point::.ctor", "Sample.A.Shapes::Area",
  "Sample.A.Shapes::SafeDivide", "Sample.A.Shapes::Sum", "Sample.A.Shapes::Use"]' "$w/a.json" >/dev/null || fail "component Sample.A"
expect 0 "$gdmap" il extract "$comp/Sample.A.dll" -o "$w/a.json" --json
is '.composite == "'"$comp/Sample.r2r.dll"'" and .component == "Sample.A" and .methods == 7 and .boundsForm == "packed2"'
expect 0 "$gdmap" il extract "$comp/Sample.r2r.dll" --component 0 -o "$w/a0.json"
jq -e '[.methods[].token]' "$w/a.json" >"$w/t1"; jq -e '[.methods[].token]' "$w/a0.json" >"$w/t2"
cmp -s "$w/t1" "$w/t2" || fail "--component 0 and the component file differ"
expect 1 "$gdmap" il extract "$data/sample/Sample.A.x64.dll" --component Sample.A -o "$w/no.json"
has err "--component 'Sample.A': the image is not a composite image [il-method-not-found]"
cp "$comp/Sample.A.dll" "$w/Sample.A.dll"
expect 2 "$gdmap" il extract "$w/Sample.A.dll" -o "$w/lonely.json"
has err "cannot open"
expect 0 "$gdmap" il extract "$w/Sample.A.dll" --composite "$comp/Sample.r2r.dll" -o "$w/lonely.json"
# il locate in a composite image names the component; a component
# assembly sends the addresses to its composite image.
expect 0 "$gdmap" il locate "$comp/Sample.r2r.dll" 0x10ca4
has out "0x00010ca4: method 0x06000003 of Sample.B, body +0x4 of 157 bytes: IL prolog (native 0-14)"
expect 0 "$gdmap" il locate "$comp/Sample.r2r.dll" 0x10ca4 --json
is '.addresses[0].method.component == "Sample.B"'
# --names: each component's own metadata, its file beside the composite image.
expect 0 "$gdmap" il locate "$comp/Sample.r2r.dll" 0x10ca4 --names
has out "0x00010ca4: method 0x06000003 of Sample.B Sample.B.Program.Run(Int32), body +0x4 of 157 bytes"
expect 0 "$gdmap" il locate "$comp/Sample.r2r.dll" 0x10ca4 --names --json
is '.addresses[0].method.name == "Sample.B.Program::Run"'
expect 1 "$gdmap" il locate "$comp/Sample.A.dll" 0x10ca4
has err "a component assembly: its code is in the composite image Sample.r2r.dll"
echo "PASS"
