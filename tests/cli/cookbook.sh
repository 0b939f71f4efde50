#!/usr/bin/env bash
# docs/cookbook.md cannot rot: every ```json example in it is built, must
# build without error (its overrides are notes), and `gdmap check` of the
# result must report the rule the line "`gdmap check`: `RULE`" under it
# names; `gdmap dump` of the map must build back the same bytes.
# Arguments: GDMAP SOURCE_ROOT BLOBS_DRIVER (see tests/CMakeLists.txt).
set -euo pipefail
gdmap=$1
root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# Each example as work/N.json with its rule in work/N.rule.
python3 - "$root/docs/cookbook.md" "$work" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
examples = re.findall(r"```json\n(.*?)```\n`gdmap check`: `([a-z0-9-]+)`", text, re.S)
blocks = text.count("```json")
if blocks != len(examples):
    sys.exit(f"docs/cookbook.md: {blocks} json blocks, but {len(examples)} followed by a `gdmap check` rule line")
for i, (body, rule) in enumerate(examples):
    open(f"{sys.argv[2]}/{i}.json", "w").write(body)
    open(f"{sys.argv[2]}/{i}.rule", "w").write(rule)
print(len(examples))
PY
count=$(ls "$work"/*.json | wc -l)
[ "$count" -ge 14 ] || fail "only $count cookbook examples found"

for json in "$work"/*.json; do
  n=$(basename "$json" .json)
  rule=$(cat "$work/$n.rule")
  "$gdmap" build "$json" -o "$work/$n.gdmap" 2>"$work/$n.build.err" ||
    fail "cookbook example $n ($rule) does not build: $(cat "$work/$n.build.err")"
  ! grep -q ': error: ' "$work/$n.build.err" || fail "cookbook example $n: build reported an error"
  status=0
  "$gdmap" check --json "$work/$n.gdmap" >"$work/$n.check.json" 2>/dev/null || status=$?
  [ "$status" -le 1 ] || fail "cookbook example $n: check exited $status"
  grep -q "\"rule\": \"$rule\"" "$work/$n.check.json" ||
    fail "cookbook example $n: gdmap check does not report $rule: $(cat "$work/$n.check.json")"
  # And back: the dump of the broken map rebuilds it byte for byte.
  status=0
  "$gdmap" dump "$work/$n.gdmap" -o "$work/$n.dump.json" 2>/dev/null || status=$?
  [ "$status" -le 1 ] || fail "cookbook example $n: dump exited $status"
  "$gdmap" build "$work/$n.dump.json" -o "$work/$n.rebuilt" 2>/dev/null || fail "cookbook example $n: dump does not build"
  cmp -s "$work/$n.gdmap" "$work/$n.rebuilt" || fail "cookbook example $n: dump does not rebuild the same bytes"
done
echo "cookbook: $count examples build, check as documented and dump back exactly"
