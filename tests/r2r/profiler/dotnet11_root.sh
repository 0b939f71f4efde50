#!/usr/bin/env bash
# Builds a .NET root (a DOTNET_ROOT folder) that runs Microsoft.NETCore.App
# VERSION (default 11.0.0) from the NuGet runtime pack, the way a user would
# put a runtime beside an SDK by hand:
#   OUTDIR/dotnet                       the machine's SDK's muxer (a copy)
#   OUTDIR/host/                        its hostfxr (a copy of the SDK's host/)
#   OUTDIR/shared/Microsoft.NETCore.App/VERSION/
#                                       the pack's lib/netX.0/* and native/*
# The pack comes from the NuGet cache (~/.nuget/packages, or NUGET_PACKAGES);
# if it is missing it is restored there with a throwaway PackageDownload
# project. A program built for net10.0 with <RollForward>LatestMajor</RollForward>
# then runs on VERSION with
#   DOTNET_ROOT=OUTDIR OUTDIR/dotnet program.dll
# (run.sh does that when GDMAP_DOTNET_ROOT=OUTDIR). linux-x64 only.
#   dotnet11_root.sh OUTDIR [VERSION]
set -euo pipefail
out=${1:?usage: dotnet11_root.sh OUTDIR [VERSION]}
version=${2:-11.0.0}
rid=linux-x64
major=${version%%.*}
command -v dotnet >/dev/null || { echo "dotnet11_root.sh: no dotnet (an SDK) on PATH" >&2; exit 1; }
sdk_root=$(dirname "$(readlink -f "$(command -v dotnet)")")
packages=${NUGET_PACKAGES:-$HOME/.nuget/packages}
pack=$packages/microsoft.netcore.app.runtime.$rid/$version
lib=$pack/runtimes/$rid/lib/net$major.0
native=$pack/runtimes/$rid/native

if [ ! -f "$lib/System.Private.CoreLib.dll" ] && [ ! -f "$native/System.Private.CoreLib.dll" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  # The SDK restores a PackageDownload into the cache without needing a
  # target framework it knows: net10.0 is only the project's own.
  cat >"$tmp/restore.csproj" <<EOF
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup><TargetFramework>net10.0</TargetFramework></PropertyGroup>
  <ItemGroup><PackageDownload Include="Microsoft.NETCore.App.Runtime.$rid" Version="[$version]" /></ItemGroup>
</Project>
EOF
  dotnet restore "$tmp/restore.csproj" -nologo -v quiet >"$tmp/restore.log" 2>&1 ||
    { cat "$tmp/restore.log" >&2; echo "dotnet11_root.sh: restoring Microsoft.NETCore.App.Runtime.$rid $version failed" >&2; exit 1; }
fi
[ -d "$lib" ] && [ -d "$native" ] || { echo "dotnet11_root.sh: $pack has no runtimes/$rid/{lib/net$major.0,native}" >&2; exit 1; }

fw=$out/shared/Microsoft.NETCore.App/$version
rm -rf "$fw"
mkdir -p "$fw"
cp "$sdk_root/dotnet" "$out/dotnet"
rm -rf "$out/host"
cp -r "$sdk_root/host" "$out/host"
cp "$lib"/* "$fw/"
cp "$native"/* "$fw/"
# The host needs the framework's deps.json and runtimeconfig.json; the pack
# ships both in lib/.
[ -f "$fw/Microsoft.NETCore.App.deps.json" ] || { echo "dotnet11_root.sh: the pack has no Microsoft.NETCore.App.deps.json" >&2; exit 1; }
echo "$out: Microsoft.NETCore.App $version (host $(ls "$out/host/fxr" | tr '\n' ' '| sed 's/ $//'))"
