# Scale (issue #8): `gdmap il` on a method of 10^6 bounds and on a
# description of 10^5 methods: build, check, convert, verify, dump and lookup
# succeed and give the sizes and answers the generator implies. Sizes and
# results, no clock (bench/ has the times: gdmap_bench --only il).
# A header claiming 2^32-1 bounds is refused at the count.
# Arguments: GDMAP SOURCE_ROOT BLOBS_DRIVER (see tests/CMakeLists.txt).
# GDMAP_IL_SCALE_DIVISOR divides both sizes (default 1; 10 when gdmap is
# built with AddressSanitizer, which makes it several times slower).
set -euo pipefail
gdmap=$1
root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$root/tests/cli/lib/cli_test.bash"

divisor=${GDMAP_IL_SCALE_DIVISOR:-1}
if [ -z "${GDMAP_IL_SCALE_DIVISOR:-}" ] && ldd "$gdmap" 2>/dev/null | grep libasan >/dev/null; then divisor=10; fi
n=$((1000000 / divisor))   # bounds of the big method
m=$((100000 / divisor))    # methods of the big description

size() { wc -c <"$1" | tr -d ' '; }
bitlen() { local v=$1 b=0; while [ "$v" -gt 0 ]; do v=$((v >> 1)); b=$((b + 1)); done; echo $((b > 0 ? b : 1)); }
nibbles() { echo $((($(bitlen "$1") + 2) / 3)); }  # a nibble varint holds 3 bits a nibble
same() { cmp -s "$1" "$2" || fail "$1 and $2 differ ($(size "$1") and $(size "$2") bytes)"; }

# --- one method of n bounds ------------------------------------------------
# Bound 0 is the prolog at 0; bound i (1..n-2) is at 4i, IL 2i, except every
# tenth, a call_instruction at the IL of the bound before it; the last is
# the epilog. Nothing merges, every call entry sorts last and is trimmed:
# the API array has n - calls entries.
awk -v n="$n" 'BEGIN {
  printf "{\"methods\":[{\"token\":\"0x06000001\",\"codeSize\":%d,\"bounds\":[\n", 4 * n
  printf "{\"native\":0,\"il\":\"prolog\",\"source\":[\"stack_empty\"]},\n"
  for (i = 1; i < n - 1; i++) {
    if (i % 10 == 0) printf "{\"native\":%d,\"il\":%d,\"source\":[\"call_instruction\"]},\n", 4 * i, 2 * (i - 1)
    else printf "{\"native\":%d,\"il\":%d},\n", 4 * i, 2 * i
  }
  printf "{\"native\":%d,\"il\":\"epilog\"}]}]}\n", 4 * (n - 1)
}' >"$work/big.json"
calls=$(((n - 2) / 10))
entries=$((n - calls))

for form in api nibble packed2 packed3; do
  expect 0 "$gdmap" il build "$work/big.json" --format "$form" -o "$work/big.$form"
done
[ "$(size "$work/big.api")" -eq $((12 * entries)) ] || fail "big.api is $(size "$work/big.api") bytes, expected $((12 * entries))"
# Packed: the header's three varints (count, nativeBits-1, ilBits-1) padded
# to a byte, then n entries of S + 3 + ilBits bits (deltas are 4; the
# largest stored IL is 2(n-2) + 3).
il_bits=$(bitlen $((2 * (n - 2) + 3)))
header=$((($(nibbles "$n") + 1 + $(nibbles $((il_bits - 1))) + 1) / 2))
for s in 2 3; do
  want=$((header + (n * (s + 3 + il_bits) + 7) / 8))
  [ "$(size "$work/big.packed$s")" -eq "$want" ] || fail "big.packed$s is $(size "$work/big.packed$s") bytes, expected $want"
done
# Nibble: 3 to 2 + nibbles(largest IL) + 2 nibbles a bound.
low=$((3 * n / 2))
high=$(((2 + $(nibbles $((2 * n))) + 2) * n / 2 + 8))
got=$(size "$work/big.nibble")
[ "$got" -ge "$low" ] && [ "$got" -le "$high" ] || fail "big.nibble is $got bytes, expected $low..$high"

for form in nibble packed2 packed3; do
  expect 0 "$gdmap" il check "$work/big.$form" --format "$form" --strict
done
expect 0 "$gdmap" il check "$work/big.api" --format api
expect 0 "$gdmap" il verify "$work/big.json" "$work/big.packed3" --format packed3
expect 0 "$gdmap" il verify "$work/big.json" "$work/big.api" --format api

# Every conversion gives what build gives.
expect 0 "$gdmap" il convert "$work/big.nibble" --from nibble --to packed2 -o "$work/conv.packed2"
same "$work/conv.packed2" "$work/big.packed2"
expect 0 "$gdmap" il convert "$work/big.packed2" --from packed2 --to packed3 -o "$work/conv.packed3"
same "$work/conv.packed3" "$work/big.packed3"
expect 0 "$gdmap" il convert "$work/big.packed3" --from packed3 --to nibble -o "$work/conv.nibble"
same "$work/conv.nibble" "$work/big.nibble"
expect 0 "$gdmap" il convert "$work/big.nibble" --from nibble --to api --code-size $((4 * n)) -o "$work/conv.api"
same "$work/conv.api" "$work/big.api"

# dump -> build is the identity on the writer's bytes.
expect 0 "$gdmap" il dump "$work/big.packed2" --format packed2 --code-size $((4 * n)) -o "$work/dump.json"
expect 0 "$gdmap" il build "$work/dump.json" --format packed2 -o "$work/rebuilt.packed2"
same "$work/rebuilt.packed2" "$work/big.packed2"

# The IP in the middle of bound k (ordinary) maps to IL 2k alone.
k=$((n / 2 + 1))
[ $((k % 10)) -ne 0 ] || k=$((k + 1))
expect 0 "$gdmap" il lookup "$work/big.json" --native $((4 * k + 1)) --json
has out "\"count\": $entries"
has out "{\"il\": $((2 * k)), \"nativeStart\": $((4 * k)), \"nativeEnd\": $((4 * k + 4))}"
[ "$(grep -c '"il":' "$work/out")" -eq 1 ] || fail "lookup --native found $(grep -c '"il":' "$work/out") entries, expected 1"

# --- a description of m methods ---------------------------------------------
# All alike: prolog, IL 0, a call at IL 3, IL 6, epilog; codeSize 20. The
# API array: prolog 0-4, 0 4-12, 6 12-16, epilog 16-20 (the call trimmed).
awk -v m="$m" 'BEGIN {
  printf "{\"methods\":[\n"
  for (j = 0; j < m; j++) {
    printf "{\"token\":\"0x%08x\",\"codeSize\":20,\"bounds\":[{\"native\":0,\"il\":\"prolog\"},", 100663297 + j
    printf "{\"native\":4,\"il\":0,\"source\":[\"stack_empty\"]},{\"native\":8,\"il\":3,\"source\":[\"call_instruction\"]},"
    printf "{\"native\":12,\"il\":6},{\"native\":16,\"il\":\"epilog\"}]}%s\n", j + 1 < m ? "," : ""
  }
  printf "]}\n"
}' >"$work/many.json"
last=$(printf '0x%08x' $((0x06000001 + m - 1)))

expect 0 "$gdmap" il build "$work/many.json" --format packed3 --method 0x06000001 -o "$work/first.packed3"
expect 0 "$gdmap" il build "$work/many.json" --format packed3 --method "$last" -o "$work/last.packed3"
same "$work/first.packed3" "$work/last.packed3"
expect 0 "$gdmap" il build "$work/many.json" --format api --method "$last" -o "$work/last.api"
[ "$(size "$work/last.api")" -eq 48 ] || fail "last.api is $(size "$work/last.api") bytes, expected 48"
expect 0 "$gdmap" il check "$work/last.packed3" --format packed3 --strict
expect 0 "$gdmap" il verify "$work/many.json" "$work/last.packed3" --format packed3 --method "$last"
expect 0 "$gdmap" il convert "$work/last.packed3" --from packed3 --to api --code-size 20 -o "$work/last.conv.api"
same "$work/last.conv.api" "$work/last.api"
expect 0 "$gdmap" il lookup "$work/many.json" --method "$last" --native 9 --json
has out '"count": 4'
has out '{"il": 0, "nativeStart": 4, "nativeEnd": 12}'

# The whole description is validated whichever method is asked for: the
# first method's token again at the very end is found.
sed '$d' "$work/many.json" | sed '$s/$/,/' >"$work/dup.json"
printf '{"token":"0x06000001","map":[]}\n]}\n' >>"$work/dup.json"
expect 1 "$gdmap" il lookup "$work/dup.json" --method "$last" --json
has out '"il-duplicate-token"'
has out "/methods/$m/token"

# --- a count of 2^32-1 --------------------------------------------------------
# The varint 0xFFFFFFFF (fb ff ff ff ff 07), then a MiB of zero bytes that a
# reader trusting the count would start decoding as bounds.
{ printf '\xfb\xff\xff\xff\xff\x07'; head -c 1048576 /dev/zero; } >"$work/huge-count.nibble"
expect 1 "$gdmap" il check "$work/huge-count.nibble" --format nibble --json
has out '"il-count-exceeds-bytes"'
has out '"header.count"'
echo "il_scale: $n bounds, $m methods: ok"
