# Every command's --json prints one JSON object on stdout with a
# "diagnostics" array of {severity, rule, message, ...location}, for
# success, invalid input, I/O errors and usage errors alike; the exit status
# is the one text mode gives; nothing goes to stderr.
# Arguments: GDMAP SOURCE_ROOT BLOBS_DRIVER (see tests/CMakeLists.txt).
set -euo pipefail
gdmap=$1
root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v jq >/dev/null 2>&1 || { echo "SKIP: jq is needed to read the JSON"; exit 77; }

# json STATUS COMMAND...: runs it, checks the status, that stdout is one
# object whose diagnostics all have severity, rule and message, and that
# stderr is empty. The object is left in $work/out.
json() {
  local want=$1 got=0
  shift
  "$@" >"$work/out" 2>"$work/err" </dev/null || got=$?
  [ "$got" -eq "$want" ] || { cat "$work/out" "$work/err" >&2; fail "'$*' exited $got, expected $want"; }
  [ ! -s "$work/err" ] || { cat "$work/err" >&2; fail "'$*' wrote to stderr in --json mode"; }
  jq -e 'type == "object" and (.diagnostics | type == "array")
         and all(.diagnostics[]; (.severity | IN("error", "warning", "note")) and (.rule | type == "string" and length > 0)
                                 and (.message | type == "string") and has("path") and has("offset"))' \
    "$work/out" >/dev/null || { cat "$work/out" >&2; fail "'$*': not the diagnostics shape"; }
}
# is FILTER: the jq filter holds on the last object.
is() { jq -e "$1" "$work/out" >/dev/null || { cat "$work/out" >&2; fail "not true: $1"; }; }

maps=$root/examples/maps
cp "$maps/basic.gdmap" "$work/changed.gdmap"
printf '\x04' | dd of="$work/changed.gdmap" bs=1 seek=$((0x0c)) conv=notrunc status=none
printf '{\n  "dictionaries": [\n    { "rva": 1, "types": ["int32<"] }\n  ]\n}\n' >"$work/bad.json"
# Valid but not canonical: the item's length 2 written in two bytes.
printf '\x01\x00\x00\x00\x00\x10\x00\x00\x00\x00\x00\x00\x80\x02\x01\x08' >"$work/noncanonical.gdmap"

# check
json 0 "$gdmap" check --json "$maps/basic.gdmap"
is '.valid == true and .canonical == true and .diagnostics == []'
json 1 "$gdmap" check --json "$maps/malformed-raw.gdmap"
is '.valid == false and (.diagnostics | length) == 2 and all(.diagnostics[]; .file != null and .offset != null)'
# 300 entries with the same RVA whose offsets all miss the (empty) heap:
# 599 errors (300 offsets, 299 repeats), a capped list that closes with the
# count of the rest.
{
  printf '\x2c\x01\x00\x00'
  for ((i = 0; i < 300; i++)); do printf '\x00\x10\x00\x00\x00\x10\x00\x00'; done
} >"$work/many.gdmap"
json 1 "$gdmap" check --json --max-diagnostics 5 "$work/many.gdmap"
is '.truncated == true and .errors == 599 and (.diagnostics | length) == 6
    and .diagnostics[-1].rule == "too-many-diagnostics" and .diagnostics[-1].severity == "note"
    and (.diagnostics[-1].message | startswith("594 more problem(s) not listed, after the first 5; 599 error(s)"))'
json 2 "$gdmap" check --json "$work/no-such.gdmap"
is '.valid == null and .errors == 1 and .warnings == 0 and .canonicalReasons == null
    and .diagnostics[0].rule == "input-unreadable" and (.diagnostics[0].file | endswith("no-such.gdmap"))'

# build
json 0 "$gdmap" build --json "$maps/basic.json" -o "$work/basic.gdmap"
is '.written == true and .size == 40 and .diagnostics == []'
cmp -s "$work/basic.gdmap" "$maps/basic.gdmap" || fail "build --json wrote other bytes"
json 1 "$gdmap" build --json "$work/bad.json" -o "$work/bad.gdmap"
is '.written == false and .diagnostics[0].line == 3 and .diagnostics[0].path == "/dictionaries/0/types/0"'
[ ! -e "$work/bad.gdmap" ] || fail "build --json of a bad description wrote an output"
json 2 "$gdmap" build --json "$maps/basic.json"
is '.diagnostics[0].rule == "usage"'

# dump
json 0 "$gdmap" dump --json "$maps/basic.gdmap" -o "$work/basic.dump.json"
is '.written == true and .diagnostics == []'
json 0 "$gdmap" dump --json "$work/noncanonical.gdmap" -o "$work/noncanonical.json"
is '.diagnostics[0].rule == "rebuild-differs" and .diagnostics[0].severity == "note"
    and .diagnostics[0].path == "heap@0x0.length" and .diagnostics[0].offset == 12'
# An invalid map still dumps (exactly: overrides and raw), with status 1
# and the check's findings as warnings.
json 1 "$gdmap" dump --json "$maps/malformed-raw.gdmap" -o "$work/malformed.json"
is '.written == true and .diagnostics[0].severity == "warning" and .diagnostics[0].rule == "zero-type-count"'
"$gdmap" build "$work/malformed.json" -o "$work/malformed.rebuilt" 2>/dev/null || fail "the dump of an invalid map does not build"
cmp -s "$work/malformed.rebuilt" "$maps/malformed-raw.gdmap" || fail "the dump of an invalid map does not build the same bytes"

# verify
json 0 "$gdmap" verify --json "$maps/basic.json" "$maps/basic.gdmap"
is '.identical == true and .diagnostics == []'
json 1 "$gdmap" verify --json "$maps/basic.json" "$work/changed.gdmap"
is '.identical == false and .field == "directory[1].rva" and .diagnostics[0].rule == "map-differs"
    and .diagnostics[0].path == "directory[1].rva" and .diagnostics[0].offset == 12'
json 1 "$gdmap" verify --json "$work/bad.json" "$maps/basic.gdmap"
is '.identical == null and .diagnostics[0].file == "'"$work"'/bad.json"'
json 2 "$gdmap" verify --json - -
is '.identical == null and .diagnostics[0].rule == "usage"'

# lookup
json 0 "$gdmap" lookup --json "$maps/basic.gdmap" 0x1010
is '.found == true and .types == ["string", "int32[]"] and .diagnostics == []'
json 1 "$gdmap" lookup --json "$maps/basic.gdmap" 0x1004
is '.found == false and .diagnostics[0].rule == "rva-not-found"'
json 2 "$gdmap" lookup --json "$maps/basic.gdmap" 0x1g
is '.found == null and .diagnostics[0].rule == "usage"'

# sig
json 0 "$gdmap" sig encode --json 'class 0x01000012<int32, !0[]>'
is '.results == ["15124902081d1300"] and .items == 1 and .failed == 0'
json 1 "$gdmap" sig decode --json '15 12 49 01 08' 'zz'
is '.results == ["class 0x01000012<int32>", null] and .failed == 1
    and .diagnostics[0].file == "argument 2" and .diagnostics[0].rule == "invalid-hex" and .diagnostics[0].column == 1'
printf 'int32\nint32<\n' >"$work/types.txt"
status=0
"$gdmap" sig encode --json <"$work/types.txt" >"$work/out" 2>"$work/err" || status=$?
[ "$status" -eq 1 ] || fail "sig encode --json from stdin exited $status"
is '.results == ["08", null] and .diagnostics[0].file == "stdin" and .diagnostics[0].line == 2 and .diagnostics[0].column == 6'

# Usage errors, wherever --json is.
json 2 "$gdmap" check --json
is '.diagnostics[0].rule == "usage" and .diagnostics[0].severity == "error"'
json 2 "$gdmap" check --json --no-such-option "$maps/basic.gdmap"
is '.diagnostics[0].rule == "usage"'
json 2 "$gdmap" --json
is '.diagnostics[0].rule == "usage"'
# --help is not an error, even with --json.
"$gdmap" check --json --help >/dev/null || fail "check --json --help failed"

# Any bytes in a name or message give valid JSON: control characters are
# escaped, bytes that are not UTF-8 replaced.
json 2 "$gdmap" check --json "$work/$(printf 'bad\001\377name')"
is '.diagnostics[0].file | contains("bad\u0001\ufffdname")'

# Text mode names the rule too.
status=0
"$gdmap" check "$work/no-such.gdmap" 2>"$work/err" || status=$?
[ "$status" -eq 2 ] || fail "check of a missing file exited $status"
grep -qF "no-such.gdmap: error: cannot open" "$work/err" && grep -qF "[input-unreadable]" "$work/err" ||
  fail "text: $(cat "$work/err")"

echo "json output: every command, one shape"
