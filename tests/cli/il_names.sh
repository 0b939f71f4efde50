# Issue 29: methods by name as well as by token. il extract --names writes
# each method's signature as SOS prints it; --method takes a token, a name
# (`Ns.Type::Name`) or a signature, and a name several methods answer is an
# il-method-ambiguous error listing each; il lookup without --method writes
# every method's array (a table, or JSON), il extract IMAGE --api each
# method's map, equal to what il lookup answers for its bounds; --lines
# gives each bound its source line from the portable PDB.
# Arguments: GDMAP SOURCE_ROOT BLOBS_DRIVER (see tests/CMakeLists.txt).
set -euo pipefail
gdmap=$1
data=$2/tests/data
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli_test.bash"
sample=$data/r2r/sample/Sample.A.x64.dll
tte=$data/r2r/System.Threading.Tasks.Extensions.dll
max='Sample.A.Shapes.Max[[System.__Canon, System.Private.CoreLib]](System.Collections.Generic.List`1<System.__Canon>)'

# --names: the signature beside the name, an instantiation's with its arguments.
expect 0 "$gdmap" il extract "$sample" --names -o "$work/named.json"
has named.json '"signature": "Sample.A.Shapes.Area(Int32, Int32)"'
has named.json '"signature": "Sample.A.Shapes.Sum(Sample.A.Point[])"'
has named.json "\"signature\": \"$max\""
# Without --names the description is as before: no names.
expect 0 "$gdmap" il extract "$sample" -o "$work/plain.json"
! grep -q '"signature"' "$work/plain.json" || fail "a signature without --names"

# --method by name, by signature (white space aside), and by token: one method.
for asked in 'Sample.A.Shapes::Area' 'Sample.A.Shapes.Area(Int32,Int32)' 'Sample.A.Shapes.Area' 0x06000002; do
  expect 0 "$gdmap" il extract "$sample" --method "$asked" -o "$work/one.json"
  [ "$(grep -c '"token"' "$work/one.json")" -eq 1 ] || fail "--method $asked: not one method"
  has one.json '"token": "0x06000002"'
done
expect 0 "$gdmap" il extract "$sample" --method "$max" -o "$work/max.json"
has max.json '"instantiation": { "method": ["__Canon"] }'

# A name of two overloads: il-method-ambiguous, each listed with its signature.
expect 1 "$gdmap" il extract "$tte" --method 'System.Threading.Tasks.ValueTask`1::.ctor' -o "$work/x.json"
has err "--method 'System.Threading.Tasks.ValueTask\`1::.ctor' names 2 methods: give one's token, or its signature as listed below [il-method-ambiguous]"
has err 'note: 0x06000001 System.Threading.Tasks.ValueTask`1..ctor(!0) [il-method-ambiguous]'
has err 'note: 0x06000002 System.Threading.Tasks.ValueTask`1..ctor(System.Threading.Tasks.Task`1<!0>) [il-method-ambiguous]'
[ ! -e "$work/x.json" ] || fail "an ambiguous name wrote a description"
# The signature listed chooses one of them (every instantiation of it), and
# so does one instantiation's signature (that body only).
expect 0 "$gdmap" il extract "$tte" --method 'System.Threading.Tasks.ValueTask`1..ctor(!0)' -o "$work/x.json"
has x.json '"token": "0x06000001"'
! grep -q '"token": "0x06000002"' "$work/x.json" || fail "the signature chose another overload"
expect 0 "$gdmap" il extract "$tte" --names -o "$work/tte.json"
sig=$(python3 -c 'import json,sys; print([m["signature"] for m in json.load(open(sys.argv[1]))["methods"] if m["token"] == "0x06000002"][0])' "$work/tte.json")
expect 0 "$gdmap" il extract "$tte" --method "$sig" -o "$work/ctor.json"
[ "$(grep -c '"token"' "$work/ctor.json")" -eq 1 ] || fail "a signature chose more than its body"
# No such method: il-method-not-found.
expect 1 "$gdmap" il extract "$sample" --method 'Sample.A.Shapes::Nope' -o "$work/x.json"
has err "no precompiled body of the image's methods is named 'Sample.A.Shapes::Nope' (6 bodies) [il-method-not-found]"
# A malformed token is still refused as one.
expect 2 "$gdmap" il extract "$sample" --method 12abc
has err "usage"

# il lookup by name needs the description's names.
expect 0 "$gdmap" il lookup "$work/named.json" --method 'Sample.A.Shapes::Area' --json
has out '"signature": "Sample.A.Shapes.Area(Int32, Int32)"'
has out '"hr": "S_OK"'
expect 1 "$gdmap" il lookup "$work/plain.json" --method 'Sample.A.Shapes::Area'
has err "the description's methods have no names"
expect 1 "$gdmap" il lookup "$work/tte.json" --method 'System.Threading.Tasks.ValueTask`1::.ctor'
has err "[il-method-ambiguous]"
expect 1 "$gdmap" il lookup "$work/named.json" --method 'Sample.A.Shapes::Nope'
has err "no method of the description is named 'Sample.A.Shapes::Nope' (6 methods) [il-method-not-found]"

# Every method's array: a table, one row an entry, and JSON, one object a method.
expect 0 "$gdmap" il lookup "$work/named.json"
head -1 "$work/out" | grep -q '^token       il          native start  native end  name$' || fail "no table header"
has out '0x06000002  prolog               0x0         0x0  Sample.A.Shapes.Area(Int32, Int32)'
expect 0 "$gdmap" il lookup "$work/named.json" --json
cp "$work/out" "$work/every.json"
# il extract --api: each method's map is what il lookup answers for its bounds.
expect 0 "$gdmap" il extract "$sample" --names --api -o "$work/api.json"
python3 - "$work/api.json" "$work/every.json" <<'PY' || fail "--api maps differ from il lookup's arrays"
import json, sys
api = json.load(open(sys.argv[1]))["methods"]
every = json.load(open(sys.argv[2]))["methods"]
assert len(api) == len(every) == 6, (len(api), len(every))
for a, e in zip(api, every):
    assert "bounds" not in a and a["token"] == e["method"] and a["signature"] == e["signature"], a
    assert [(x["il"], x["nativeStart"], x["nativeEnd"]) for x in a["map"]] == \
           [(x["il"], x["nativeStart"], x["nativeEnd"]) for x in e["entries"]], a["token"]
PY
# --api over a description: il lookup reads it back.
expect 0 "$gdmap" il lookup "$work/api.json" --method 0x06000002

# --lines: each bound's line from the PDB beside the image; il build reads it back.
expect 0 "$gdmap" il extract "$data/pdb/sample-r2r.dll" --lines --names -o "$work/lines.json"
has lines.json '"document": "/src/sample/Helper.cs"'
has lines.json '{ "native": 1, "il": 0, "source": ["stack_empty"], "line": 9, "column": 9 }'
expect 0 "$gdmap" il build "$work/lines.json" --method 0x06000001 --format packed2 -o "$work/m1.bin"
expect 0 "$gdmap" il verify "$work/lines.json" "$work/m1.bin" --method 0x06000001 --format packed2
# --pdb names it; one that does not exist is an error, and nothing is written.
expect 0 "$gdmap" il extract "$data/pdb/sample-r2r.dll" --pdb "$data/pdb/sample.pdb" -o "$work/pdb.json"
cmp <(grep -v '"name"\|"signature"' "$work/lines.json") "$work/pdb.json" || fail "--pdb gives other lines"
expect 1 "$gdmap" il extract "$data/pdb/sample-r2r.dll" --pdb "$work/none.pdb" -o "$work/nopdb.json"
has err "[pdb-not-found]"
[ ! -e "$work/nopdb.json" ] || fail "a description written without its PDB"
# An API array has no bounds for lines.
expect 2 "$gdmap" il extract "$data/pdb/sample-r2r.dll" --lines --api -o "$work/x3.json"
has err "[usage]"
# An image without a PDB: --lines is an error.
expect 1 "$gdmap" il extract "$sample" --lines -o "$work/x2.json"
has err "[pdb-not-found]"
echo "il names: ok"
