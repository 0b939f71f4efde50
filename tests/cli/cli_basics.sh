# The CLI's contract: sig vectors, stdin mode, exit statuses, diagnostics that
# say where, verify naming the first differing field, lookup, atomic output.
# Arguments: GDMAP SOURCE_ROOT BLOBS_DRIVER (see tests/CMakeLists.txt).
set -euo pipefail
gdmap=$1
root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli_test.bash"

# sig: the issue's vectors, both directions.
expect 0 "$gdmap" sig encode 'class 0x01000012<int32, !0[]>'
[ "$(cat "$work/out")" = 15124902081d1300 ] || fail "sig encode: $(cat "$work/out")"
expect 0 "$gdmap" sig decode '15 12 49 01 08'
[ "$(cat "$work/out")" = 'class 0x01000012<int32>' ] || fail "sig decode: $(cat "$work/out")"
status=0; "$gdmap" sig decode '15 12 49 01 08' '1D' >"$work/out" 2>"$work/err" || status=$?
[ "$status" -eq 1 ] || fail "sig decode with one bad operand exited $status"
[ "$(sed -n 1p "$work/out")" = 'class 0x01000012<int32>' ] || fail "first operand not converted"
[ -z "$(sed -n 2p "$work/out")" ] || fail "failed operand did not give an empty line"
has err "argument 2"

# Issue #20: ilasm's bytes for a `...` right after a nested vararg pointer,
# before a parameter of the outer list, which is where
# System.Reflection.Metadata reads it; the text with the `...` inside the
# nested list instead would give the same bytes, and is the located error.
issue20='method vararg class 0x0100000a<!0&, valuetype 0x01000007> *(method instance explicit vararg native uint *(class 0x01000009, uint8)*, ..., class 0x0100000a<method instance explicit unmanaged cdecl !1 *(uint32), string[-1...3,1...]>) modopt(0x01000008)'
issue20_hex=20211b050215122902101300111d0f1b65021912250541151229021b6101130109140e020105027f02
expect 0 "$gdmap" sig encode "$issue20"
[ "$(cat "$work/out")" = "$issue20_hex" ] || fail "sig encode of issue #20: $(cat "$work/out")"
expect 0 "$gdmap" sig decode "$issue20_hex"
[ "$(cat "$work/out")" = "$issue20" ] || fail "sig decode of issue #20: $(cat "$work/out")"
expect 1 "$gdmap" sig encode 'method vararg void *(method vararg void *(...), int32)'
has err "argument 1:1:43"
has err "[invalid-sentinel]"
has err "right before a parameter of the enclosing list"

# stdin mode: one result per line, failed lines empty, errors name the line and column.
printf 'int32\nint32[\nstring\n' | { "$gdmap" sig encode >"$work/out" 2>"$work/err" || echo $? >"$work/status"; }
[ "$(cat "$work/status")" = 1 ] || fail "stdin encode with a bad line did not exit 1"
[ "$(cat "$work/out")" = "$(printf '08\n\n0e')" ] || fail "stdin encode output: $(cat "$work/out")"
has err "stdin:2:7"

# Usage errors exit 2; --help exits 0.
expect 2 "$gdmap" frobnicate
expect 2 "$gdmap" check
expect 0 "$gdmap" --help
expect 0 "$gdmap" sig encode --help
expect 2 "$gdmap" check "$work/no-such-file"

# An input that cannot be mapped (a pipe, a device) is read.
"$gdmap" check /dev/stdin <"$root/examples/maps/basic.gdmap" >"$work/out" 2>"$work/err" || fail "check /dev/stdin: $(cat "$work/err")"
has out "valid (0 errors, 0 warnings)"
cat "$root/examples/maps/basic.gdmap" | "$gdmap" lookup /dev/stdin 0x1010 >"$work/out" || fail "lookup from a pipe"
[ "$(cat "$work/out")" = "$(printf 'string\nint32[]')" ] || fail "lookup from a pipe: $(cat "$work/out")"
# Problems of the command line and of files name their rule in text too.
expect 2 "$gdmap" lookup "$root/examples/maps/basic.gdmap" 0x1g
has err "[usage]"
expect 2 "$gdmap" check "$work/no-such-file"
has err "no-such-file: error: cannot open"
has err "[input-unreadable]"

# The parser's own usage errors are said as every diagnostic is (issue 20):
# "gdmap: error: ... [usage]", then where help is.
expect 2 "$gdmap" check
has err "gdmap: error: MAP is required [usage]"
has err "Run \`gdmap check --help\` for more information."
expect 2 "$gdmap" check "$root/examples/maps/basic.gdmap" extra
has err "gdmap: error: The following argument was not expected: extra [usage]"
expect 2 "$gdmap" sig
has err "gdmap: error: A subcommand is required [usage]"
has err "Run \`gdmap sig --help\`"
expect 2 "$gdmap" check --max-diagnostics -1 "$root/examples/maps/basic.gdmap"
has err "gdmap: error: --max-diagnostics: '-1' is not a count (a decimal number, 0 or more) [usage]"
expect 2 "$gdmap" il check "$root/examples/maps/basic.gdmap" --format nibble --max-diagnostics=-5
has err "is not a count"
# gdmap and gdmap il alone: their commands, a line each, and where help is.
expect 2 "$gdmap"
has err "usage: gdmap <command> [<args>]"
has err "  check     Validate a map against every rule of the format"
has err "Run \`gdmap <command> --help\`"
expect 2 "$gdmap" il
has err "usage: gdmap il <command> [<args>]"
has err "  extract   Write the IL-to-native bounds of every method of a ReadyToRun image, or of a .NET process (live or a core dump), as JSON"
# An I/O error is about its file: it starts the line.
expect 2 "$gdmap" build "$root/examples/maps/basic.json" -o "$work/no/such/folder/map.gdmap"
has err "$work/no/such/folder/map.gdmap: error: cannot create"
has err "[output-unwritable]"

# A 4-byte map claiming 2^31-1 entries is an error, not an allocation.
printf '\xff\xff\xff\x7f' >"$work/huge.gdmap"
expect 1 "$gdmap" check "$work/huge.gdmap"
has err "header"

# build refuses binary on a terminal only; '-' writes to a pipe.
if command -v script >/dev/null 2>&1; then
  status=0
  script -qec "'$gdmap' build '$root/examples/maps/basic.json'" /dev/null >"$work/tty" 2>&1 || status=$?
  [ "$status" -eq 2 ] || fail "build to a terminal exited $status, expected 2"
  grep -q "refusing to write a binary map to a terminal" "$work/tty" || fail "build to a terminal: $(cat "$work/tty")"
fi
"$gdmap" build "$root/examples/maps/basic.json" -o - | cmp - "$root/examples/maps/basic.gdmap" \
  || fail "build to stdout differs"

# A description error names file:line:col and the JSON pointer; nothing is written.
printf '{\n  "dictionaries": [\n    { "rva": 1, "types": ["int32<"] }\n  ]\n}\n' >"$work/bad.json"
expect 1 "$gdmap" build "$work/bad.json" -o "$work/bad.gdmap"
has err "bad.json:3:"
has err "/dictionaries/0/types/0"
[ ! -e "$work/bad.gdmap" ] || fail "build left an output behind after an error"
ls -A "$work" | grep -q '^\.gdmap-' && fail "build left a temporary file behind"

# verify names the first differing field with both values, and counts bytes.
cp "$root/examples/maps/basic.gdmap" "$work/changed.gdmap"
printf '\x04' | dd of="$work/changed.gdmap" bs=1 seek=$((0x0c)) conv=notrunc status=none
expect 1 "$gdmap" verify "$root/examples/maps/basic.json" "$work/changed.gdmap"
has err "directory[1].rva: expected 0x00001010, found 0x00001004"
has err "1 differing byte"
expect 1 "$gdmap" verify --json "$root/examples/maps/basic.json" "$work/changed.gdmap"
has out '"field": "directory[1].rva"'

# lookup: found, not found, RVA syntax.
expect 0 "$gdmap" lookup "$root/examples/maps/basic.gdmap" 0x1010
[ "$(cat "$work/out")" = "$(printf 'string\nint32[]')" ] || fail "lookup output: $(cat "$work/out")"
expect 0 "$gdmap" lookup "$root/examples/maps/basic.gdmap" 4096
[ "$(cat "$work/out")" = 'class 0x01000012<int32>' ] || fail "lookup by decimal RVA: $(cat "$work/out")"
expect 1 "$gdmap" lookup "$root/examples/maps/basic.gdmap" 0x1004
has err "no dictionary at RVA 0x00001004"
# A miss carries its rule in text as in JSON (issue 20).
has err "basic.gdmap: error: no dictionary at RVA 0x00001004 [rva-not-found]"
expect 2 "$gdmap" lookup "$root/examples/maps/basic.gdmap" 0x1g
# A broken item is an error naming the entry, the item and the byte.
expect 1 "$gdmap" lookup "$root/examples/maps/malformed-raw.gdmap" 0x2010
has err "directory[1] -> heap@0x3 (byte 0x00000020)"
# Bit 31 set, RVAs descending (0x2000, then 0x1000): never "no dictionary",
# but the rule and the field that breaks the order.
printf '\x02\x00\x00\x80\x00\x20\x00\x00\x00\x00\x00\x00\x00\x10\x00\x00\x00\x00\x00\x00\x04\x01\x08' >"$work/lying.gdmap"
expect 1 "$gdmap" lookup "$work/lying.gdmap" 0x1000
has err "directory[1].rva (byte 0x0000000c)"
has err "[rva-not-ascending]"

echo "cli basics: all checks passed"
