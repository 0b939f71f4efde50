# gdmap il build with a method's `layout` (docs/il-map.md "Overrides") and
# gdmap il dump of anything (docs/il-map.md "Dump of anything"): classic
# broken blobs written from readable descriptions, byte for byte; notes,
# errors and their pointers; and dump -> build giving back any bytes, valid
# or not, through the command line. Expected bytes are written here from
# FORMAT.md §3.3, never taken from gdmap.
# Arguments: GDMAP SOURCE_ROOT BLOBS_DRIVER (see tests/CMakeLists.txt).
set -euo pipefail
gdmap=$1
root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli_test.bash"
command -v jq >/dev/null 2>&1 || { echo "SKIP: jq is needed to read the JSON"; exit 77; }
w=$work

hex() {
  local out=$1
  shift
  printf "$(printf '\\x%s' "$@")" >"$out"
}
is() { jq -e "$1" "$w/out" >/dev/null || { cat "$w/out" >&2; fail "not true: $1"; }; }
same() { cmp -s "$1" "$2" || fail "$1 and $2 differ: $(xxd -p "$1") vs $(xxd -p "$2")"; }
# method FILE LAYOUT: the worked example (FORMAT.md §3.3) with that layout.
method() {
  cat >"$1" <<EOF
{ "methods": [ { "token": "0x06000001", "codeSize": 40, $2
  "bounds": [ { "native": 0, "il": "prolog", "source": ["stack_empty"] },
              { "native": 4, "il": 0, "source": ["stack_empty"] },
              { "native": 10, "il": 5 },
              { "native": 12, "il": 5, "source": ["call_instruction"] },
              { "native": 17, "il": 9, "source": ["stack_empty"] },
              { "native": 30, "il": "epilog" } ] } ] }
EOF
}

# --- no layout: today's canonical bytes, no note
method "$w/plain.json" ""
hex "$w/worked.nibble" 06 21 34 62 09 20 09 0a 95 24 59 00
expect 0 "$gdmap" il build "$w/plain.json" --format nibble -o "$w/plain.nibble"
same "$w/plain.nibble" "$w/worked.nibble"
[ ! -s "$w/err" ] || fail "a build without layout said something: $(cat "$w/err")"

# --- a count that lies, as a note at its pointer (line and column too)
method "$w/count.json" '"layout": { "count": 7 },'
hex "$w/count.nibble" 07 21 34 62 09 20 09 0a 95 24 59 00
expect 0 "$gdmap" il build "$w/count.json" --format nibble -o "$w/count.out"
same "$w/count.out" "$w/count.nibble"
has err "count.json:1:78: note: /methods/0/layout/count:"
has err "[layout-override]"

# --- a long varint: FORMAT.md's worked example with the count in 2 nibbles
method "$w/long.json" '"layout": { "nibbles": { "header.count": 2 } },'
hex "$w/long.nibble" 68 10 42 23 96 00 92 a0 50 49 92 05 00
expect 0 "$gdmap" il build "$w/long.json" --format nibble -o "$w/long.out"
same "$w/long.out" "$w/long.nibble"
has err "/methods/0/layout/nibbles/header.count"
# ... and its padding nibble set
method "$w/longpad.json" '"layout": { "nibbles": { "header.count": 2 }, "padding": 5 },'
hex "$w/longpad.nibble" 68 10 42 23 96 00 92 a0 50 49 92 05 50
expect 0 "$gdmap" il build "$w/longpad.json" --format nibble -o "$w/longpad.out"
same "$w/longpad.out" "$w/longpad.nibble"

# --- packed: wider widths (valid, not canonical), padding bits, header padding
method "$w/pad.json" '"layout": { "padding": 1 },'
hex "$w/pad.packed2" 36 03 42 48 83 61 82 16 d3 10
expect 0 "$gdmap" il build "$w/pad.json" --format packed2 -o "$w/pad.out"
same "$w/pad.out" "$w/pad.packed2"
method "$w/hpad.json" '"layout": { "headerPadding": 10 },'
hex "$w/hpad.packed2" 36 a3 42 48 83 61 82 16 d3 00
expect 0 "$gdmap" il build "$w/hpad.json" --format packed2 -o "$w/hpad.out"
same "$w/hpad.out" "$w/hpad.packed2"
method "$w/wide.json" '"layout": { "nativeBits": 8, "ilBits": 5 },'
expect 0 "$gdmap" il build "$w/wide.json" --format packed3 -o "$w/wide.packed3"
expect 0 "$gdmap" il check "$w/wide.packed3" --format packed3
has err "[il-wide-field]"

# --- trailing and truncate
method "$w/trail.json" '"layout": { "trailing": "de ad" },'
hex "$w/trail.nibble" 06 21 34 62 09 20 09 0a 95 24 59 00 de ad
expect 0 "$gdmap" il build "$w/trail.json" --format nibble -o "$w/trail.out"
same "$w/trail.out" "$w/trail.nibble"
method "$w/cut.json" '"layout": { "truncate": 11 },'
hex "$w/cut.nibble" 06 21 34 62 09 20 09 0a 95 24 59
expect 0 "$gdmap" il build "$w/cut.json" --format nibble -o "$w/cut.out"
same "$w/cut.out" "$w/cut.nibble"

# --- errors at their pointers; nothing written
method "$w/narrow.json" '"layout": { "nativeBits": 3 },'
expect 1 "$gdmap" il build "$w/narrow.json" --format packed2 -o "$w/narrow.out"
has err "/methods/0/bounds/5/native"
has err "[il-override-out-of-range]"
[ ! -e "$w/narrow.out" ] || fail "a failed build wrote an output"
expect 1 "$gdmap" il build "$w/count.json" --format api -o "$w/count.api"
has err "/methods/0/layout/count"
has err "[il-override-not-applicable]"
method "$w/past.json" '"layout": { "truncate": 99 },'
expect 1 "$gdmap" il build "$w/past.json" --format packed3 -o "$w/past.out"
has err "[truncate-past-end]"
method "$w/badkey.json" '"layout": { "nibbles": { "bounds[0].size": 2 } },'
expect 1 "$gdmap" il build "$w/badkey.json" --format nibble -o "$w/badkey.out"
has err "/methods/0/layout/nibbles/bounds[0].size"
has err "[unknown-key]"

# --- verify accepts what the layout builds
expect 0 "$gdmap" il verify "$w/long.json" "$w/long.nibble" --format nibble
has out "identical"

# --- dump of anything: the exit status, the warnings, and the bytes back
roundtrip() {  # roundtrip FORM FILE STATUS
  expect "$3" "$gdmap" il dump "$2" --format "$1" -o "$2.json"
  cp "$w/err" "$w/dumperr"
  expect 0 "$gdmap" il build "$2.json" --format "$1" -o "$2.rebuilt"
  same "$2.rebuilt" "$2"
}
# a canonical blob dumps as it always did: no layout
expect 0 "$gdmap" il build "$root/tests/cli/il/worked_example.json" --format packed3 --method 0x06000001 -o "$w/worked.packed3"
roundtrip packed3 "$w/worked.packed3" 0
jq -e '.methods[0] | has("layout") | not' "$w/worked.packed3.json" >/dev/null || fail "a canonical dump has a layout"
# valid, not canonical: exit 0, a warning, the layout says how
roundtrip nibble "$w/long.nibble" 0
has dumperr "warning: header.count"
jq -e '.methods[0].layout == {"nibbles": {"header.count": 2}}' "$w/long.nibble.json" >/dev/null ||
  fail "long.nibble's dump: $(cat "$w/long.nibble.json")"
# invalid: exit 1, the reader's error as a warning, and the bytes back
roundtrip nibble "$w/trail.nibble" 1
has dumperr "warning: trailing"
has dumperr "[il-trailing-bytes]"
jq -e '.methods[0].layout.trailing == "dead"' "$w/trail.nibble.json" >/dev/null ||
  fail "trail.nibble's dump: $(cat "$w/trail.nibble.json")"
roundtrip nibble "$w/cut.nibble" 1
roundtrip nibble "$w/count.nibble" 1
roundtrip packed2 "$w/pad.packed2" 1
roundtrip packed2 "$w/hpad.packed2" 1
roundtrip packed3 "$w/wide.packed3" 0
# an empty file, foreign bytes, a header that cannot be read: `raw`
: >"$w/empty.bin"
roundtrip nibble "$w/empty.bin" 1
roundtrip api "$w/empty.bin" 0
hex "$w/foreign.bin" 7f 45 4c 46 02 01 01 00 ff ff ff ff
for f in api nibble packed2 packed3; do
  status=0
  "$gdmap" il check "$w/foreign.bin" --format $f >/dev/null 2>&1 || status=$?
  roundtrip $f "$w/foreign.bin" $status
done
hex "$w/toolong.nibble" 88 88 88 88 88 18
roundtrip nibble "$w/toolong.nibble" 1
jq -e '.methods[0].raw == "888888888818"' "$w/toolong.nibble.json" >/dev/null ||
  fail "toolong.nibble's dump: $(cat "$w/toolong.nibble.json")"
# --json: valid, count, canonical, raw
expect 1 "$gdmap" il dump "$w/trail.nibble" --format nibble --json -o "$w/trail.json2"
is '.written == true and .valid == false and .count == null and .raw == false
    and .diagnostics[0].severity == "warning" and .diagnostics[0].rule == "il-trailing-bytes"'
expect 0 "$gdmap" il dump "$w/long.nibble" --format nibble --json -o "$w/long.json2"
is '.valid == true and .count == 6 and .canonical == false and .raw == false'
# nothing written: status 2
expect 2 "$gdmap" il dump "$w/no-such.bin" --format nibble

# --- random bytes: dump -> build is the identity for every form
for i in $(seq 1 40); do
  head -c $((i % 17)) /dev/urandom >"$w/r.bin"
  for f in api nibble packed2 packed3; do
    "$gdmap" il dump "$w/r.bin" --format $f -o "$w/r.json" 2>/dev/null || [ $? -eq 1 ] || fail "dump of random bytes failed"
    "$gdmap" il build "$w/r.json" --format $f -o "$w/r.rebuilt" 2>/dev/null || fail "dump of $(xxd -p "$w/r.bin") does not build"
    same "$w/r.rebuilt" "$w/r.bin"
  done
done

# A raw method has nothing to look up: il-raw-method, at the method's line
# and column, the pointer said once.
printf '{"methods": [\n  {"token": "0x06000001", "raw": "ff"}]}\n' >"$work/raw_lookup.json"
expect 1 "$gdmap" il lookup "$work/raw_lookup.json" --method 0x06000001
has err "raw_lookup.json:2:3: error: /methods/0: method 0x06000001: its blob is given verbatim"
has err "[il-raw-method]"
echo "il_overrides: ok"
