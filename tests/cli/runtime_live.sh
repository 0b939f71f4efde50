# gdmap reads a live .NET child process and a core dump of it
# (reader/runtime through the runtime's contract descriptor): builds
# tests/runtime/live (a program that JIT-compiles a loop, a generic method
# over two types and a method with a funclet, then waits) into a scratch
# folder, runs it with call counting off (nothing is recompiled while it is
# read), and checks: `il extract --pid` lists its methods with tier, code
# and bounds; `il locate --pid` answers an address inside one of them; the
# runtime's createdump core gives the same document as the live process.
# Needs dotnet (an SDK for net10.0): skipped (77) without it.
# Arguments: GDMAP SOURCE_ROOT (see tests/CMakeLists.txt).
set -euo pipefail
gdmap=$1
root=$2
command -v dotnet >/dev/null 2>&1 || { echo "SKIP: dotnet is needed"; exit 77; }
work=$(mktemp -d)
child=
cleanup() {
  [ -n "$child" ] && kill "$child" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli_test.bash"

cp "$root/tests/runtime/live/live.csproj" "$root/tests/runtime/live/Program.cs" "$work/"
(cd "$work" && dotnet build -c Release -o bin --nologo) >"$work/build.log" 2>&1 ||
  { cat "$work/build.log" >&2; fail "building tests/runtime/live failed"; }

mkfifo "$work/in"
DOTNET_TC_CallCounting=0 DOTNET_TieredPGO=0 dotnet "$work/bin/live.dll" <"$work/in" >"$work/child.out" 2>&1 &
child=$!
exec 9>"$work/in"  # the child's stdin stays open until the end
for _ in $(seq 1 300); do grep -q '^ready' "$work/child.out" 2>/dev/null && break; sleep 0.1; done
grep -q '^ready' "$work/child.out" || { cat "$work/child.out" >&2; fail "the child never said ready"; }
pid=$(awk '/^ready/ {print $2}' "$work/child.out")

# Live: the child's own methods, each JIT-compiled at tier 0.
expect 0 "$gdmap" il extract --pid "$pid" --jit-only -o "$work/live.json"
has err "process $pid: "
has err "JIT-compiled bodies"
python3 - "$work/live.json" "$work/bin/live.dll" >"$work/address" <<'PY' || fail "the child's methods are not in the document"
import json, sys
doc = json.load(open(sys.argv[1]))
mine = [m for m in doc["methods"] if m.get("module") == sys.argv[2]]
tokens = {m["token"] for m in mine}
assert len(mine) >= 4, mine                      # Loop, Pick<int>, Pick<__Canon>, Guarded, Main
assert all(m["codeVersion"]["kind"] == "jit" and m["codeVersion"]["tier"] == "tier0" for m in mine), mine
assert all(m["code"][0]["address"].startswith("0x") and m["bounds"] for m in mine), mine
picks = [m for m in mine if len([n for n in mine if n["token"] == m["token"]]) == 2]
assert len({m["methodDesc"] for m in picks}) == 2, picks  # two instantiations, two MethodDescs
# ... named as the R2R reader names them: Pick<int32> and the shared Pick<__Canon>.
assert sorted(m["instantiation"]["method"][0] for m in picks) == ["__Canon", "int32"], picks
first = mine[0]
print(hex(int(first["code"][0]["address"], 16) + first["codeSize"] // 2), first["token"])
PY
read -r address token <"$work/address"

expect 0 "$gdmap" il locate --pid "$pid" "$address"
has out "$address: jit method $token of $work/bin/live.dll [tier0"
expect 0 "$gdmap" il locate --pid "$pid" "$address" --json
has out '"kind": "jit"'
# Without an address on the command line: one per line of stdin.
printf '%s\n\n%s\n' "$address" "$address" | "$gdmap" il locate --pid "$pid" >"$work/out" 2>"$work/err" ||
  fail "il locate from stdin failed"
[ "$(grep -c "^$address: jit method $token" "$work/out")" = 2 ] || fail "two answers from stdin expected"
# --names: each method named from its module's metadata.
expect 0 "$gdmap" il extract --pid "$pid" --jit-only --names -o "$work/named.json"
python3 - "$work/named.json" "$work/bin/live.dll" <<'PY' || fail "the child's methods are not named"
import json, sys
names = {m.get("name") for m in json.load(open(sys.argv[1]))["methods"] if m.get("module") == sys.argv[2]}
assert {"Live::Loop", "Live::Guarded", "Live::Main"} <= names, names
PY
expect 0 "$gdmap" il locate --pid "$pid" "$address" --names
has out "$address: jit method $token Live::"

# The runtime's own createdump, beside its libcoreclr.so.
coreclr=$(awk '/libcoreclr\.so/ {print $6; exit}' "/proc/$pid/maps")
createdump="$(dirname "$coreclr")/createdump"
[ -x "$createdump" ] || fail "no createdump beside $coreclr"
"$createdump" --withheap -f "$work/core" "$pid" >"$work/createdump.log" 2>&1 ||
  { cat "$work/createdump.log" >&2; fail "createdump failed"; }
expect 0 "$gdmap" il extract "$work/core" --jit-only -o "$work/core.json"
cmp "$work/live.json" "$work/core.json" || fail "the core's document is not the live process's"
expect 0 "$gdmap" il locate "$work/core" "$address"
has out "$address: jit method $token"

# Not a .NET process: this shell.
expect 1 "$gdmap" il extract --pid $$ -o "$work/none.json"
has err "[runtime-not-found]"
[ ! -e "$work/none.json" ] || fail "a failed extract wrote its output"
echo "ok: process $pid, core, locate $address"
