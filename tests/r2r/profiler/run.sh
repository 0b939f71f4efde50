#!/usr/bin/env bash
# Runs the workload under the profiler on the machine's .NET runtime and
# appends the records to RECORDS (JSON lines); extra arguments go to the
# workload (--hot: run long enough for tier-1 code to replace R2R code).
#   run.sh BUILDDIR RECORDS [--hot]
set -euo pipefail
build=${1:?usage: run.sh BUILDDIR RECORDS [ARGS...]}
records=${2:?usage: run.sh BUILDDIR RECORDS [ARGS...]}
shift 2
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
# Defaults otherwise: ReadyToRun on, tiered compilation on (the R2R body is
# the first code version; the profiler names it by its start address).
# TieredPGO off so that tier-0 instrumented rejits do not add versions.
CORECLR_ENABLE_PROFILING=1 \
CORECLR_PROFILER='{6D1B2F3A-8C4E-4E2B-9A7D-1F0C5E3B2A91}' \
CORECLR_PROFILER_PATH="$build/r2r_map_profiler.so" \
GDMAP_PROF_OUT="$tmp" \
DOTNET_ReadyToRun=1 DOTNET_TieredPGO=0 \
  dotnet "$build/workload/workload.dll" "$@"
cat "$tmp" >>"$records"
