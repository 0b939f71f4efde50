# gdmap diff: map vs map, map vs description, description vs description;
# exit statuses; --json parsed by python3; the byte-level fallback and its
# diff-byte-level note; verify's cause and every difference.
# Arguments: GDMAP SOURCE_ROOT BLOBS_DRIVER (see tests/CMakeLists.txt).
set -euo pipefail
gdmap=$1
maps=$2/examples/maps
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli_test.bash"
command -v python3 >/dev/null || { echo "python3 missing: skipped"; exit 77; }
# json STATUS COMMAND...: run it, then check its stdout parses, and
# evaluate the python expression $2... on it as `j` with `is`.
is() { python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' \
  "$work/out" "$1" || { cat "$work/out" >&2; fail "JSON does not satisfy: $1"; }; }

# Identical: a map and its own description, either way round, and a map with itself.
expect 0 "$gdmap" diff "$maps/basic.gdmap" "$maps/basic.json"
has out "identical (40 bytes)"
expect 0 "$gdmap" diff "$maps/basic.json" "$maps/basic.gdmap"
"$gdmap" diff "$maps/shared.gdmap" - <"$maps/shared.gdmap" >"$work/out" || fail "diff against stdin"

# Description vs description: a type changed, a dictionary added, one removed.
cat >"$work/a.json" <<'JSON'
{"dictionaries": [
  {"rva": "0x1000", "types": ["int32"]},
  {"rva": "0x1040", "types": ["string", "int32"]},
  {"rva": "0x1080", "types": ["object"]}
]}
JSON
cat >"$work/b.json" <<'JSON'
{"dictionaries": [
  {"rva": "0x1000", "types": ["int32"]},
  {"rva": "0x1040", "types": ["string", "string"]},
  {"rva": "0x10c0", "types": ["int32[]"]}
]}
JSON
expect 1 "$gdmap" diff "$work/a.json" "$work/b.json"
has out "3 differences (1 added, 1 removed, 1 changed)"
has out "changed  dictionary 0x1040: type[1]: int32 -> string"
has out "removed  dictionary 0x1080: object"
has out "added    dictionary 0x10c0: int32[]"

# --context: a changed dictionary's whole lists of types.
expect 1 "$gdmap" diff --context "$work/a.json" "$work/b.json"
has out "             A: string, int32"
has out "             B: string, string"

# Map vs description: the same, with A a built map.
"$gdmap" build "$work/a.json" -o "$work/a.gdmap"
expect 1 "$gdmap" diff "$work/a.gdmap" "$work/b.json"
has out "changed  dictionary 0x1040: type[1]: int32 -> string"

# --json: a stable object.
expect 1 "$gdmap" diff --json "$work/a.gdmap" "$work/b.json"
is 'j["identical"] is False and j["structural"] is True and j["kindA"] == "map" and j["kindB"] == "description"'
is 'j["total"] == 3 and j["counts"]["changed"] == 1 and j["counts"]["added"] == 1 and j["counts"]["removed"] == 1'
is '{"kind": "changed", "path": "dictionary 0x1040.type[1]", "rva": "0x00001040", "a": "int32", "b": "string",
     "offsetA": j["differences"][0]["offsetA"], "offsetB": j["differences"][0]["offsetB"]} == j["differences"][0]'
is 'j["differences"][1]["b"] is None and j["diagnostics"] == []'
expect 0 "$gdmap" diff --json "$maps/basic.gdmap" "$maps/basic.json"
is 'j["identical"] is True and j["differences"] == [] and j["total"] == 0'

# Same content, other layout (unsorted map with entries in another order).
printf '{"sorted": false, "dictionaries": [{"rva": 1, "types": ["int32"]}, {"rva": 2, "types": ["string"]}]}' >"$work/x.json"
printf '{"sorted": false, "dictionaries": [{"rva": 2, "types": ["string"]}, {"rva": 1, "types": ["int32"]}]}' >"$work/y.json"
expect 1 "$gdmap" diff "$work/x.json" "$work/y.json"
has out "same content, different layout"
has out "layout   dictionary 0x1: directory: directory[0] -> directory[1]"

# An input that does not read as a map: byte by byte, with a note saying why.
cp "$maps/basic.gdmap" "$work/broken.gdmap"
printf '\x40' | dd of="$work/broken.gdmap" bs=1 seek=8 conv=notrunc status=none
expect 1 "$gdmap" diff "$maps/basic.gdmap" "$work/broken.gdmap"
has out "compared byte by byte: 1 differing byte in 1 run"
has out "bytes    byte 0x00000008, directory[0].offset: 00000000"
has err "[diff-byte-level]"
has err "offset-outside-heap"
expect 1 "$gdmap" diff --json "$maps/basic.gdmap" "$work/broken.gdmap"
is 'j["structural"] is False and j["bytes"]["firstOffset"] == 8 and j["bytes"]["pathA"] == "directory[0].offset"'
is 'j["diagnostics"][0]["rule"] == "diff-byte-level" and j["diagnostics"][0]["severity"] == "note"'

# The cap: 100 listed by default, --all lists every one.
python3 - "$work" <<'PY'
import json, sys
w = sys.argv[1]
json.dump({"dictionaries": [{"rva": 16 * i + 16, "types": ["int32"]} for i in range(300)]}, open(w + "/many-a.json", "w"))
json.dump({"dictionaries": [{"rva": 16 * i + 16, "types": ["string"]} for i in range(300)]}, open(w + "/many-b.json", "w"))
PY
expect 1 "$gdmap" diff "$work/many-a.json" "$work/many-b.json"
has out "... 200 more differences (--all lists them)"
[ "$(grep -c '^  changed' "$work/out")" = 100 ] || fail "default cap is not 100"
expect 1 "$gdmap" diff --all "$work/many-a.json" "$work/many-b.json"
[ "$(grep -c '^  changed' "$work/out")" = 300 ] || fail "--all did not list every difference"

# Errors: status 2 (unreadable, both on stdin); an invalid description is
# invalid input, status 1, as from build and verify.
expect 2 "$gdmap" diff "$maps/basic.gdmap" "$work/missing.gdmap"
printf '{"dictionaries": [{"rva": 1, "types": ["int32<"]}]}' >"$work/bad.json"
expect 1 "$gdmap" diff "$maps/basic.gdmap" "$work/bad.json"
has err "type-text-syntax"
expect 2 "$gdmap" diff --json - -
is 'j["identical"] is None and j["diagnostics"][0]["rule"] == "usage"'

# verify: its historic first line, then the cause and every difference.
"$gdmap" build "$work/b.json" -o "$work/b.gdmap"
expect 1 "$gdmap" verify "$work/a.json" "$work/b.gdmap"
head -1 "$work/err" | grep -q "b.gdmap: differs at byte" || fail "verify's first line changed: $(head -1 "$work/err")"
has err "cause: dictionary 0x1040: type[1] is int32 in the description, string in the map"
has err "all differences, description -> map: 3 differences (1 added, 1 removed, 1 changed)"
has err "removed  dictionary 0x1080: object"
has err "added    dictionary 0x10c0: int32[]"
expect 1 "$gdmap" verify --json "$work/a.json" "$work/b.gdmap"
is 'j["diagnostics"][0]["rule"] == "map-differs" and j["total"] == 3 and len(j["differences"]) == 3'
is 'j["cause"].startswith("dictionary 0x1040: type[1] is int32")'
# A dictionary whose RVA moved: the cause pairs the one removed and the one added.
cp "$maps/basic.gdmap" "$work/moved.gdmap"
printf '\x04' | dd of="$work/moved.gdmap" bs=1 seek=$((0x0c)) conv=notrunc status=none
expect 1 "$gdmap" verify "$maps/basic.json" "$work/moved.gdmap"
has err "cause: dictionary 0x1010 (string, int32[]) in the description is at RVA 0x00001004 in the map"

# A map with the description's content in other bytes: the cause says so.
"$gdmap" build "$work/y.json" -o "$work/y.gdmap"
expect 1 "$gdmap" verify "$work/x.json" "$work/y.gdmap"
has err "cause: the same dictionaries laid out differently: dictionary 0x1: directory is directory[0] in the description, directory[1] in the map"
expect 1 "$gdmap" verify --context --json "$work/a.json" "$work/b.gdmap"
is 'j["differences"][0]["contextA"] == "string, int32" and j["differences"][0]["contextB"] == "string, string"'
expect 1 "$gdmap" verify "$maps/basic.json" "$work/broken.gdmap"
head -1 "$work/err" | grep -q "broken.gdmap: differs at byte 0x00000008, directory\[0\].offset" \
  || fail "verify's first line is not the verdict: $(head -1 "$work/err")"
has err "cause: the map does not read as a map (directory[0] -> heap@0x40"
has err "[diff-byte-level]"
# Issue 20: a change deep in a long nested generic is shown where it is:
# each side cut around the change (never two identical heads), the
# sub-path inside the type and the two parts, in text and JSON; verify's
# first difference quotes both types around the differing byte too.
python3 - "$work" <<'PY'
import json, sys
def nested(leaf):
    t = leaf
    for i in range(15):
        t = "class 0x%08x<%s>" % (0x01000012 if i == 14 else 0x01000013, t)
    return t
for name, leaf in (("deepA", "int32"), ("deepB", "int64")):
    json.dump({"dictionaries": [{"rva": 4096, "types": [nested(leaf), "string"]}]}, open("%s/%s.json" % (sys.argv[1], name), "w"))
PY
expect 1 "$gdmap" diff "$work/deepA.json" "$work/deepB.json"
has out "changed  dictionary 0x1000: type[0]: ...class 0x01000013<int32>>>"
has out " -> ...class 0x01000013<int64>>>"
deep=$(printf '.arguments[0]%.0s' $(seq 15))
has out "at type[0]$deep: int32 -> int64"
expect 1 "$gdmap" diff --json "$work/deepA.json" "$work/deepB.json"
is '(len(j["differences"]) == 1 and j["differences"][0]["a"] != j["differences"][0]["b"]
    and "int32" in j["differences"][0]["a"] and "int64" in j["differences"][0]["b"]
    and j["differences"][0]["subPath"] == ".arguments[0]" * 15
    and j["differences"][0]["partA"] == "int32" and j["differences"][0]["partB"] == "int64")'
"$gdmap" build "$work/deepB.json" -o "$work/deepB.gdmap"
expect 1 "$gdmap" verify "$work/deepA.json" "$work/deepB.gdmap"
has err "cause: dictionary 0x1000: type[0]$deep is int32 in the description, int64 in the map"
python3 - "$work/err" <<'PY' || fail "verify quotes the two types alike"
import re, sys
first = open(sys.argv[1]).read().splitlines()[0]
expected, found = re.search(r"expected (.*), found (.*) \(1 differing byte", first).groups()
assert expected != found and "int32" in expected and "int64" in found, first
PY

echo "diff: all checks passed"
