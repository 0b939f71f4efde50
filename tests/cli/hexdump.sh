# gdmap hexdump: the text of basic.gdmap line by line; --json ranges that
# tile every example, a truncated and an empty file, and maps with bytes
# overwritten, exactly; broken bytes marked with their rule; exit statuses.
# Arguments: GDMAP SOURCE_ROOT BLOBS_DRIVER (see tests/CMakeLists.txt).
set -euo pipefail
gdmap=$1
examples=$2/examples/maps
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
command -v python3 >/dev/null || { echo "python3 missing: skipped"; exit 77; }

# 1. The text form of basic.gdmap: docs/format.md's annotated example.
"$gdmap" hexdump "$examples/basic.gdmap" >"$work/basic.txt" || fail "hexdump of a valid map did not exit 0"
cat >"$work/basic.expected" <<'EOF'
  offset    bytes           field                meaning
  00000000  03 00 00 80     header.count         count 3, sorted (bit 31 set)
  00000004  00 10 00 00     directory[0].rva     RVA 0x00001000
  00000008  00 00 00 00     directory[0].offset  -> heap@0x0
  0000000c  10 10 00 00     directory[1].rva     RVA 0x00001010
  00000010  07 00 00 00     directory[1].offset  -> heap@0x7
  00000014  20 10 00 00     directory[2].rva     RVA 0x00001020
  00000018  00 00 00 00     directory[2].offset  -> heap@0x0 (shared with directory[0])
  0000001c  06              heap@0x0.length      length 6
  0000001d  01              heap@0x0.count       1 type
  0000001e  15 12 49 01 08  heap@0x0.type[0]     class 0x01000012<int32>
  00000023  04              heap@0x7.length      length 4
  00000024  02              heap@0x7.count       2 types
  00000025  0e              heap@0x7.type[0]     string
  00000026  1d 08           heap@0x7.type[1]     int32[]
EOF
diff -u "$work/basic.expected" "$work/basic.txt" || fail "hexdump text of basic.gdmap differs"
# The same from stdin.
"$gdmap" hexdump - <"$examples/basic.gdmap" | cmp - "$work/basic.txt" || fail "hexdump of stdin differs"

# 2. Broken bytes are marked, in text with '!' and the rule; exit 1.
status=0
"$gdmap" hexdump "$examples/malformed-raw.gdmap" >"$work/bad.txt" 2>"$work/bad.err" || status=$?
[ "$status" -eq 1 ] || fail "hexdump of an invalid map exited $status, expected 1"
grep -q '^! 00000020  00 .*heap@0x3.count .*\[zero-type-count\]$' "$work/bad.txt" || fail "zero type count not marked"
grep -q '^! 00000023  1d 1d .*heap@0x5.type\[0\] .*\[truncated-signature\]$' "$work/bad.txt" ||
  fail "truncated type not marked"
grep -q 'zero-type-count' "$work/bad.err" || fail "the diagnostics are not on stderr"

# A long unreachable range wraps 16 bytes a line and is marked '?'.
python3 - "$examples/basic.gdmap" "$work/gap.gdmap" <<'PY'
import sys
data = open(sys.argv[1], 'rb').read()
open(sys.argv[2], 'wb').write(data + bytes(range(20)))
PY
"$gdmap" hexdump "$work/gap.gdmap" >"$work/gap.txt" 2>/dev/null || true
grep -q '^? 00000028  00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f  heap@0xc .*\[unreachable-heap-bytes\]$' \
  "$work/gap.txt" || fail "unreachable bytes not marked '?'"
grep -q '^? 00000038  10 11 12 13$' "$work/gap.txt" || fail "a long range does not wrap at 16 bytes"

# 3. --json ranges tile the file exactly, for every example, mutated maps,
#    a truncated and an empty file.
: >"$work/empty.gdmap"
head -c 30 "$examples/basic.gdmap" >"$work/truncated.gdmap"
printf '\377\377\377\177\000\020\000\000\005\000\000\000\252\273\314' >"$work/hostile.gdmap"
python3 - "$examples/basic.gdmap" "$examples/every-type-form.gdmap" "$work" <<'PY'
import random, sys
rng = random.Random(10)
for source in sys.argv[1:3]:
    data = bytearray(open(source, 'rb').read())
    for i in range(40):
        m = bytearray(data)
        for _ in range(rng.randint(1, 3)):
            m[rng.randrange(len(m))] = rng.randrange(256)
        if i % 4 == 0:
            del m[rng.randrange(len(m)):]
        open('%s/mutated-%s-%d.gdmap' % (sys.argv[3], source.rsplit('/', 1)[1], i), 'wb').write(m)
PY
# One python run checks every output (one per map: map, JSON, exit status).
: >"$work/outputs"
i=0
for map in "$examples"/*.gdmap "$work"/*.gdmap; do
  status=0
  "$gdmap" hexdump --json "$map" >"$work/out.$i.json" 2>/dev/null || status=$?
  [ "$status" -le 1 ] || fail "$map: hexdump --json exited $status"
  printf '%s\t%s\t%s\n' "$map" "$work/out.$i.json" "$status" >>"$work/outputs"
  i=$((i + 1))
done
[ "$i" -ge 80 ] || fail "only $i maps dumped"
python3 - "$work/outputs" <<'PY' || fail "the ranges do not tile a file (see above)"
import json, sys
checked = 0
for line in open(sys.argv[1]):
    checked += 1
    name, output, status = line.rstrip("\n").split("\t")
    data = open(name, 'rb').read()
    out = json.load(open(output))
    try:
        assert out["size"] == len(data), "size"
        assert out["valid"] == (status == "0"), "valid vs exit status"
        at = 0
        for r in out["ranges"]:
            assert r["offset"] == at and r["length"] > 0 and r["path"], r
            assert bytes.fromhex(r["hex"]) == data[at:at + r["length"]], r
            assert r["status"] in ("ok", "unreachable", "warning", "error"), r
            assert (r["status"] == "ok") == ("rule" not in r), r
            at += r["length"]
        assert at == len(data), "ranges end at %d of %d" % (at, len(data))
        if not out["valid"] and data:
            assert any(r["status"] == "error" for r in out["ranges"]), "an invalid map with no byte marked"
    except AssertionError as e:
        sys.exit("%s: %s" % (name, e))
assert checked >= 80, checked
PY
grep -q '"rule": "stream-too-short"' <("$gdmap" hexdump --json "$work/empty.gdmap" || true) ||
  fail "empty file: no stream-too-short"
grep -q '"path": "directory\[1\]", .*"rule": "directory-truncated"' <("$gdmap" hexdump --json "$work/hostile.gdmap" || true) ||
  fail "hostile count: the entry cut short is not marked"

# 4. gdmap il hexdump: bit ranges of docs/il-map.md's worked example in each
#    form, and of blobs with bits flipped or cut, tile the blob exactly.
il=$2/examples/il/worked_example.json
for form in api nibble packed2 packed3; do
  "$gdmap" il build "$il" --method 0x06000001 --format "$form" -o "$work/worked.$form"
  "$gdmap" il hexdump "$work/worked.$form" --format "$form" >"$work/il.$form.txt" ||
    fail "il hexdump of the valid $form blob did not exit 0"
done
grep -q '^  00000008  4    8     95 24 *bounds\[4\].il *stored 12 = il+3: il 0x9 (2 nibbles)$' "$work/il.nibble.txt" ||
  fail "il hexdump nibble: bounds[4].il (nibbles 17-18) not as docs/il-map.md shows it"
grep -q '^  00000002  6    4     42 48 *bounds\[0\].il *stored 1 = il+3: il prolog$' "$work/il.packed2.txt" ||
  fail "il hexdump packed2: bounds[0].il (bits 22-25) not as docs/il-map.md shows it"
grep -q '^  0000000a  2    6     00 *padding *6 bits, zero$' "$work/il.packed3.txt" ||
  fail "il hexdump packed3: the padding bits 82-87 not shown"
# Issue 20: a source varint of four nibbles is shown whole (01 b3 bd 00:
# source 0x758, as il check says), not as its low byte.
printf '\001\263\275\000' >"$work/source.nibble"
"$gdmap" il hexdump "$work/source.nibble" --format nibble >"$work/source.txt" 2>/dev/null || true
grep -q '^! 00000001  4    16    b3 bd 00 *bounds\[0\]\.source *0x758: native_end_offset_unknown|call_instruction|' \
  "$work/source.txt" || { cat "$work/source.txt" >&2; fail "il hexdump: source 0x758 not shown whole"; }
# A field of six bytes (an 11-nibble varint) keeps the field column clear:
# every field starts where the header's "field" does.
printf '\001\373\377\377\377\377\007' >"$work/wide.nibble"
"$gdmap" il hexdump "$work/wide.nibble" --format nibble >"$work/wide.txt"
grep -q '  fb ff ff ff ff 07  bounds\[0\]\.il ' "$work/wide.txt" || { cat "$work/wide.txt" >&2; fail "il hexdump: 6 bytes run into the field"; }
python3 - "$work/wide.txt" <<'PY' || fail "il hexdump: the field column is not aligned"
import sys
lines = open(sys.argv[1]).read().splitlines()
column = lines[0].index("field")
for line in lines[1:]:
    assert line[column - 2:column] == "  " and line[column] != " ", line
PY
python3 - "$work" <<'PY'
import random, sys
rng = random.Random(8)
for form in ("api", "nibble", "packed2", "packed3"):
    data = bytearray(open("%s/worked.%s" % (sys.argv[1], form), "rb").read())
    for i in range(25):
        m = bytearray(data)
        for _ in range(rng.randint(1, 2)):
            m[rng.randrange(len(m))] ^= 1 << rng.randrange(8)
        if i % 3 == 0:
            del m[rng.randrange(len(m) + 1):]
        open("%s/il-%d.%s" % (sys.argv[1], i, form), "wb").write(m)
PY
: >"$work/il-outputs"
for blob in "$work"/worked.* "$work"/il-*.*; do
  form=${blob##*.}
  status=0
  "$gdmap" il hexdump --json "$blob" --format "$form" >"$blob.json" 2>/dev/null || status=$?
  [ "$status" -le 1 ] || fail "$blob: il hexdump --json exited $status"
  printf '%s\t%s\n' "$blob" "$status" >>"$work/il-outputs"
done
python3 - "$work/il-outputs" <<'PY' || fail "il hexdump: the bit ranges do not tile a blob (see above)"
import json, sys
checked = 0
for line in open(sys.argv[1]):
    name, status = line.rstrip("\n").split("\t")
    data = open(name, "rb").read()
    out = json.load(open(name + ".json"))
    bit = 0
    for r in out["ranges"]:
        assert r["bit"] == bit and r["bits"] > 0 and r["path"], (name, r)
        assert r["offset"] == bit // 8 and r["offset"] + r["length"] == (bit + r["bits"] + 7) // 8, (name, r)
        assert bytes.fromhex(r["hex"]) == data[r["offset"]:r["offset"] + r["length"]], (name, r)
        bit += r["bits"]
    assert bit == 8 * len(data), (name, bit)
    assert out["valid"] == (status == "0"), name
    if not out["valid"] and data:
        assert any(r["status"] == "error" for r in out["ranges"]), (name, "invalid, nothing marked")
    checked += 1
assert checked >= 100, checked
PY
status=0
printf '\x36\x03\x42\x48\x83\x61\x82\x16\xd3\x80' >"$work/bad.packed2"
"$gdmap" il hexdump "$work/bad.packed2" --format packed2 >"$work/bad.il.txt" 2>/dev/null || status=$?
[ "$status" -eq 1 ] || fail "il hexdump of an invalid blob exited $status, expected 1"
grep -q '^! 00000009  4    4     80 *padding .*\[il-nonzero-padding\]$' "$work/bad.il.txt" ||
  fail "il hexdump: nonzero padding bits not marked"

# 5. A missing file is an I/O error (exit 2).
status=0
"$gdmap" hexdump "$work/no-such.gdmap" >/dev/null 2>&1 || status=$?
[ "$status" -eq 2 ] || fail "missing file exited $status, expected 2"
echo "hexdump: ok"
