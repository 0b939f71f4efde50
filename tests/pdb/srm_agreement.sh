#!/usr/bin/env bash
# Opt-in: gdmap's portable PDB reader reads what System.Reflection.Metadata
# reads, and lineAt gives the line a .NET stack trace prints. Builds
# tests/pdb/srm (a console program over SRM's MetadataReaderProvider,
# GetMethodDebugInformation, GetSequencePoints and StackTraceSymbols' rule)
# into a scratch folder, and prints each PDB with it and with
# gdmap_pdb_points (tests/support/pdb_points.cpp, the library's reading):
# ids, document names, every method's points, and the line at each point's
# IL offset, one byte before it and one past the last point. The two
# outputs must be identical, on
#   - the sample of tests/data/pdb/ (sample.pdb, and the PDB
#     sample-embedded.dll embeds);
#   - every portable .pdb of the NuGet cache (~/.nuget/packages);
#   - the images of the .NET SDK that embed their PDB (at most 20).
# Runs only with GDMAP_SRM=1 (else skipped, status 77); needs dotnet (an SDK
# for net10.0).
# Arguments: PRINTER SOURCE_ROOT (see tests/CMakeLists.txt).
set -euo pipefail
printer=$1
root=$2
[ "${GDMAP_SRM:-}" = 1 ] || { echo "SKIP: set GDMAP_SRM=1 to run (builds a .NET program)"; exit 77; }
command -v dotnet >/dev/null 2>&1 || { echo "SKIP: dotnet is needed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cp "$root/tests/pdb/srm/srm_pdb_points.csproj" "$root/tests/pdb/srm/Program.cs" "$work/"
(cd "$work" && dotnet build -c Release -o out --nologo) >"$work/build.log" 2>&1 ||
  { cat "$work/build.log" >&2; fail "building tests/pdb/srm failed"; }

files=0 methods=0 points=0 lines=0
# compare LABEL ARGS...: both readers on ARGS (a PDB, or --embedded IMAGE).
compare() {
  local label=$1
  shift
  dotnet "$work/out/srm_pdb_points.dll" "$@" >"$work/srm.txt" || fail "$label: SRM could not read it"
  "$printer" "$@" >"$work/gdmap.txt" || fail "$label: gdmap could not read it"
  if ! cmp -s "$work/srm.txt" "$work/gdmap.txt"; then
    diff "$work/srm.txt" "$work/gdmap.txt" | head -20 >&2
    fail "$label: gdmap and System.Reflection.Metadata disagree (< SRM, > gdmap)"
  fi
  local m p l
  m=$(awk -F'\t' '$1 == "point" { print $2 }' "$work/gdmap.txt" | sort -u | wc -l)
  p=$(grep -c '^point' "$work/gdmap.txt" || true)
  l=$(grep -c '^line' "$work/gdmap.txt" || true)
  echo "$label: $m methods with $p points and $l lines agree"
  files=$((files + 1)) methods=$((methods + m)) points=$((points + p)) lines=$((lines + l))
}

compare tests/data/pdb/sample.pdb "$root/tests/data/pdb/sample.pdb"
compare "tests/data/pdb/sample-embedded.dll (embedded)" --embedded "$root/tests/data/pdb/sample-embedded.dll"

# Portable PDBs ("BSJB") of the NuGet cache.
if [ -d "$HOME/.nuget/packages" ]; then
  while IFS= read -r -d '' pdb; do
    [ "$(head -c 4 "$pdb")" = BSJB ] || continue
    compare "${pdb#"$HOME"/}" "$pdb"
  done < <(find "$HOME/.nuget/packages" -name '*.pdb' -print0 | sort -z)
fi

# Images of the SDK that embed their PDB (gdmap_pdb_points finds them: the
# others have no EmbeddedPortablePdb entry).
sdk=$(dirname "$(readlink -f "$(command -v dotnet)")")/sdk
embedded=0
while IFS= read -r -d '' image && [ "$embedded" -lt 20 ]; do
  "$printer" --embedded "$image" >/dev/null 2>&1 || continue
  compare "${image#"$sdk"/} (embedded)" --embedded "$image"
  embedded=$((embedded + 1))
done < <(find "$sdk" -maxdepth 2 -name '*.dll' -print0 2>/dev/null | sort -z)

echo "pdb srm_agreement: $files PDBs, $methods methods with $points points and $lines stack-trace lines, all alike"
