# Several bodies of one generic method (`gdmap il extract` writes one per
# instantiation, sharing the token): il build, verify and lookup pick one
# with --instantiation, refuse to guess without it, and name the
# instantiations there are.
# Arguments: GDMAP SOURCE_ROOT BLOBS_DRIVER (see tests/CMakeLists.txt).
set -euo pipefail
gdmap=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli_test.bash"
cat > "$work/d.json" <<'JSON'
{"methods": [
 {"token": "0x06000010", "codeSize": 20, "instantiation": {"type": ["int32"]},
  "bounds": [{"native": 0, "il": 0}, {"native": 8, "il": 4}]},
 {"token": "0x06000010", "codeSize": 30, "instantiation": {"type": ["__Canon"], "method": ["string"]},
  "bounds": [{"native": 0, "il": 0}, {"native": 12, "il": 6}]},
 {"token": "0x06000011", "codeSize": 10, "bounds": [{"native": 0, "il": 0}]}]}
JSON
# No choice: a usage error listing the bodies.
expect 2 "$gdmap" il lookup "$work/d.json" --method 0x06000010
has err "method 0x06000010 has 2 bodies, one per instantiation (<int32>, <__Canon>::<string>): choose one with --instantiation TEXT [usage]"
expect 2 "$gdmap" il build "$work/d.json" --method 0x06000010 --format nibble -o "$work/x.bin"
has err "choose one with --instantiation TEXT"
# White space in the choice does not matter; each body answers with its own bounds.
expect 0 "$gdmap" il lookup "$work/d.json" --method 0x06000010 --instantiation '< __Canon >::<string>' --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert [e["nativeEnd"] for e in d["entries"]] == [12, 30], d' "$work/out" || fail "wrong body"
expect 0 "$gdmap" il lookup "$work/d.json" --method 0x06000010 --instantiation '<int32>' --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert [e["nativeEnd"] for e in d["entries"]] == [8, 20], d' "$work/out" || fail "wrong body"
# Another method of the same description is unaffected by the repeat.
expect 0 "$gdmap" il lookup "$work/d.json" --method 0x06000011
has out "0x06000011: S_OK, count 1"
# An instantiation the method does not have: not found, with what there is.
expect 1 "$gdmap" il lookup "$work/d.json" --method 0x06000010 --instantiation '<string>'
has err "method 0x06000010 has no body for the instantiation '<string>' (it has <int32>, <__Canon>::<string>) [il-method-not-found]"
# build then verify the same body; the other body does not verify.
expect 0 "$gdmap" il build "$work/d.json" --method 0x06000010 --instantiation '<int32>' --format nibble -o "$work/a.bin"
expect 0 "$gdmap" il verify "$work/d.json" "$work/a.bin" --format nibble --method 0x06000010 --instantiation '<int32>'
expect 1 "$gdmap" il verify "$work/d.json" "$work/a.bin" --format nibble --method 0x06000010 --instantiation '<__Canon>::<string>'
echo "il_instantiations: ok"
