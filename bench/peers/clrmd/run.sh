#!/usr/bin/env bash
# Opt-in: gdmap's reading of a core dump's JIT-compiled code side by side
# with ClrMD's (tests/runtime/clrmd/README.md has the comparison and the
# figures). Never run in CI.
#
#   bench/peers/clrmd/run.sh OUTDIR [10|11] [RUNS]
#
# Makes OUTDIR/app.core with tests/runtime/clrmd/make_dump.sh (the workload
# with DOTNET_ReadyToRun=0 on .NET 10 or 11; kept and reused when present)
# and builds the ClrMD peer there; then times, RUNS times each (default 5),
# as whole processes with /usr/bin/time:
#   gdmap  : gdmap il extract CORE --api --jit-only -o /dev/null
#   clrmd  : dotnet clrmd_peer.dll CORE (open + CreateRuntime, walk every
#            module's types and methods, collect every ILOffsetMap; no output)
#   locate : gdmap il locate CORE with 100,000 addresses spread over every
#            JIT-compiled body (from gdmap's own output), through xargs
# and prints each run and the median of wall seconds and peak KiB. The
# commands are also written to OUTDIR/cmd-{gdmap,clrmd,locate}.sh, to time
# them with any other harness.
# GDMAP: the binary (default build/release/tools/gdmap).
set -euo pipefail
out=${1:?usage: run.sh OUTDIR [10|11] [RUNS]}
runtime=${2:-10}
runs=${3:-5}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
gdmap=${GDMAP:-$root/build/release/tools/gdmap}
[ -f "$gdmap" ] || { echo "run.sh: no gdmap at $gdmap" >&2; exit 1; }
mkdir -p "$out"
out=$(cd "$out" && pwd)
core=$out/app.core
if [ ! -f "$core" ] || [ ! -f "$out/clrmd_peer/clrmd_peer.dll" ]; then
  "$root/tests/runtime/clrmd/make_dump.sh" "$out" "$runtime" >/dev/null
fi
muxer=dotnet
[ "$runtime" = 11 ] && muxer="env DOTNET_ROOT=${GDMAP_DOTNET11_ROOT:-/work/dotnet11} ${GDMAP_DOTNET11_ROOT:-/work/dotnet11}/dotnet"

# addresses for il locate: spread evenly over every body gdmap finds
"$gdmap" il extract "$core" --api --jit-only -o "$out/gdmap-api.json" 2>"$out/gdmap.err"
python3 - "$out/gdmap-api.json" "$out/addrs.txt" <<'PY'
import json, sys
ms = json.load(open(sys.argv[1]))["methods"]
per = 100000 // max(len(ms), 1) + 1
out = []
for m in ms:
    a, n = int(m["code"][0]["address"], 16), m["codeSize"]
    out += [hex(a + k * n // per) for k in range(per)]
open(sys.argv[2], "w").write("\n".join(out[:100000]) + "\n")
PY

printf '%s\n' "exec '$gdmap' il extract '$core' --api --jit-only -o /dev/null 2>/dev/null" >"$out/cmd-gdmap.sh"
printf '%s\n' "exec $muxer '$out/clrmd_peer/clrmd_peer.dll' '$core' 2>/dev/null" >"$out/cmd-clrmd.sh"
printf '%s\n' "exec xargs -a '$out/addrs.txt' '$gdmap' il locate '$core' >/dev/null 2>&1" >"$out/cmd-locate.sh"

echo "core: $core ($(du -h "$core" | cut -f1)); $(grep -o '[0-9]* JIT-compiled bodies' "$out/gdmap.err" | head -1); $(wc -l <"$out/addrs.txt") addresses"
for name in gdmap clrmd locate; do
  : >"$out/time-$name.txt"
  sh "$out/cmd-$name.sh" || true  # warm-up
  for _ in $(seq 1 "$runs"); do
    /usr/bin/time -a -o "$out/time-$name.txt" -f '%e %M' sh "$out/cmd-$name.sh" || true
  done
  python3 - "$name" "$out/time-$name.txt" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[2]) if l.strip() and l.split()[0][0].isdigit()]
wall = [float(r[0]) for r in rows]; kib = [int(r[1]) for r in rows]
print(f"{sys.argv[1]:7s} wall s median {statistics.median(wall):.3f} (min {min(wall):.3f}, max {max(wall):.3f}); "
      f"peak KiB median {int(statistics.median(kib))}; {len(rows)} runs")
PY
done
