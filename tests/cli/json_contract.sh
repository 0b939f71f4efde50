# The --json contract (docs/json.md): every command's object, on success and
# on every kind of failure (invalid input, a missing file, a usage error,
# one the parser refuses and one the command refuses), validates against
# that command's schema under schema/output, and exits with the status the
# contract gives the outcome (0 ok, 1 invalid input or a difference, 2
# usage or I/O). The example descriptions validate against the description
# schemas too.
# Arguments: GDMAP SOURCE_ROOT BLOBS_DRIVER (see tests/CMakeLists.txt).
set -euo pipefail
gdmap=$1
root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli_test.bash"
# Debian's python3-jsonschema installs for the system interpreter.
python=/usr/bin/python3
"$python" -c 'import jsonschema' 2>/dev/null || { echo "SKIP: python3-jsonschema is needed"; exit 77; }
maps=$root/examples/maps
il=$root/examples/il/worked_example.json
data=$root/tests/data/r2r
missing=$work/no-such-file
mkdir "$work/json"

# `run STATUS SCHEMA ARGS...`: gdmap ARGS exits STATUS with one JSON object
# on stdout, to be validated against gdmap-SCHEMA.schema.json.
pairs=()
n=0
run() {
  local status=$1 schema=$2
  shift 2
  expect "$status" "$gdmap" "$@"
  n=$((n + 1))
  cp "$work/out" "$work/json/$n.json"
  [ -s "$work/json/$n.json" ] || fail "'gdmap $*' printed no JSON"
  pairs+=("gdmap-$schema=$work/json/$n.json")
}

# Inputs: valid, invalid, of every kind.
cp "$maps/basic.gdmap" "$work/broken.gdmap"
printf '\x40' | dd of="$work/broken.gdmap" bs=1 seek=8 conv=notrunc status=none
printf '{"dictionaries": [{"rva": 1, "types": ["int32<"]}]}' >"$work/bad.json"
printf '{"methods": [{"token": "0x06000001", "bounds": "x"}]}' >"$work/bad-il.json"
"$gdmap" il build "$il" --format nibble --method 0x06000001 -o "$work/we.nibble"
printf '\xff\xff\xff\xff' >"$work/bad.nibble"

run 0 sig-encode sig encode --json 'int32[]' string
run 1 sig-encode sig encode --json 'int32<'
run 2 sig-encode sig encode --json --names "$missing" int32
run 2 sig-encode sig encode --json --bogus
run 0 sig-decode sig decode --json 1d08
run 1 sig-decode sig decode --json zz
run 2 sig-decode sig decode --json --names "$missing" 08

run 0 build build "$maps/basic.json" -o "$work/b.gdmap" --json
run 1 build build "$work/bad.json" -o "$work/b2.gdmap" --json
run 2 build build "$missing" -o "$work/b3.gdmap" --json
run 2 build build "$maps/basic.json" --json
run 2 build build --json

run 0 dump dump "$maps/basic.gdmap" -o "$work/d.json" --json
run 1 dump dump "$work/broken.gdmap" -o "$work/d2.json" --json
run 2 dump dump "$missing" -o "$work/d3.json" --json
run 2 dump dump "$maps/basic.gdmap" --json

run 0 check check "$maps/basic.gdmap" --json
run 1 check check "$work/broken.gdmap" --json
run 1 check check "$maps/basic.json" --json
run 2 check check "$missing" --json
run 2 check check --json --max-diagnostics -1 "$maps/basic.gdmap"
run 2 check check --json "$maps/basic.gdmap" extra

run 0 verify verify "$maps/basic.json" "$maps/basic.gdmap" --json
run 1 verify verify "$maps/basic.json" "$maps/shared.gdmap" --json
run 1 verify verify "$work/bad.json" "$maps/basic.gdmap" --json
run 2 verify verify "$maps/basic.json" "$missing" --json
run 2 verify verify - - --json

run 0 lookup lookup "$maps/basic.gdmap" 0x1010 --json
run 1 lookup lookup "$maps/basic.gdmap" 0x2000 --json
run 2 lookup lookup "$missing" 0x1010 --json
run 2 lookup lookup "$maps/basic.gdmap" 0x1g --json

run 0 hexdump hexdump "$maps/basic.gdmap" --json
run 1 hexdump hexdump "$work/broken.gdmap" --json
run 2 hexdump hexdump "$missing" --json
run 2 hexdump hexdump --json

run 0 diff diff "$maps/basic.gdmap" "$maps/basic.json" --json
run 1 diff diff "$maps/basic.gdmap" "$maps/shared.gdmap" --json
run 1 diff diff "$maps/basic.gdmap" "$work/bad.json" --json
run 2 diff diff "$maps/basic.gdmap" "$missing" --json
run 2 diff diff - - --json
# A change deep inside a type (subPath, partA, partB), a broken map compared
# byte by byte, and verify --all's list of differences.
nest='class 0x01000012<class 0x01000012<class 0x01000012<class 0x01000012<class 0x01000013<ARG>>>>>'
echo "{\"dictionaries\": [{\"rva\": 4096, \"types\": [\"${nest/ARG/int32}\"]}]}" >"$work/deep-a.json"
echo "{\"dictionaries\": [{\"rva\": 4096, \"types\": [\"${nest/ARG/int64}\"]}]}" >"$work/deep-b.json"
run 1 diff diff "$work/deep-a.json" "$work/deep-b.json" --json
jq -e '.differences[0].subPath == ".arguments[0].arguments[0].arguments[0].arguments[0].arguments[0]"' "$work/out" >/dev/null ||
  fail "diff --json of a deep change: no subPath"
run 1 diff diff "$maps/basic.gdmap" "$work/broken.gdmap" --json
run 1 verify verify "$maps/basic.json" "$maps/shared.gdmap" --all --json

run 0 il-build il build "$il" --format packed2 --method 0x06000001 -o "$work/we.packed2" --json
run 1 il-build il build "$work/bad-il.json" --format nibble -o "$work/x.nibble" --json
run 2 il-build il build "$missing" --format nibble -o "$work/x.nibble" --json
run 2 il-build il build "$il" --format zip --json

run 0 il-dump il dump "$work/we.nibble" --format nibble -o "$work/we-dump.json" --json
run 1 il-dump il dump "$work/bad.nibble" --format nibble -o "$work/bad-dump.json" --json
run 2 il-dump il dump "$missing" --format nibble -o "$work/x.json" --json
run 2 il-dump il dump "$work/we.nibble" --format nibble --json

run 0 il-check il check "$work/we.nibble" --format nibble --json
run 1 il-check il check "$work/bad.nibble" --format nibble --json
run 2 il-check il check "$missing" --format nibble --json
run 2 il-check il check "$work/we.nibble" --format nibble --json --max-diagnostics -1

run 0 il-verify il verify "$il" "$work/we.nibble" --format nibble --method 0x06000001 --json
run 1 il-verify il verify "$il" "$work/bad.nibble" --format nibble --method 0x06000001 --json
run 1 il-verify il verify "$work/bad-il.json" "$work/we.nibble" --format nibble --json
run 2 il-verify il verify "$il" "$missing" --format nibble --method 0x06000001 --json
run 2 il-verify il verify - - --format nibble --json

run 0 il-convert il convert "$work/we.nibble" --from nibble --to packed3 -o "$work/we.packed3" --json
run 1 il-convert il convert "$work/bad.nibble" --from nibble --to packed3 -o "$work/x.packed3" --json
run 2 il-convert il convert "$missing" --from nibble --to packed3 -o "$work/x.packed3" --json
run 2 il-convert il convert "$work/we.nibble" --from nibble --to packed3 --json

run 0 il-lookup il lookup "$il" --method 0x06000001 --json
run 1 il-lookup il lookup "$il" --method 0x06000099 --json
run 1 il-lookup il lookup "$work/bad-il.json" --method 0x06000001 --json
run 2 il-lookup il lookup "$missing" --method 0x06000001 --json
run 2 il-lookup il lookup "$il" --native 4 --il 0 --json

run 0 il-hexdump il hexdump "$work/we.nibble" --format nibble --json
run 1 il-hexdump il hexdump "$work/bad.nibble" --format nibble --json
run 2 il-hexdump il hexdump "$missing" --format nibble --json
run 2 il-hexdump il hexdump "$work/we.nibble" --json

run 1 il-extract il extract "$maps/basic.gdmap" -o "$work/x.json" --json
run 2 il-extract il extract "$missing" -o "$work/x.json" --json
run 2 il-extract il extract "$missing" --json
run 1 il-locate il locate "$maps/basic.gdmap" 0x1000 --json
run 2 il-locate il locate "$missing" 0x1000 --json
run 2 il-locate il locate "$missing" --json
if [ -f "$data/System.Threading.Tasks.Extensions.dll" ]; then
  img=$data/System.Threading.Tasks.Extensions.dll
  run 0 il-extract il extract "$img" -o "$work/tte.json" --json
  rva=$("$gdmap" il extract "$img" | "$python" -c 'import json,sys; m=json.load(sys.stdin)["methods"][0]; print(m["code"][0]["rva"])' 2>/dev/null || true)
  [ -n "$rva" ] && run 0 il-locate il locate "$img" "$rva" --json
  run 1 il-locate il locate "$img" 0x1 --json
fi

# A command line the parser refuses, at any level: the envelope alone.
run 2 check --json chek "$maps/basic.gdmap"
run 2 il-lookup il lookup --json

# Each object against its command's schema; the example descriptions
# against theirs.
for f in "$maps"/*.json; do pairs+=("gdmap-description=$f"); done
for f in "$root"/examples/il/*.json; do pairs+=("gdmap-il-description=$f"); done
"$python" "$root/tests/cli/lib/validate_json.py" "$root/schema" "$root/schema/output" -- "${pairs[@]}" ||
  fail "output that breaks its schema (above)"

# Every command has its schema, and every schema a command.
for s in "$root"/schema/output/gdmap-*.schema.json; do
  name=$(basename "$s" .schema.json)
  [ "$name" = gdmap-output-common ] && continue
  # No `| grep -q`: under pipefail, grep leaving at its first match can
  # kill the writer with SIGPIPE and fail a test that passed.
  tested=
  for pair in "${pairs[@]}"; do
    if [ "${pair%%=*}" = "$name" ]; then tested=1 && break; fi
  done
  [ -n "$tested" ] || fail "$name: no output tested against it"
done
