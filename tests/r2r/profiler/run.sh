#!/usr/bin/env bash
# Runs the workload under the profiler and appends the records to RECORDS
# (JSON lines); extra arguments go to the workload (--hot: run long enough for
# tier-1 code to replace R2R code; --async11: also drive .NET 11's runtime-async
# methods of CoreLib).
#   run.sh BUILDDIR RECORDS [--hot] [--async11]
# The runtime: the machine's `dotnet` (its newest runtime of the workload's
# major, .NET 10) unless GDMAP_DOTNET_ROOT names a .NET root (a folder with
# `dotnet`, host/ and shared/, e.g. made by dotnet11_root.sh): then its
# `dotnet` runs the workload there, rolled forward to the root's newest
# runtime (.NET 11).
# GDMAP_PROF_ASK=FILE is passed to the profiler (its opt-in "who owns this
# code address" mode; see r2r_map_profiler.cpp, and async_asks.py to make such
# a file); its answers are appended to RECORDS with .jsonl replaced by
# .ask.jsonl.
set -euo pipefail
build=${1:?usage: run.sh BUILDDIR RECORDS [ARGS...]}
records=${2:?usage: run.sh BUILDDIR RECORDS [ARGS...]}
shift 2
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.ask"' EXIT
if [ -n "${GDMAP_DOTNET_ROOT:-}" ]; then
  root=$(cd "$GDMAP_DOTNET_ROOT" && pwd)
  [ -x "$root/dotnet" ] || { echo "run.sh: $root has no dotnet executable" >&2; exit 1; }
  export DOTNET_ROOT=$root DOTNET_MULTILEVEL_LOOKUP=0
  muxer=$root/dotnet
  roll=LatestMajor
else
  muxer=dotnet
  roll=Major  # the workload's own major when present (.NET 10)
fi
# Defaults otherwise: ReadyToRun on, tiered compilation on (the R2R body is
# the first code version; the profiler names it by its start address).
# TieredPGO off so that tier-0 instrumented rejits do not add versions.
CORECLR_ENABLE_PROFILING=1 \
CORECLR_PROFILER='{6D1B2F3A-8C4E-4E2B-9A7D-1F0C5E3B2A91}' \
CORECLR_PROFILER_PATH="$build/r2r_map_profiler.so" \
GDMAP_PROF_OUT="$tmp" GDMAP_PROF_ASK_OUT="$tmp.ask" \
DOTNET_ReadyToRun=1 DOTNET_TieredPGO=0 \
  "$muxer" exec --roll-forward "$roll" "$build/workload/workload.dll" "$@"
cat "$tmp" >>"$records"
if [ -n "${GDMAP_PROF_ASK:-}" ] && [ -f "$tmp.ask" ]; then cat "$tmp.ask" >>"${records%.jsonl}.ask.jsonl"; fi
