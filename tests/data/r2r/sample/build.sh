#!/usr/bin/env bash
# Rebuilds the sample images from src/ (opt-in, not run by the tests): the
# IL with the .NET SDK, then crossgen2 (NuGet package
# Microsoft.NETCore.App.Crossgen2.linux-x64, tools/crossgen2) against a
# framework folder:
#   build.sh CROSSGEN2 FRAMEWORK_DIR OUT_DIR
# The images in this folder: crossgen2 10.0.12 against the machine's .NET
# 10.0.12 shared framework (R2R 16.0). Those in net11/: crossgen2 11.0.0
# against the runtime pack Microsoft.NETCore.App.Runtime.linux-x64 11.0.0,
# runtimes/linux-x64/lib/net11.0 (R2R 26.1).
# Sample.A and Sample.B are built for net10.0 whatever crossgen2 is. With
# crossgen2 11 or later the script also builds Sample.Async (src/Async.cs,
# one runtime-async method: compiled against FRAMEWORK_DIR's System.Runtime
# and System.Private.CoreLib) for the same targets and puts it in the
# composite image too.
set -euo pipefail
crossgen2=$1 framework=$2 out=$3
src=$(cd "$(dirname "$0")/src" && pwd)
framework=$(cd "$framework" && pwd)
version=$("$crossgen2" --version)
async=false
[ "${version%%.*}" -ge 11 ] && async=true
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/Sample.A" "$work/Sample.B" "$out/composite"
cp "$src/Sample.A.csproj" "$src/Shapes.cs" "$work/Sample.A/"
cp "$src/Sample.B.csproj" "$src/Greeter.cs" "$work/Sample.B/"
(cd "$work/Sample.B" && dotnet build -c Release -o "$work/il" >/dev/null)
assemblies=Sample.A
composite=("$work/il/Sample.A.dll" "$work/il/Sample.B.dll")
if $async; then
  mkdir -p "$work/Sample.Async"
  cp "$src/Sample.Async.csproj" "$src/Async.cs" "$work/Sample.Async/"
  (cd "$work/Sample.Async" && dotnet build -c Release -o "$work/il" -p:FrameworkDir="$framework" >/dev/null)
  assemblies="Sample.A Sample.Async"
  composite+=("$work/il/Sample.Async.dll")
fi
refs="$framework/*.dll"
for asm in $assemblies; do
  for arch in x64 x86 arm arm64; do
    os=linux
    [ "$arch" = x86 ] && os=windows
    "$crossgen2" "$work/il/$asm.dll" -o "$out/$asm.$arch.dll" -r "$refs" --targetarch "$arch" --targetos "$os" -O
  done
  "$crossgen2" "$work/il/$asm.dll" -o "$out/$asm.hotcold.dll" -r "$refs" --hot-cold-splitting -O
done
"$crossgen2" "${composite[@]}" --composite --inputbubble -o "$out/composite/Sample.r2r.dll" -r "$refs" -O
