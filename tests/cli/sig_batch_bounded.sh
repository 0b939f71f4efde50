# `gdmap sig encode|decode` over stdin costs a bounded report whatever the
# input (issue #7, defect 4): at most 100 diagnostics are listed, the rest
# are counted in a final too-many-diagnostics note, no input line is echoed
# (an 8 MiB line gives a message of a few dozen bytes), and every line still
# gets its result line. Sizes, not times: the checks are on bytes and counts.
# Arguments: GDMAP SOURCE_ROOT BLOBS_DRIVER (see tests/CMakeLists.txt).
set -euo pipefail
gdmap=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

pairs=20000        # a good line and a bad line each
big=$((8 << 20))   # bytes in each of the two huge lines
listed=100

# 20000 x (good, bad) lines, then two huge bad lines: one that is not a type
# at its first character, one whose long name is the error.
{
  for ((i = 0; i < pairs; i++)); do printf 'int32\nint32<\n'; done
  head -c "$big" /dev/zero | tr '\0' 'x'; echo
  printf 'class '; head -c "$big" /dev/zero | tr '\0' 'y'; echo
} >"$work/types.txt"
lines=$((2 * pairs + 2))
bad=$((pairs + 2))

status=0
"$gdmap" sig encode <"$work/types.txt" >"$work/out" 2>"$work/err" || status=$?
[ "$status" -eq 1 ] || fail "sig encode with bad lines exited $status, expected 1"
[ "$(wc -l <"$work/out")" -eq "$lines" ] || fail "expected $lines result lines, got $(wc -l <"$work/out")"
[ "$(grep -c '^08$' "$work/out")" -eq "$pairs" ] || fail "not every good line was converted"
[ "$(grep -c ': error: ' "$work/err")" -eq "$listed" ] || fail "expected $listed listed errors, got $(grep -c ': error: ' "$work/err")"
grep -qF "stdin: note: $((bad - listed)) more problem(s) not listed, after the first $listed; $bad error(s) and 0 warning(s) in all [too-many-diagnostics]" \
  "$work/err" || { tail -2 "$work/err" >&2; fail "no summary counting the errors not listed"; }
# 100 lines of at most a few hundred bytes: nothing of the 16 MiB echoed.
size=$(wc -c <"$work/err")
[ "$size" -lt 32768 ] || fail "stderr is $size bytes for $bad errors"

# The same in JSON: 100 listed + the note, counts of items and failures.
status=0
"$gdmap" sig encode --json <"$work/types.txt" >"$work/json" 2>"$work/err" || status=$?
[ "$status" -eq 1 ] || fail "sig encode --json exited $status, expected 1"
[ ! -s "$work/err" ] || fail "sig encode --json wrote to stderr: $(head -c 300 "$work/err")"
grep -qF "\"items\": $lines," "$work/json" || fail "JSON items is not $lines"
grep -qF "\"failed\": $bad," "$work/json" || fail "JSON failed is not $bad"
[ "$(grep -c '"severity": "error"' "$work/json")" -eq "$listed" ] || fail "JSON does not list exactly $listed errors"
grep -qF "\"rule\": \"too-many-diagnostics\", \"message\": \"$((bad - listed)) more problem(s) not listed, after the first $listed; $bad error(s)" \
  "$work/json" || fail "JSON has no too-many-diagnostics note with the count"
# The results are one short line each; the whole document stays far below
# the input's size.
size=$(wc -c <"$work/json")
[ "$size" -lt $((lines * 16 + 65536)) ] || fail "JSON is $size bytes"
if command -v jq >/dev/null 2>&1; then
  [ "$(jq '.results | length' "$work/json")" -eq "$lines" ] || fail "jq: results length"
  [ "$(jq '[.results[] | select(. == null)] | length' "$work/json")" -eq "$bad" ] || fail "jq: null results"
  [ "$(jq '.diagnostics | length' "$work/json")" -eq $((listed + 1)) ] || fail "jq: diagnostics length"
fi

# decode: 8 MiB of hex digits whose first byte is no type, and odd digits.
{
  for ((i = 0; i < pairs; i++)); do printf '08\n0\n'; done
  head -c "$big" /dev/zero | tr '\0' 'a'; echo
} >"$work/hex.txt"
status=0
"$gdmap" sig decode <"$work/hex.txt" >"$work/out" 2>"$work/err" || status=$?
[ "$status" -eq 1 ] || fail "sig decode with bad lines exited $status, expected 1"
[ "$(wc -l <"$work/out")" -eq $((2 * pairs + 1)) ] || fail "decode: wrong number of result lines"
[ "$(grep -c ': error: ' "$work/err")" -eq "$listed" ] || fail "decode: expected $listed listed errors"
grep -qF "stdin: note: $((pairs + 1 - listed)) more problem(s) not listed, after the first $listed; $((pairs + 1)) error(s)" \
  "$work/err" || fail "decode: no summary"
grep -qF '[invalid-hex]' "$work/err" || fail "decode: odd digits are not invalid-hex"
size=$(wc -c <"$work/err")
[ "$size" -lt 32768 ] || fail "decode: stderr is $size bytes"

echo "sig batch: $bad bad lines of $lines, $listed listed, report bounded"
