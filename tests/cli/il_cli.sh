# gdmap il: the six subcommands on the worked example of FORMAT.md §3
# (tests/cli/il/worked_example.json, the §3.4 description). Expected bytes
# are written here from FORMAT.md §3.1/§3.3, never taken from gdmap.
# Arguments: GDMAP SOURCE_ROOT BLOBS_DRIVER (see tests/CMakeLists.txt).
set -euo pipefail
gdmap=$1
root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli_test.bash"
command -v jq >/dev/null 2>&1 || { echo "SKIP: jq is needed to read the JSON"; exit 77; }

desc=$root/tests/cli/il/worked_example.json
w=$work
# hex FILE BYTES...: writes the bytes given as hex pairs.
hex() {
  local out=$1
  shift
  printf "$(printf '\\x%s' "$@")" >"$out"
}
# le32 N...: N as little-endian u32 escapes (for the api form).
le32() {
  local n
  for n in "$@"; do
    printf '\\x%02x\\x%02x\\x%02x\\x%02x' $((n & 255)) $((n >> 8 & 255)) $((n >> 16 & 255)) $((n >> 24 & 255))
  done
}
# is FILTER: the jq filter holds on the last stdout.
is() { jq -e "$1" "$w/out" >/dev/null || { cat "$w/out" >&2; fail "not true: $1"; }; }
same() { cmp -s "$1" "$2" || fail "$1 and $2 differ: $(xxd -p "$1") vs $(xxd -p "$2")"; }

# FORMAT.md §3.3 and §3.2: the worked example in each form (codeSize 40).
hex "$w/expected.nibble" 06 21 34 62 09 20 09 0a 95 24 59 00
hex "$w/expected.packed2" 36 03 42 48 83 61 82 16 d3 00
hex "$w/expected.packed3" 36 03 82 10 0d 0c 23 a8 62 34 00
PROLOG=0xFFFFFFFE EPILOG=0xFFFFFFFD
printf "$(le32 $PROLOG 0 4 0 4 10 5 10 17 9 17 30 $EPILOG 30 40)" >"$w/expected.api"
printf "$(le32 0 0 8)" >"$w/expected-m2.api"
forms="api nibble packed2 packed3"

# --- help
expect 0 "$gdmap" il --help
for sub in build dump check verify convert lookup; do has out "  $sub "; done
expect 0 "$gdmap" --help
has out "IL-to-native"

# --- build: each form, byte for byte
for f in $forms; do
  expect 0 "$gdmap" il build "$desc" --format "$f" --method 0x06000001 -o "$w/we.$f"
  same "$w/we.$f" "$w/expected.$f"
done
"$gdmap" il build "$desc" --format api --method 100663298 | cmp -s - "$w/expected-m2.api" ||
  fail "build of the map method (token in decimal)"
# the token in decimal, the description from stdin, the output to stdout
"$gdmap" il build - --format nibble --method 100663297 <"$desc" | cmp -s - "$w/expected.nibble" ||
  fail "build from stdin to stdout"
# several methods and no --method: usage, naming how many
expect 2 "$gdmap" il build "$desc" --format nibble -o "$w/x"
has err "2 methods"
has err "[usage]"
expect 1 "$gdmap" il build "$desc" --format nibble --method 0x06000009 -o "$w/x"
has err "no method 0x06000009"
has err "[il-method-not-found]"
# a verbatim map cannot be compressed
expect 1 "$gdmap" il build "$desc" --format packed2 --method 0x06000002 --json -o "$w/x"
is '.written == false and .diagnostics[0].rule == "il-map-not-compressible" and .diagnostics[0].path == "/methods/1/map"'
# located in the description's text, as the parser's own diagnostics are
is '.diagnostics[0].line == 10 and .diagnostics[0].column == 12'
[ ! -e "$w/x" ] || fail "a failed build wrote its output"
# bounds without codeSize: no api form; a flag packed2/packed3 cannot store
cat >"$w/nocs.json" <<'EOF'
{ "methods": [ { "token": "0x06000005",
  "bounds": [ { "native": 0, "il": 0 }, { "native": 2, "il": 1, "source": ["sequence_point"] } ] } ] }
EOF
expect 1 "$gdmap" il build "$w/nocs.json" --format api --json -o "$w/x"
is '.method == "0x06000005" and .diagnostics[0].rule == "il-code-size-required" and .diagnostics[0].path == "/methods/0"'
expect 1 "$gdmap" il build "$w/nocs.json" --format packed3 --json -o "$w/x"
is '.diagnostics[0].rule == "il-flag-not-storable" and .diagnostics[0].path == "/methods/0/bounds/1/source"
    and (.diagnostics[0].message | contains("sequence_point"))'
expect 0 "$gdmap" il build "$w/nocs.json" --format nibble -o "$w/x"
# the description is validated whole, whichever method is asked for
sed 's/"codeSize": 40,/"codeSize": 40, "colour": 1,/' "$desc" >"$w/badkey.json"
expect 1 "$gdmap" il build "$w/badkey.json" --format api --method 0x06000002 -o "$w/x"
has err "badkey.json:2:"
has err "/methods/0/colour"
has err "[unknown-key]"
expect 0 "$gdmap" il build "$desc" --format api --method 0x06000002 --json -o "$w/m2.api"
is '.written == true and .size == 12 and .method == "0x06000002" and .format == "api" and .diagnostics == []'
# --json with the output on stdout is a usage error
expect 2 "$gdmap" il build "$desc" --format api --json --method 0x06000002
is '.diagnostics[0].rule == "usage"'

# --- usage: forms, numbers, missing options, exclusive filters
expect 2 "$gdmap" il build "$desc" --format zip
has err "'zip' is not a form"
expect 2 "$gdmap" il build "$desc" --format nibble --method 0x1g
has err "'0x1g' is not a number"
expect 2 "$gdmap" il build "$desc" --format nibble --method 4294967296
expect 2 "$gdmap" il build "$desc"
expect 2 "$gdmap" il check "$w/we.nibble" --format nibble --json --frobnicate
is '.diagnostics[0].rule == "usage"'
expect 2 "$gdmap" il
expect 2 "$gdmap" il lookup "$desc" --method 0x06000001 --native 4 --il 0
expect 2 "$gdmap" il lookup "$desc" --method 0x06000001 --il 0x1q

# --- check
for f in $forms; do
  expect 0 "$gdmap" il check "$w/we.$f" --format "$f" --strict
  has out "we.$f: valid ($f, "
  has out "; canonical"
done
has out "6 bounds, 0 errors, 0 warnings"
expect 0 "$gdmap" il check "$w/we.api" --format api --json
is '.valid == true and .count == 5 and .canonical == true and .canonicalReasons == [] and .errors == 0'
# a trailing byte: the rule, the byte, the field
cp "$w/we.nibble" "$w/trailing.nibble"
printf '\x00' >>"$w/trailing.nibble"
expect 1 "$gdmap" il check "$w/trailing.nibble" --format nibble --json
is '.valid == false and .canonical == null and .diagnostics[0].rule == "il-trailing-bytes"
    and .diagnostics[0].offset == 12 and .diagnostics[0].path == "trailing"'
# non-zero padding bits after the last packed2 bound: a 2-byte header
# (count 6, widths 4 and 4), then 6 bounds of 2+4+4 bits end at bit 76;
# bits 76..79 (the high half of byte 9) are padding
cp "$w/we.packed2" "$w/padding.packed2"
printf '\x80' | dd of="$w/padding.packed2" bs=1 seek=9 conv=notrunc status=none
expect 1 "$gdmap" il check "$w/padding.packed2" --format packed2
has err "padding (byte 0x00000009)"
has err "bit 76"
has err "[il-nonzero-padding]"
# 13 bytes are no api array
head -c 13 "$w/we.api" >"$w/short.api"
expect 1 "$gdmap" il check "$w/short.api" --format api --json
is '.diagnostics[0].rule == "il-api-length" and .diagnostics[0].offset == 12 and .diagnostics[0].path == "entries[1]"'
# The worked example with its count 6 written in two nibbles (8, 6): every
# later nibble moves up by one. Valid, not canonical: --strict fails it.
hex "$w/noncanonical.nibble" 68 10 42 23 96 00 92 a0 50 49 92 05 00
expect 0 "$gdmap" il check "$w/noncanonical.nibble" --format nibble
has out "valid (nibble, 6 bounds, 0 errors, 1 warning); not canonical: header.count"
has err "[il-non-minimal-varint]"
expect 1 "$gdmap" il check "$w/noncanonical.nibble" --format nibble --strict --json
is '.valid == false and .canonical == false and .errors == 1
    and .canonicalReasons[0].rule == "il-non-minimal-varint" and .canonicalReasons[0].path == "header.count"
    and .diagnostics[0].severity == "error" and .diagnostics[0].offset == 0'
expect 2 "$gdmap" il check "$w/no-such.nibble" --format nibble --json
is '.valid == null and .diagnostics[0].rule == "input-unreadable"'
"$gdmap" il check - --format packed3 <"$w/we.packed3" >"$w/out" 2>"$w/err" || fail "check from stdin"
has out "stdin: valid (packed3, 6 bounds"

# --- dump: a description that builds back to the same bytes
for f in $forms; do
  expect 0 "$gdmap" il dump "$w/we.$f" --format "$f" --code-size 40 -o "$w/dump.$f.json"
  expect 0 "$gdmap" il build "$w/dump.$f.json" --format "$f" -o "$w/rebuilt.$f"
  same "$w/rebuilt.$f" "$w/expected.$f"
done
jq -e '.methods | length == 1 and .[0].token == "0x06000001" and .[0].codeSize == 40
       and (.[0].bounds | length) == 6 and .[0].bounds[0].il == "prolog"' "$w/dump.nibble.json" >/dev/null ||
  fail "dump of the nibble form: $(cat "$w/dump.nibble.json")"
jq -e '.methods[0].map | length == 5 and .[4].il == "epilog" and .[4].nativeEnd == 40' "$w/dump.api.json" >/dev/null ||
  fail "dump of the api form: $(cat "$w/dump.api.json")"
# from a compressed dump, the api form too (codeSize came from --code-size)
expect 0 "$gdmap" il build "$w/dump.packed3.json" --format api -o "$w/rebuilt-api"
same "$w/rebuilt-api" "$w/expected.api"
# --token, and no codeSize without --code-size
expect 0 "$gdmap" il dump "$w/we.packed2" --format packed2 --token 0x0600002a
jq -e '.methods[0].token == "0x0600002a" and (.methods[0] | has("codeSize") | not)' "$w/out" >/dev/null ||
  fail "dump --token: $(cat "$w/out")"
# not canonical: a warning per reason, still exit 0; the dump's layout
# rebuilds the very same bytes (docs/il-map.md "Dump of anything")
expect 0 "$gdmap" il dump "$w/noncanonical.nibble" --format nibble --json -o "$w/nc.json"
is '.written == true and .canonical == false and .count == 6 and .diagnostics[0].rule == "il-non-minimal-varint"
    and .diagnostics[0].severity == "warning" and .diagnostics[0].path == "header.count" and .diagnostics[0].offset == 0'
expect 0 "$gdmap" il build "$w/nc.json" --format nibble -o "$w/nc.rebuilt"
same "$w/nc.rebuilt" "$w/noncanonical.nibble"
# invalid: located warning, exit 1, and the exact description written anyway
expect 1 "$gdmap" il dump "$w/trailing.nibble" --format nibble -o "$w/trailing.json"
has err "[il-trailing-bytes]"
expect 0 "$gdmap" il build "$w/trailing.json" --format nibble -o "$w/trailing.rebuilt"
same "$w/trailing.rebuilt" "$w/trailing.nibble"

# --- verify
for f in $forms; do
  expect 0 "$gdmap" il verify "$desc" "$w/we.$f" --format "$f" --method 0x06000001
  has out "identical"
done
expect 0 "$gdmap" il verify "$desc" "$w/we.api" --format api --method 0x06000001 --json
is '.identical == true and .expectedSize == 60 and .actualSize == 60 and .firstOffset == null and .diagnostics == []'
# api: entries[2].nativeEndOffset (17) is at byte 32
cp "$w/we.api" "$w/changed.api"
printf '\x12' | dd of="$w/changed.api" bs=1 seek=32 conv=notrunc status=none
expect 1 "$gdmap" il verify "$desc" "$w/changed.api" --format api --method 0x06000001 --json
is '.identical == false and .firstOffset == 32 and .field == "entries[2].nativeEndOffset"
    and .diagnostics[0].rule == "map-differs" and .diagnostics[0].offset == 32
    and (.diagnostics[0].message | contains("expected 17, found 18"))'
# nibble: byte 2 holds bounds[1]'s native delta (4) in its low half
cp "$w/we.nibble" "$w/changed.nibble"
printf '\x35' | dd of="$w/changed.nibble" bs=1 seek=2 conv=notrunc status=none
expect 1 "$gdmap" il verify "$desc" "$w/changed.nibble" --format nibble --method 0x06000001
has err "bounds[1].native (byte 0x00000002)"
has err "expected 4, found 5"
has err "[map-differs]"
# the same bounds in other bytes
expect 1 "$gdmap" il verify "$desc" "$w/noncanonical.nibble" --format nibble --method 0x06000001 --json
is '.firstOffset == 0 and .field == "header.count" and .actualSize == 13
    and (.diagnostics[0].message | contains("same bounds, not canonical bytes"))'
# a blob that does not decode: its reader's error
expect 1 "$gdmap" il verify "$desc" "$w/trailing.nibble" --format nibble --method 0x06000001 --json
is '.identical == false and .firstOffset == 12 and any(.diagnostics[]; .rule == "il-trailing-bytes")'
expect 2 "$gdmap" il verify - - --format nibble
expect 1 "$gdmap" il verify "$desc" "$w/we.nibble" --format nibble --method 0x06000007 --json
is '.identical == null and .diagnostics[0].rule == "il-method-not-found"'

# --- convert: every pair that can be converted
for from in nibble packed2 packed3; do
  for to in nibble packed2 packed3; do
    expect 0 "$gdmap" il convert "$w/we.$from" --from "$from" --to "$to" -o "$w/conv"
    same "$w/conv" "$w/expected.$to"
  done
  expect 0 "$gdmap" il convert "$w/we.$from" --from "$from" --to api --code-size 0x28 -o "$w/conv"
  same "$w/conv" "$w/expected.api"
  # refused before the blob is read: the command line cannot work
  expect 2 "$gdmap" il convert "$w/we.$from" --from "$from" --to api -o "$w/conv2"
  has err "[il-code-size-required]"
  expect 2 "$gdmap" il convert "$w/we.api" --from api --to "$from" -o "$w/conv2"
  has err "[il-map-not-compressible]"
done
[ ! -e "$w/conv2" ] || fail "a refused convert wrote its output"
expect 0 "$gdmap" il convert "$w/we.api" --from api --to api --json -o "$w/conv"
is '.written == true and .count == 5 and .size == 60'
same "$w/conv" "$w/expected.api"
# the same form again gives the canonical bytes
expect 0 "$gdmap" il convert "$w/noncanonical.nibble" --from nibble --to nibble -o "$w/conv"
same "$w/conv" "$w/expected.nibble"
# a flag the target cannot store: an error naming the bound, never dropped
# (one bound: native 0, IL 0, sequence_point)
hex "$w/seqpoint.nibble" 01 13
expect 0 "$gdmap" il check "$w/seqpoint.nibble" --format nibble
expect 1 "$gdmap" il convert "$w/seqpoint.nibble" --from nibble --to packed2 --json -o "$w/conv3"
is '.written == false and .diagnostics[0].rule == "il-flag-not-storable" and .diagnostics[0].path == "bounds[0].source"'
[ ! -e "$w/conv3" ] || fail "a failed convert wrote its output"
# the input is validated first
expect 1 "$gdmap" il convert "$w/trailing.nibble" --from nibble --to packed3 -o "$w/conv3"
has err "[il-trailing-bytes]"

# --- lookup: the two-call protocol
expect 0 "$gdmap" il lookup "$desc" --method 0x06000001
has out "0x06000001: S_OK, count 5"
[ "$(grep -cE '^(prolog|0x0|0x5|0x9|epilog) ' "$w/out")" -eq 5 ] || fail "lookup table rows: $(cat "$w/out")"
# text gives every offset in hex, IL and native alike (issue 20)
grep -qE '^0x5 +0xa +0x11$' "$w/out" || fail "lookup row of IL 0x5: $(cat "$w/out")"
grep -qE '^epilog +0x1e +0x28$' "$w/out" || fail "lookup row of the epilog: $(cat "$w/out")"
expect 0 "$gdmap" il lookup "$desc" --method 0x06000001 --json
is '.hr == "S_OK" and .count == 5 and .truncated == false and .diagnostics == []
    and .entries == [{"il": "prolog", "nativeStart": 0, "nativeEnd": 4}, {"il": 0, "nativeStart": 4, "nativeEnd": 10},
                     {"il": 5, "nativeStart": 10, "nativeEnd": 17}, {"il": 9, "nativeStart": 17, "nativeEnd": 30},
                     {"il": "epilog", "nativeStart": 30, "nativeEnd": 40}]'
# truncated: *pcMap stays the full count
expect 0 "$gdmap" il lookup "$desc" --method 0x06000001 --capacity 2 --json
is '.hr == "S_OK" and .count == 5 and .truncated == true and .capacity == 2 and (.entries | length) == 2
    and .entries[1].il == 0'
expect 0 "$gdmap" il lookup "$desc" --method 0x06000001 --capacity 0 --json
is '.count == 5 and .truncated == true and .entries == []'
expect 0 "$gdmap" il lookup "$desc" --method 0x06000001 --capacity 2
has out "truncated"
# unknown token: E_FAIL, exit 1
expect 1 "$gdmap" il lookup "$desc" --method 0x06000003 --json
is '.hr == "E_FAIL" and .entries == [] and .diagnostics[0].rule == "il-method-not-found"'
expect 1 "$gdmap" il lookup "$desc" --method 0x06000003
has out "E_FAIL"
# filters: an instruction pointer, an IL offset (number or special name)
expect 0 "$gdmap" il lookup "$desc" --method 0x06000001 --native 12 --json
is '.count == 5 and .entries == [{"il": 5, "nativeStart": 10, "nativeEnd": 17}]'
expect 0 "$gdmap" il lookup "$desc" --method 0x06000001 --native 0x1e --json
is '.entries == [{"il": "epilog", "nativeStart": 30, "nativeEnd": 40}]'
expect 0 "$gdmap" il lookup "$desc" --method 0x06000001 --native 40 --json
is '.hr == "S_OK" and .entries == [] and (.diagnostics | length) == 1
    and .diagnostics[0].severity == "note" and .diagnostics[0].rule == "il-native-past-code"
    and .diagnostics[0].path == "/methods/0/codeSize"
    and (.diagnostics[0].message | contains("native offset 0x28 is past the code of method 0x06000001 (codeSize 0x28)"))'
# in the code but between entries: no note
expect 0 "$gdmap" il lookup "$desc" --method 0x06000001 --native 39 --json
is '.entries == [{"il": "epilog", "nativeStart": 30, "nativeEnd": 40}] and .diagnostics == []'
expect 0 "$gdmap" il lookup "$desc" --method 0x06000001 --native 0x100
has out "0 matching"
has err "note: /methods/0/codeSize: native offset 0x100 is past the code of method 0x06000001 (codeSize 0x28)"
has err "[il-native-past-code]"
expect 0 "$gdmap" il lookup "$desc" --method 0x06000001 --il prolog --json
is '.entries == [{"il": "prolog", "nativeStart": 0, "nativeEnd": 4}]'
expect 0 "$gdmap" il lookup "$desc" --method 0x06000001 --il 0x9 --json
is '.entries == [{"il": 9, "nativeStart": 17, "nativeEnd": 30}]'
expect 0 "$gdmap" il lookup "$desc" --method 0x06000002 --json
is '.count == 1 and .entries == [{"il": 0, "nativeStart": 0, "nativeEnd": 8}]'
# one method: --method may be left out; an array emptied by the trim is
# still S_OK with count 0
cat >"$w/callonly.json" <<'EOF'
{ "methods": [ { "token": "0x06000010", "codeSize": 8,
  "bounds": [ { "native": 0, "il": 3, "source": ["call_instruction"] } ] } ] }
EOF
expect 0 "$gdmap" il lookup "$w/callonly.json" --json
is '.method == "0x06000010" and .hr == "S_OK" and .count == 0 and .entries == []'
# Several methods and no --method: every method's array (issue 29).
expect 0 "$gdmap" il lookup "$desc" --json
is '(.methods | length) == 2 and .methods[0].method == "0x06000001" and .methods[0].hr == "S_OK" and .method == null'
# the table needs every bounds method's codeSize
expect 1 "$gdmap" il lookup "$w/nocs.json" --json
is '.diagnostics[0].rule == "il-code-size-required" and .diagnostics[0].path == "/methods/0"'

# --- -o: atomic, never over its input, binary refused on a terminal
cp "$desc" "$w/desc.json"
expect 2 "$gdmap" il build "$w/desc.json" --format api --method 0x06000002 -o "$w/desc.json"
has err "[output-is-input]"
same "$w/desc.json" "$desc"
cp "$w/we.nibble" "$w/keep.nibble"
expect 2 "$gdmap" il convert "$w/keep.nibble" --from nibble --to nibble -o "$w/./keep.nibble"
has err "[output-is-input]"
expect 2 "$gdmap" il dump "$w/keep.nibble" --format nibble -o "$w/keep.nibble"
has err "[output-is-input]"
same "$w/keep.nibble" "$w/expected.nibble"
# a failed build leaves an existing output as it was
printf 'previous' >"$w/existing"
expect 1 "$gdmap" il build "$desc" --format nibble --method 0x06000002 -o "$w/existing"
[ "$(cat "$w/existing")" = previous ] || fail "a failed build changed an existing output"
if command -v script >/dev/null 2>&1; then
  status=0
  script -qec "'$gdmap' il build '$desc' --format nibble --method 0x06000001" /dev/null >"$w/tty" 2>&1 || status=$?
  [ "$status" -eq 2 ] || fail "il build to a terminal exited $status, expected 2"
  grep -q "binary-to-terminal" "$w/tty" || fail "il build to a terminal: $(cat "$w/tty")"
fi
# a blob that differs and does not decode: map-differs names where it stops decoding
python3 -c "import sys; b = bytearray(open(sys.argv[1], 'rb').read()); b[-1] |= 0xF0; open(sys.argv[2], 'wb').write(b)" \
  "$w/we.nibble" "$w/bad-padding.nibble"
expect 1 "$gdmap" il verify "$desc" "$w/bad-padding.nibble" --format nibble --method 0x06000001 --json
is '.identical == false and .field == "bounds[5].source" and (.diagnostics | map(.rule) | index("map-differs")) != null'
# ... and the field it names is the one the first differing byte is in,
# not where the blob stops decoding (issue 20): byte 1's high nibble is
# bounds[0].source, the truncation is in bounds[5].source.
python3 -c "import sys; b = bytearray(open(sys.argv[1], 'rb').read()); b[1] = 0x31; b[-1] |= 0xF0; open(sys.argv[2], 'wb').write(b)" \
  "$w/we.nibble" "$w/early.nibble"
expect 1 "$gdmap" il verify "$desc" "$w/early.nibble" --format nibble --method 0x06000001 --json
is '.firstOffset == 1 and .field == "bounds[0].source"
    and any(.diagnostics[]; .rule == "map-differs" and .path == "bounds[0].source" and .offset == 1)
    and any(.diagnostics[]; .rule == "il-truncated" and .path == "bounds[5].source")'
expect 1 "$gdmap" il verify "$desc" "$w/early.nibble" --format nibble --method 0x06000001
has err "bounds[0].source (byte 0x00000001): differs from the nibble bytes"
echo "il cli: ok"
