# Opt-in: the .NET runtime's own stack traces judge `gdmap il locate`
# (tests/runtime/stacktrace/README.md). Publishes the program of
# tests/runtime/stacktrace/app ReadyToRun twice (its portable PDB beside it;
# the PDB embedded), builds the R2R profiler of tests/r2r/profiler (g++), and
# runs tests/runtime/stacktrace/judge.py on each: every frame of the
# program's stack traces that ran ReadyToRun code must get from gdmap (--base,
# --maps and --pid) the method, IL offset, file, line and column the runtime
# printed. Runs only with GDMAP_STACKTRACE=1 (else skipped, status 77); needs
# dotnet, g++ and python3. The runtime: the machine's (.NET 10) unless
# GDMAP_DOTNET_ROOT names another .NET root (e.g. /work/dotnet11 for .NET 11).
# Arguments: GDMAP SOURCE_ROOT (see tests/CMakeLists.txt).
set -euo pipefail
gdmap=$1
root=$2
[ "${GDMAP_STACKTRACE:-}" = 1 ] || { echo "SKIP: set GDMAP_STACKTRACE=1 to run (runs .NET under a profiler)"; exit 77; }
for tool in dotnet g++ python3; do
  command -v "$tool" >/dev/null 2>&1 || { echo "SKIP: $tool is needed"; exit 77; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli_test.bash"
here=$root/tests/runtime/stacktrace

g++ -std=c++17 -O1 -shared -fPIC -fvisibility=hidden -o "$work/r2r_map_profiler.so" \
  "$root/tests/r2r/profiler/r2r_map_profiler.cpp" 2>"$work/profiler.log" ||
  { cat "$work/profiler.log" >&2; fail "building the R2R profiler failed"; }

# Each PDB kind from its own copy of the sources: an incremental build would
# keep the other kind's compiled image.
publish() {  # KIND [MSBUILD PROPERTY]
  mkdir -p "$work/src-$1"
  cp "$here/app/Program.cs" "$here/app/stacktrace_app.csproj" "$work/src-$1/"
  (cd "$work/src-$1" && dotnet publish -c Release -r linux-x64 -p:PublishReadyToRun=true --self-contained false \
    -o "$work/$1" --nologo "${@:2}") >"$work/$1.log" 2>&1 || { cat "$work/$1.log" >&2; fail "publishing ($1) failed"; }
}
publish portable
publish embedded -p:DebugType=embedded
[ -f "$work/portable/stacktrace_app.pdb" ] || fail "the portable build has no PDB beside it"
[ ! -e "$work/embedded/stacktrace_app.pdb" ] || fail "the embedded build has a PDB beside it"

runtime=net$(dotnet --list-runtimes | awk '$1 == "Microsoft.NETCore.App" {v = $2} END {print v}')
extra=()
if [ -n "${GDMAP_DOTNET_ROOT:-}" ]; then
  # Another runtime does not run the ReadyToRun code of .NET 10's crossgen2
  # (.NET 11 refuses R2R 16 images): the same IL is compiled again by the
  # crossgen2 of the root's version (its NuGet package) against its framework.
  fw=$(ls -d "$GDMAP_DOTNET_ROOT"/shared/Microsoft.NETCore.App/*/ 2>/dev/null | sort -V | tail -1)
  [ -n "$fw" ] || fail "GDMAP_DOTNET_ROOT=$GDMAP_DOTNET_ROOT has no shared/Microsoft.NETCore.App/VERSION"
  version=$(basename "$fw")
  runtime=net$version
  extra=(--dotnet-root "$GDMAP_DOTNET_ROOT")
  crossgen2=${NUGET_PACKAGES:-$HOME/.nuget/packages}/microsoft.netcore.app.crossgen2.linux-x64/$version/tools/crossgen2
  [ -x "$crossgen2" ] || fail "no crossgen2 $version (NuGet package Microsoft.NETCore.App.Crossgen2.linux-x64) at $crossgen2"
  for kind in portable embedded; do
    "$crossgen2" "$work/src-$kind/obj/Release/net10.0/linux-x64/stacktrace_app.dll" -o "$work/$kind/stacktrace_app.dll" \
      -r "$fw*.dll" --targetos linux --targetarch x64 -O >"$work/crossgen2-$kind.log" 2>&1 ||
      { cat "$work/crossgen2-$kind.log" >&2; fail "crossgen2 $version failed ($kind)"; }
  done
fi
status=0
for kind in portable embedded; do
  python3 "$here/judge.py" "$gdmap" "$work/$kind/stacktrace_app.dll" "$work/r2r_map_profiler.so" "$work/judge-$kind" \
    --label "$runtime $kind" ${extra[@]+"${extra[@]}"} || status=1
done
[ "$status" -eq 0 ] || fail "gdmap and the runtime's stack traces disagree (see above)"
