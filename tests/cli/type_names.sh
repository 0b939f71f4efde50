# Names instead of tokens (`sig decode|encode --names ASSEMBLY`, issue 10):
# every TypeDef and TypeRef of a real assembly decodes to its ILAsm name and
# encodes back to the same bytes; unknown names and non-assemblies fail with
# their rule and place.
# Arguments: GDMAP SOURCE_ROOT BLOBS_DRIVER (see tests/CMakeLists.txt).
set -euo pipefail
gdmap=$1
root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli_test.bash"
assembly=$root/tests/data/r2r/System.Threading.Tasks.Extensions.dll

# CLASS + TypeDefOrRefEncoded for TypeRef rows 1..40 and TypeDef rows 1..40,
# generic instantiations over them, arrays and modifiers of them.
python3 - > "$work/sigs.txt" <<'PY'
for tag in (0, 1):
    for row in range(1, 41):
        coded = (row << 2) | tag
        enc = f"{coded:02x}" if coded < 0x80 else f"{0x8000 | coded:04x}"
        print("12" + enc)
        print("1d12" + enc)
        print("1512" + enc + "0108")
        print("1f" + enc + "08")
PY
mapfile -t sigs < "$work/sigs.txt"
expect 0 "$gdmap" sig decode --names "$assembly" "${sigs[@]}"
cp "$work/out" "$work/names.txt"
has names.txt "class [System.Runtime]System.ValueType"
has names.txt "class System.Runtime.CompilerServices.ConfiguredValueTaskAwaitable\`1<int32>"
# Rows past the tables' ends keep their token.
grep -q "0x0" "$work/names.txt" || fail "some row beyond the tables should stay a token"
mapfile -t names < "$work/names.txt"
expect 0 "$gdmap" sig encode --names "$assembly" "${names[@]}"
diff "$work/sigs.txt" "$work/out" >&2 || fail "decode --names then encode --names changed the bytes"

# Unknown names fail at the name, with their rule; the others still convert.
expect 1 "$gdmap" sig encode --names "$assembly" 'class [System.Runtime]No.Such' 'class [System.Runtime]System.ValueType'
has err "argument 1:1:7: error: no TypeDef or TypeRef of the assembly is named [System.Runtime]No.Such [unknown-type-name]"
has out "1205"
# Without --names, a name is outside the grammar, as before.
expect 1 "$gdmap" sig encode 'class System.Object'
has err "[type-text-syntax]"
# Not an assembly: a usage/IO error naming the file.
expect 2 "$gdmap" sig decode --names "$root/README.md" 08
has err "README.md: error: byte 0x00000000: --names needs an assembly: PE: no MZ signature"
has err "[names-not-assembly]"
# A damaged assembly is located, not a crash: cut short, the PE reader
# says where; with its metadata signature broken, the metadata reader.
head -c 4100 "$assembly" > "$work/cut.dll"
expect 2 "$gdmap" sig decode --names "$work/cut.dll" 08
has err "cut.dll: error: "
has err "[names-not-assembly]"
python3 - "$assembly" "$work/nobsjb.dll" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
at = data.find(b"BSJB")
data[at:at + 4] = b"XSJB"
open(sys.argv[2], "wb").write(data)
PY
expect 2 "$gdmap" sig decode --names "$work/nobsjb.dll" 08
has err "nobsjb.dll: error: metadata root (byte 0x00000fe8): --names needs an assembly: no BSJB signature [names-not-assembly]"
# lookup and hexdump print the same names; JSON output carries them too.
cat > "$work/n.json" <<'JSON'
{"sorted": true, "dictionaries": [{"rva": 4096, "types": ["class 0x01000003<valuetype 0x02000005<int32>>", "int32"]}]}
JSON
expect 0 "$gdmap" build "$work/n.json" -o "$work/n.gdmap"
expect 0 "$gdmap" lookup --names "$assembly" "$work/n.gdmap" 4096
has out "class [System.Runtime]System.Threading.Tasks.Task\`1<valuetype System.Runtime.CompilerServices.ConfiguredValueTaskAwaitable\`1<int32>>"
expect 0 "$gdmap" lookup "$work/n.gdmap" 4096
has out "class 0x01000003<valuetype 0x02000005<int32>>"
expect 0 "$gdmap" hexdump --names "$assembly" "$work/n.gdmap"
has out "heap@0x0.type[0]     class [System.Runtime]System.Threading.Tasks.Task\`1<"
expect 0 "$gdmap" hexdump --json --names "$assembly" "$work/n.gdmap"
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert any("[System.Runtime]" in r.get("meaning","") for r in d["ranges"]), d' "$work/out" || fail "hexdump --json lacks names"
# diff names the types that changed.
cat > "$work/n2.json" <<'JSON'
{"sorted": true, "dictionaries": [{"rva": 4096, "types": ["class 0x01000001", "int32"]}]}
JSON
expect 1 "$gdmap" diff --names "$assembly" "$work/n.gdmap" "$work/n2.json"
has out "type[0]: class [System.Runtime]System.Threading.Tasks.Task\`1<"
has out " -> class [System.Runtime]System.ValueType"
expect 2 "$gdmap" lookup --names "$work/n.json" "$work/n.gdmap" 4096
has err "[names-not-assembly]"
# build, verify, dump and diff read and write names too: a description in
# names builds the same bytes as one in tokens, dumps back to names, and the
# dump builds the same bytes again.
cat > "$work/named.json" <<'JSON'
{"sorted": true, "dictionaries": [{"rva": 4096, "types": ["class [System.Runtime]System.Threading.Tasks.Task`1<valuetype System.Runtime.CompilerServices.ConfiguredValueTaskAwaitable`1<int32>>", "int32"]}]}
JSON
expect 1 "$gdmap" build "$work/named.json" -o "$work/x.gdmap"
has err "[type-text-syntax]"
expect 0 "$gdmap" build --names "$assembly" "$work/named.json" -o "$work/named.gdmap"
cmp "$work/named.gdmap" "$work/n.gdmap" || fail "names built other bytes than tokens"
expect 0 "$gdmap" verify --names "$assembly" "$work/named.json" "$work/n.gdmap"
expect 0 "$gdmap" dump --names "$assembly" "$work/n.gdmap" -o "$work/dumped.json"
grep -qF 'class [System.Runtime]System.Threading.Tasks.Task`1<' "$work/dumped.json" || fail "dump --names wrote no names"
expect 0 "$gdmap" build --names "$assembly" "$work/dumped.json" -o "$work/again.gdmap"
cmp "$work/again.gdmap" "$work/n.gdmap" || fail "dump --names then build --names changed the bytes"
expect 0 "$gdmap" diff --names "$assembly" "$work/named.json" "$work/n.gdmap"
# An unknown name in a description: located by JSON pointer and column.
sed 's/Task`1/Tusk`1/' "$work/named.json" > "$work/bad.json"
expect 1 "$gdmap" build --names "$assembly" "$work/bad.json" -o "$work/x.gdmap"
has err "/dictionaries/0/types/0: invalid type"
has err "[unknown-type-name]"
echo "type_names: ok"
