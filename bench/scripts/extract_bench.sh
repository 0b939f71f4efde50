#!/usr/bin/env bash
# What `il extract`'s options cost over a plain extraction of the same
# ReadyToRun image, side by side on this machine (ratios hold on a shared
# machine where absolute times drift): --names (names and SOS signatures),
# --api (each method's GetILToNativeMapping array), --lines (each bound's
# source line from the portable PDB). Issue 29 asks --lines to stay under
# twice a plain extraction. Median of R runs, elapsed and CPU (user + sys).
#
#   bench/scripts/extract_bench.sh [BUILD_DIR] [IMAGE] [R]
#       BUILD_DIR  default build/release
#       IMAGE      a ReadyToRun image with its portable PDB beside it; by
#                  default one is generated and published with the .NET SDK
#                  on PATH (300 classes of 80 methods, ReadyToRun, about
#                  20 MB, its PDB 5.5 MB: two minutes, once, in
#                  $EXTRACT_BENCH_DIR or a temporary folder)
#       R          runs of each (default 7)
set -euo pipefail
build=${1:-build/release}
image=${2:-}
runs=${3:-7}
gdmap=$build/tools/gdmap
[ -x "$gdmap" ] || { echo "no $gdmap: build first" >&2; exit 2; }

if [ -z "$image" ]; then
  dir=${EXTRACT_BENCH_DIR:-$(mktemp -d)}
  image=$dir/out/bigapp.dll
  if [ ! -f "$image" ]; then
    command -v dotnet >/dev/null || { echo "no IMAGE given and no dotnet to make one" >&2; exit 2; }
    cat >"$dir/bigapp.csproj" <<'XML'
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <OutputType>Exe</OutputType>
    <TargetFramework>net10.0</TargetFramework>
    <RuntimeIdentifier>linux-x64</RuntimeIdentifier>
    <SelfContained>false</SelfContained>
    <PublishReadyToRun>true</PublishReadyToRun>
    <DebugType>portable</DebugType>
  </PropertyGroup>
</Project>
XML
    python3 - "$dir/Gen.cs" <<'PY'
import random, sys
random.seed(7)
out = ["using System;", "using System.Collections.Generic;", "namespace Big {"]
steps = ["if (t % {k} == 0) t += s.Length; else t -= {k};", "for (int i = 0; i < {k}; i++) t += l.Count + i;",
         "t = Math.Max(t, {k}) ^ (a << 1);", "foreach (var x in l) {{ if (x > {k}) t += x; }}",
         "try {{ t = checked(t * {k}); }} catch (OverflowException) {{ t = {k}; }}"]
for c in range(300):
    out.append(f"public static class C{c} {{")
    for m in range(80):
        out.append(f"  public static int M{m}(int a, string s, List<int> l) {{\n    int t = a;")
        for k in range(random.randint(3, 9)):
            out.append("    " + random.choice(steps).format(k=k + 2))
        out.append("    return t;\n  }")
    out.append("}")
out.append('public static class Program { public static int Main() => C0.M0(1, "x", new List<int>()); }\n}')
open(sys.argv[1], "w").write("\n".join(out))
PY
    (cd "$dir" && dotnet publish -c Release -o out >publish.log 2>&1) || { cat "$dir/publish.log" >&2; exit 2; }
  fi
fi

# The median elapsed and CPU seconds of `gdmap il extract IMAGE ARGS...`.
measure() {
  local times=() out
  out=$(mktemp)
  for _ in $(seq "$runs"); do
    /usr/bin/time -o "$out" -f '%e %U %S' "$gdmap" il extract "$image" "$@" -o /dev/null >/dev/null 2>&1
    times+=("$(tail -1 "$out")")
  done
  rm -f "$out"
  printf '%s\n' "${times[@]}" | awk '{print $1, $2 + $3}' | sort -n | awk -v n="$runs" 'NR == int((n + 1) / 2)'
}

echo "image: $image ($(stat -c %s "$image") bytes), $runs runs each"
read -r plainE plainC < <(measure)
printf '%-10s %8s s  %8s s CPU\n' plain "$plainE" "$plainC"
for option in --names --api --lines; do
  read -r e c < <(measure "$option")
  printf '%-10s %8s s  %8s s CPU   x%s elapsed, x%s CPU\n' "$option" "$e" "$c" \
    "$(awk -v a="$e" -v b="$plainE" 'BEGIN {printf "%.2f", a / b}')" \
    "$(awk -v a="$c" -v b="$plainC" 'BEGIN {printf "%.2f", a / b}')"
done
