#!/usr/bin/env bash
# The runtime as judge for JIT-compiled code (see README.md): runs the
# workload under jit_map_profiler.so in one configuration on one runtime,
# takes gdmap's view of the live process and of its core, and compares both
# with the profiler's records.
#   run.sh OUTDIR CONFIG [RUNTIME]
# CONFIG:  default    the runtime's defaults (tiered compilation, TieredPGO, OSR)
#          notiering  DOTNET_TieredCompilation=0 (every method fully optimized once)
#          osr        DOTNET_TC_OnStackReplacement_InitialCounter=1 DOTNET_OSR_HitLimit=1
#                     (OSR as early as it can be: every tier-0 loop that turns twice)
#          nor2r      DOTNET_ReadyToRun=0 (the framework's methods JIT-compiled too)
# RUNTIME: 10 (the machine's dotnet, default) or 11 (the .NET root
#          GDMAP_DOTNET11_ROOT, default /work/dotnet11).
# Builds the profiler (g++) and the workload (dotnet build -c Release) into
# OUTDIR once (again when a source is newer), never into the source tree.
# Writes OUTDIR/CONFIG-RUNTIME/: records.jsonl (the profiler's snapshot),
# core (createdump --withheap; --full with GDMAP_JIT_CORE_FULL=1), perf.map
# (the runtime's /tmp/perf-PID.map), live.json and core.json (gdmap il extract
# --api --jit-only, on the pid and on the core), check.txt, compare-live.txt,
# compare-core.txt, workload.err.
# GDMAP: the gdmap binary (default build/release/tools/gdmap/gdmap, or
# build/release/tools/gdmap when that is the binary). When it has no
# `il extract --pid` yet, the gdmap part is skipped and the status is 77
# after the profiler's own part has been checked.
# GDMAP_JIT_REFERENCE=1 also reads the pid and the core with
# reference_extract.py (the research scripts as a stand-in reader) and
# compares those: reference-live.json, reference-core.json,
# compare-reference-*.txt (their differences count in the status).
# GDMAP_KEEP_CORE=1 keeps the core (by default it is removed once read: up
# to a few hundred MB each).
# Exit status: 0 all compared versions agree, 1 a difference or a failure,
# 77 gdmap not ready (the profiler part passed).
set -euo pipefail
out=${1:?usage: run.sh OUTDIR CONFIG [RUNTIME]}
config=${2:?usage: run.sh OUTDIR CONFIG [RUNTIME]}
runtime=${3:-10}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
say() { echo "run.sh [$config/$runtime]: $*" >&2; }
die() { say "$*"; exit 1; }

case $config in
  default) cfg_env=() ;;
  notiering) cfg_env=(DOTNET_TieredCompilation=0) ;;
  osr) cfg_env=(DOTNET_TC_OnStackReplacement_InitialCounter=1 DOTNET_OSR_HitLimit=1) ;;
  nor2r) cfg_env=(DOTNET_ReadyToRun=0) ;;
  *) die "unknown CONFIG $config (default, notiering, osr, nor2r)" ;;
esac
case $runtime in
  10) rt_env=(); muxer=(dotnet exec --roll-forward Major) ;;
  11)
    r11=${GDMAP_DOTNET11_ROOT:-/work/dotnet11}
    [ -x "$r11/dotnet" ] || die "no .NET 11 root at $r11 (GDMAP_DOTNET11_ROOT; tests/r2r/profiler/dotnet11_root.sh makes one)"
    rt_env=(DOTNET_ROOT="$r11" DOTNET_MULTILEVEL_LOOKUP=0); muxer=("$r11/dotnet" exec --roll-forward LatestMajor) ;;
  *) die "unknown RUNTIME $runtime (10 or 11)" ;;
esac

# --- build (once) ---
so=$out/jit_map_profiler.so
if [ ! -f "$so" ] || [ "$here/jit_map_profiler.cpp" -nt "$so" ] || [ "$root/tests/r2r/profiler/corprof_min.h" -nt "$so" ]; then
  g++ -std=c++17 -O1 -g -shared -fPIC -fvisibility=hidden -Wall -Wextra -Werror -pthread \
    -o "$so" "$here/jit_map_profiler.cpp" || die "building the profiler failed"
fi
dll=$out/workload/workload.dll
if [ ! -f "$dll" ] || [ "$here/workload/Program.cs" -nt "$dll" ] || [ "$here/workload/workload.csproj" -nt "$dll" ]; then
  mkdir -p "$out/src"
  cp "$here/workload/Program.cs" "$here/workload/workload.csproj" "$out/src/"
  dotnet build "$out/src/workload.csproj" -c Release -o "$out/workload" -nologo -v quiet >"$out/build.log" 2>&1 ||
    { cat "$out/build.log" >&2; die "building the workload failed"; }
fi

# --- run the workload until it is ready ---
run=$out/$config-$runtime
rm -rf "$run"
mkdir -p "$run"
fifo=$run/stdin
mkfifo "$fifo"
pid=
cleanup() {
  exec 3>&- 2>/dev/null || true
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill "$pid" 2>/dev/null || true; fi
  rm -f "$fifo"
}
trap cleanup EXIT
env "${rt_env[@]}" "${cfg_env[@]}" \
  CORECLR_ENABLE_PROFILING=1 \
  CORECLR_PROFILER='{3C8E5A71-94D2-4F6B-B1E8-7A20D49C6F35}' \
  CORECLR_PROFILER_PATH="$so" \
  GDMAP_JIT_RECORDS="$run/records.jsonl" GDMAP_JIT_CORE="$run/core" \
  DOTNET_PerfMapEnabled=1 \
  "${muxer[@]}" "$dll" <"$fifo" >"$run/workload.out" 2>"$run/workload.err" &
pid=$!
exec 3>"$fifo"  # the workload's stdin: open until we close it
for _ in $(seq 1 1200); do
  grep -q '^ready ' "$run/workload.out" 2>/dev/null && break
  kill -0 "$pid" 2>/dev/null || { cat "$run/workload.err" >&2; die "the workload exited before it was ready"; }
  sleep 0.1
done
grep -q '^ready ' "$run/workload.out" || die "the workload was not ready after 120 s"
wpid=$(awk '/^ready /{print $2; exit}' "$run/workload.out")
[ "$wpid" = "$pid" ] || say "note: the workload's pid $wpid is not the shell's $pid (a muxer in between?)"
grep -h '^workload:\|^jit_map_profiler:' "$run/workload.err" >&2 || true

# --- gdmap: live, then the core ---
gdmap=${GDMAP:-}
if [ -z "$gdmap" ]; then
  if [ -x "$root/build/release/tools/gdmap/gdmap" ]; then gdmap=$root/build/release/tools/gdmap/gdmap
  else gdmap=$root/build/release/tools/gdmap; fi
fi
have_gdmap=0
if [ -x "$gdmap" ] && [ -f "$gdmap" ] && "$gdmap" il extract --help 2>/dev/null | grep -q -- '--pid'; then have_gdmap=1; fi
status=0
if [ $have_gdmap = 1 ]; then
  "$gdmap" il extract --pid "$wpid" --api --jit-only -o "$run/live.json" 2>"$run/live.err" ||
    { cat "$run/live.err" >&2; say "gdmap il extract --pid failed"; status=1; }
fi
reference=${GDMAP_JIT_REFERENCE:-}
if [ "$reference" = 1 ]; then
  python3 "$here/reference_extract.py" "$wpid" -o "$run/reference-live.json" 2>"$run/reference-live.err" ||
    { cat "$run/reference-live.err" >&2; say "reference_extract.py on the pid failed"; status=1; }
fi
# The perf map as it is now (append-only: every version so far).
cp "/tmp/perf-$wpid.map" "$run/perf.map" 2>/dev/null || say "no /tmp/perf-$wpid.map"
exec 3>&-  # end of the workload's stdin: it exits
wait "$pid" || die "the workload failed (status $?)"
pid=
rm -f "/tmp/perf-$wpid.map" "/tmp/perfinfo-$wpid.map" "/tmp/jit-$wpid.dump"
if [ $have_gdmap = 1 ]; then
  "$gdmap" il extract "$run/core" --api --jit-only -o "$run/core.json" 2>"$run/core.err" ||
    { cat "$run/core.err" >&2; say "gdmap il extract CORE failed"; status=1; }
fi
if [ "$reference" = 1 ]; then
  python3 "$here/reference_extract.py" "$run/core" -o "$run/reference-core.json" 2>"$run/reference-core.err" ||
    { cat "$run/reference-core.err" >&2; say "reference_extract.py on the core failed"; status=1; }
fi
[ "${GDMAP_KEEP_CORE:-}" = 1 ] || rm -f "$run/core"

# --- the profiler's own part, then the comparisons ---
cmp=$root/tests/runtime/profiler_compare.py
python3 "$cmp" "$run/records.jsonl" --check "$config" --perfmap "$run/perf.map" >"$run/check.txt" ||
  { cat "$run/check.txt" >&2; die "the profiler's records do not look like a $config run"; }
cat "$run/check.txt"
for view in reference-live reference-core; do
  [ -f "$run/$view.json" ] || continue
  s=0
  python3 "$cmp" "$run/records.jsonl" "$run/$view.json" --perfmap "$run/perf.map" --show "${GDMAP_SHOW:-10}" \
    --label "$config/$runtime/$view" >"$run/compare-$view.txt" || s=$?
  cat "$run/compare-$view.txt"
  [ $s -eq 0 ] || status=1
done
if [ $have_gdmap = 0 ]; then
  say "$gdmap has no 'il extract --pid': gdmap's part skipped"
  [ $status -eq 0 ] || exit $status
  exit 77
fi
for view in live core; do
  [ -f "$run/$view.json" ] || continue
  s=0
  python3 "$cmp" "$run/records.jsonl" "$run/$view.json" --perfmap "$run/perf.map" --show "${GDMAP_SHOW:-10}" \
    --label "$config/$runtime/$view" >"$run/compare-$view.txt" || s=$?
  cat "$run/compare-$view.txt"
  [ $s -eq 0 ] || status=1
done
exit $status
