#!/usr/bin/env bash
# The bytes gdmap writes for the real-pipeline workload of issue 21 never
# change by accident: descriptions drawn from the TypeSpec and MethodSpec
# blobs of the .NET 10.0.12 shared framework (gdmap-metadata-blobs
# --description; 200,000 dictionaries shuffled, so copies with moved rows
# and unsorted RVAs are in it, and 60,000 in order), each as {"hex"} types
# and as ILAsm text, are built, dumped and verified, and the outputs'
# sha256 must equal tests/cli/golden/real_build_output.sha256 (recorded
# before issue 21's optimisations). The hex and text forms must give one
# map.
# Skipped (77) without that framework (dotnet --list-runtimes), or when its
# files are another build of 10.0.12 (the harvest's own sha256 differs).
# Arguments: GDMAP SOURCE_ROOT BLOBS_DRIVER (see tests/CMakeLists.txt).
set -euo pipefail
gdmap=$1
root=$2
blobs=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

framework=${GDMAP_NETCORE_10_0_12:-}
if [ -z "$framework" ] && command -v dotnet >/dev/null 2>&1; then
  framework=$(dotnet --list-runtimes 2>/dev/null | awk '$1 == "Microsoft.NETCore.App" && $2 == "10.0.12" {
    gsub(/[][]/, "", $3); print $3 "/10.0.12"; exit }')
fi
if [ -z "$framework" ] || [ ! -f "$framework/System.Private.CoreLib.dll" ]; then
  echo "skipped: the .NET 10.0.12 shared framework is not installed (set GDMAP_NETCORE_10_0_12 to its folder)"
  exit 77
fi
mapfile -t assemblies < <(find "$framework" -maxdepth 1 -name '*.dll' | LC_ALL=C sort)

golden=$root/tests/cli/golden/real_build_output.sha256
"$blobs" --description --keep-going "${assemblies[@]}" >"$work/harvest.json" 2>/dev/null ||
  fail "gdmap-metadata-blobs could not read the framework"
harvest=$(sha256sum <"$work/harvest.json" | cut -d' ' -f1)
if ! grep -q "^$harvest  harvest.json$" "$golden"; then
  echo "skipped: $framework is another build of 10.0.12 (its harvest's sha256 is $harvest)"
  exit 77
fi

"$blobs" --description --keep-going --dictionaries 200000 --shuffle 21 "${assemblies[@]}" >"$work/r1.json" 2>/dev/null
"$blobs" --description --keep-going --dictionaries 200000 --shuffle 21 --text "${assemblies[@]}" >"$work/r1t.json" 2>/dev/null
"$blobs" --description --keep-going --dictionaries 60000 "${assemblies[@]}" >"$work/r2.json" 2>/dev/null
"$blobs" --description --keep-going --dictionaries 60000 --text "${assemblies[@]}" >"$work/r2t.json" 2>/dev/null
for r in r1 r1t r2 r2t; do
  "$gdmap" build "$work/$r.json" -o "$work/$r.gdmap" 2>"$work/$r.build.err" ||
    fail "$r: build failed: $(head -n 5 "$work/$r.build.err")"
  "$gdmap" verify "$work/$r.json" "$work/$r.gdmap" >/dev/null || fail "$r: verify reports a difference"
done
cmp -s "$work/r1.gdmap" "$work/r1t.gdmap" || fail "r1: the hex and text forms give different maps"
cmp -s "$work/r2.gdmap" "$work/r2t.gdmap" || fail "r2: the hex and text forms give different maps"
for r in r1 r2; do "$gdmap" dump "$work/$r.gdmap" -o "$work/$r.dump.json" || fail "$r: dump failed"; done
grep -v '^#' "$golden" >"$work/expected.sha256"
(cd "$work" && sha256sum --quiet -c expected.sha256) || fail "outputs differ from tests/cli/golden/real_build_output.sha256"
echo "real-workload build and dump outputs unchanged"
