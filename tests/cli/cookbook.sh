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
# The IL section: one-method IL descriptions, checked in the form named.
il = re.findall(r"```json\n([^`]*)```\n`gdmap il check --format ([a-z0-9]+)`: `([a-z0-9-]+)`", text, re.S)
blocks = text.count("```json")
if blocks != len(examples) + len(il):
    sys.exit(f"docs/cookbook.md: {blocks} json blocks, but {len(examples) + len(il)} followed by a check rule line")
for i, (body, rule) in enumerate(examples):
    open(f"{sys.argv[2]}/{i}.json", "w").write(body)
    open(f"{sys.argv[2]}/{i}.rule", "w").write(rule)
import os
os.makedirs(f"{sys.argv[2]}/il")
for i, (body, form, rule) in enumerate(il):
    open(f"{sys.argv[2]}/il/{i}.json", "w").write(body)
    open(f"{sys.argv[2]}/il/{i}.form", "w").write(form)
    open(f"{sys.argv[2]}/il/{i}.rule", "w").write(rule)
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

# The IL section: il build, il check reports the rule, il dump builds back.
ilcount=$(ls "$work"/il/*.json | wc -l)
[ "$ilcount" -ge 12 ] || fail "only $ilcount IL cookbook examples found"
for json in "$work"/il/*.json; do
  n=il-$(basename "$json" .json)
  rule=$(cat "${json%.json}.rule")
  form=$(cat "${json%.json}.form")
  "$gdmap" il build "$json" --format "$form" -o "$work/$n.bin" 2>"$work/$n.build.err" ||
    fail "IL cookbook example $n ($rule) does not build: $(cat "$work/$n.build.err")"
  ! grep -q ': error: ' "$work/$n.build.err" || fail "IL cookbook example $n: build reported an error"
  status=0
  "$gdmap" il check --json "$work/$n.bin" --format "$form" >"$work/$n.check.json" 2>/dev/null || status=$?
  [ "$status" -le 1 ] || fail "IL cookbook example $n: il check exited $status"
  grep -q "\"rule\": \"$rule\"" "$work/$n.check.json" ||
    fail "IL cookbook example $n: gdmap il check does not report $rule: $(cat "$work/$n.check.json")"
  status=0
  "$gdmap" il dump "$work/$n.bin" --format "$form" -o "$work/$n.dump.json" 2>/dev/null || status=$?
  [ "$status" -le 1 ] || fail "IL cookbook example $n: il dump exited $status"
  "$gdmap" il build "$work/$n.dump.json" --format "$form" -o "$work/$n.rebuilt" 2>/dev/null ||
    fail "IL cookbook example $n: il dump does not build"
  cmp -s "$work/$n.bin" "$work/$n.rebuilt" || fail "IL cookbook example $n: il dump does not rebuild the same bytes"
done
echo "cookbook: $ilcount IL examples build, check as documented and dump back exactly"
