#!/usr/bin/env bash
# Rebuilds the sample images from src/ (opt-in, not run by the tests): the
# IL with the .NET SDK, then crossgen2 10.0.12 (NuGet package
# Microsoft.NETCore.App.Crossgen2.linux-x64) against the machine's .NET
# 10.0.12 shared framework, as the images in this folder were made.
#   build.sh CROSSGEN2 FRAMEWORK_DIR OUT_DIR
set -euo pipefail
crossgen2=$1 framework=$2 out=$3
src=$(cd "$(dirname "$0")/src" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/Sample.A" "$work/Sample.B" "$out/composite"
cp "$src/Sample.A.csproj" "$src/Shapes.cs" "$work/Sample.A/"
cp "$src/Sample.B.csproj" "$src/Greeter.cs" "$work/Sample.B/"
(cd "$work/Sample.B" && dotnet build -c Release -o "$work/il" >/dev/null)
refs="$framework/*.dll"
for arch in x64 x86 arm arm64; do
  os=linux
  [ "$arch" = x86 ] && os=windows
  "$crossgen2" "$work/il/Sample.A.dll" -o "$out/Sample.A.$arch.dll" -r "$refs" --targetarch "$arch" --targetos "$os" -O
done
"$crossgen2" "$work/il/Sample.A.dll" -o "$out/Sample.A.hotcold.dll" -r "$refs" --hot-cold-splitting -O
"$crossgen2" "$work/il/Sample.A.dll" "$work/il/Sample.B.dll" --composite --inputbubble \
  -o "$out/composite/Sample.r2r.dll" -r "$refs" -O
