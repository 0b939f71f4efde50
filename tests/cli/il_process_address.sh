# A process's methods (`il extract --pid` writes them): code versions of one
# token at absolute addresses, told apart by --address in il lookup, build
# and verify; with --method, --component and --instantiation it narrows the
# choice; an image's RVA ranges are chosen the same way.
# Arguments: GDMAP SOURCE_ROOT BLOBS_DRIVER (see tests/CMakeLists.txt).
set -euo pipefail
gdmap=$1
root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli_test.bash"
desc=$root/examples/il/process.json
# Two code versions of 0x06000005: without an address, the bodies are listed.
expect 2 "$gdmap" il lookup "$desc" --method 0x06000005
has err "method 0x06000005 has 2 bodies (in /app/App.dll MethodDesc 0x7f66c1a0b2c0 jit tier0 at 0x7f66c2e00100, in /app/App.dll MethodDesc 0x7f66c1a0b2c0 jit tier1 active at 0x7f66c2f01a40): choose one with --address ADDR [usage]"
# An address inside the tier-1 code (not its start) picks it, alone or with the token.
expect 0 "$gdmap" il lookup "$desc" --address 0x7f66c2f01a50 --native 0x10
has out "0x06000005: S_OK, count 4, 4 copied, 1 matching"
has out "0x6           0xe        0x1c"
expect 0 "$gdmap" il lookup "$desc" --method 0x06000005 --address 0x7F66C2E00100 --json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["method"] == "0x06000005" and [e["nativeEnd"] for e in d["entries"]] == [8, 20, 48, 60], d' "$work/out" ||
  fail "wrong body for the tier-0 address"
# The end of a range is outside it; an address no code holds is not found.
expect 1 "$gdmap" il lookup "$desc" --address 0x7f66c2f01a66
has err "no method's code holds 0x7f66c2f01a66 in the description (4 methods: 0x06000005, 0x06000005, 0x06000000, 0x06001a2b) [il-method-not-found]"
expect 1 "$gdmap" il lookup "$desc" --method 0x06000000 --address 0x7f66c2f01a40
has err "no method 0x06000000's code holds 0x7f66c2f01a40"
# A dynamic method (token RID 0) and a ReadyToRun body of the process.
expect 0 "$gdmap" il lookup "$desc" --address 0x7f66c2f02004
has out "0x06000000: S_OK, count 1, 1 copied"
expect 1 "$gdmap" il lookup "$desc" --address 0x7f66b8a21d30 --instantiation '<int32>'
has err "[il-method-not-found]"
# A malformed address is a usage error of the command line.
expect 2 "$gdmap" il lookup "$desc" --address 0xfoo
has err "'0xfoo' is not an address below 2^64 (0x hex or decimal)"
# build and verify choose the same way.
expect 0 "$gdmap" il build "$desc" --address 0x7f66c2f01a40 --format nibble -o "$work/t1.bin"
expect 0 "$gdmap" il verify "$desc" "$work/t1.bin" --format nibble --address 0x7f66c2f01a40
expect 1 "$gdmap" il verify "$desc" "$work/t1.bin" --format nibble --address 0x7f66c2e00100
# An image's ranges are RVAs; two methods sharing one body need --method.
cat > "$work/image.json" <<'JSON'
{"methods": [
 {"token": "0x06000001", "codeSize": 8, "code": [{"rva": "0x1000", "size": 8}], "bounds": [{"native": 0, "il": 0}]},
 {"token": "0x06000002", "codeSize": 8, "code": [{"rva": "0x1000", "size": 8}], "bounds": [{"native": 0, "il": 1}]},
 {"token": "0x06000003", "codeSize": 4, "code": [{"rva": "0x2000", "size": 4}], "bounds": [{"native": 0, "il": 2}]}]}
JSON
expect 0 "$gdmap" il lookup "$work/image.json" --address 0x2002
has out "0x06000003: S_OK, count 1"
expect 2 "$gdmap" il lookup "$work/image.json" --address 0x1004
has err "the code of 2 methods holds 0x1004 (0x06000001 at 0x1000, 0x06000002 at 0x1000): choose one with --method TOKEN [usage]"
expect 0 "$gdmap" il lookup "$work/image.json" --address 0x1004 --method 0x06000002
has out "0x06000002: S_OK, count 1"
echo "il_process_address: ok"
