#!/usr/bin/env bash
# Builds the profiler (.so, with g++) and the workload program (with the .NET
# SDK) into OUTDIR, never into the source tree; see README.md.
#   build.sh OUTDIR
set -euo pipefail
out=${1:?usage: build.sh OUTDIR}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$out/src"
g++ -std=c++17 -O1 -g -shared -fPIC -fvisibility=hidden -Wall -Wextra -Werror \
  -o "$out/r2r_map_profiler.so" "$here/r2r_map_profiler.cpp"
# A copy of the sources: `dotnet build` writes obj/ beside the project.
cp "$here/workload/Program.cs" "$here/workload/workload.csproj" "$out/src/"
dotnet build "$out/src/workload.csproj" -c Release -o "$out/workload" -nologo -v quiet >"$out/build.log" 2>&1 ||
  { cat "$out/build.log" >&2; exit 1; }
