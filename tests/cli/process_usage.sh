# `il extract` and `il locate` of a process without a .NET runtime to read
# (no dotnet needed): what a process does not take is a usage error naming
# it, a process or core dump without libcoreclr.so is runtime-not-found,
# and nothing is written when the extraction fails.
# Arguments: GDMAP SOURCE_ROOT (see tests/CMakeLists.txt).
set -euo pipefail
gdmap=$1
root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli_test.bash"
image="$root/tests/data/r2r/sample/net11/Sample.A.x64.dll"

expect 2 "$gdmap" il extract --pid $$ "$image"
has err "--pid reads a process: give no IMAGE with it"
expect 2 "$gdmap" il extract --pid 12x
has err "--pid '12x': not a process id"
expect 2 "$gdmap" il extract --pid $$ --composite x.r2r.dll
has err "--composite is for a ReadyToRun image; a process (--pid or a core dump) does not take it"
expect 2 "$gdmap" il extract --pid $$ --component A
has err "--component is for a ReadyToRun image"
expect 2 "$gdmap" il extract "$image" --jit-only
has err "--jit-only is for a process (--pid or a core dump)"
expect 2 "$gdmap" il extract
has err "an IMAGE (a ReadyToRun image or a core dump) or --pid is needed"
expect 2 "$gdmap" il locate --pid $$ 0x1000 --strict
has err "--strict is for a ReadyToRun image"
expect 2 "$gdmap" il locate --pid $$ 0x1000 zz
has err "ADDRESS 'zz'"
expect 2 "$gdmap" il locate "$image"
has err "no RVA to locate"
expect 2 "$gdmap" il locate
has err "an IMAGE (a ReadyToRun image or a core dump) or --pid is needed"
expect 2 "$gdmap" il locate --pid $$ --json
has out "--json needs the addresses on the command line"
expect 2 "$gdmap" il locate "$image" 0x100000000
has err "RVA '0x100000000'"

# This shell is a process, but not a .NET one.
echo old >"$work/out.json"
expect 1 "$gdmap" il extract --pid $$ -o "$work/out.json"
has err "process $$: no libcoreclr.so among its"
has err "[runtime-not-found]"
[ "$(cat "$work/out.json")" = old ] || fail "a failed extract replaced its output"
expect 1 "$gdmap" il locate --pid $$ 0x1000 --json
has out '"file": "process '"$$"'"'
has out '"rule": "runtime-not-found"'

# A core dump of nothing: an ELF core with no segments and no notes.
python3 - "$work/empty.core" <<'PY'
import struct, sys
header = b"\x7fELF\x02\x01\x01" + bytes(9) + struct.pack("<HHIQQQIHHHHHH", 4, 62, 1, 0, 0, 0, 0, 64, 56, 0, 64, 0, 0)
open(sys.argv[1], "wb").write(header)
PY
expect 1 "$gdmap" il extract "$work/empty.core" -o "$work/core.json"
has err "[runtime-not-found]"
[ ! -e "$work/core.json" ] || fail "a failed extract wrote its output"
expect 1 "$gdmap" il locate "$work/empty.core" 0x1000
has err "[runtime-not-found]"
echo ok
