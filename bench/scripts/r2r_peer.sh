#!/usr/bin/env bash
# Opt-in: gdmap's ReadyToRun bounds side by side with R2RDump's, on the same
# images (docs/performance.md, "ReadyToRun extraction against R2RDump").
#
# R2RDump's library (dotnet/runtime's ILCompiler.Reflection.ReadyToRun) is
# not in this repository and no package serves it: build it from the
# runtime's public source yourself and give the dll in R2R_PEER_LIB. The
# driver bench/r2rdump_peer is built against it into a temporary folder.
#
#   R2R_PEER_LIB=/path/ILCompiler.Reflection.ReadyToRun.dll \
#     bench/scripts/r2r_peer.sh [GDMAP] [IMAGE_DIR_OR_FILE ...]
#
# GDMAP defaults to build/release/tools/gdmap; the images default to the
# machine's .NET 10 framework (every R2R image of the folder). Prints the
# comparison (r2r_peer_compare.py), then one timing of each whole run with
# /usr/bin/time: gdmap once per image (the CLI takes one image) against the
# peer once over all images (one process, so one runtime start-up).
# Exit 77 without R2R_PEER_LIB.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if [[ -z "${R2R_PEER_LIB:-}" || ! -f "${R2R_PEER_LIB}" ]]; then
  echo "r2r_peer.sh: set R2R_PEER_LIB to a built ILCompiler.Reflection.ReadyToRun.dll (see the header)" >&2
  exit 77
fi
gdmap=${1:-$root/build/release/tools/gdmap}
shift || true
sources=("$@")
if [[ ${#sources[@]} -eq 0 ]]; then
  sources=(/usr/share/dotnet/shared/Microsoft.NETCore.App/10.*)
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dotnet build -c Release -nologo -v q "$root/bench/r2rdump_peer/r2rdump_peer.csproj" \
  -p:R2RLib="$R2R_PEER_LIB" -o "$work/peer" >"$work/build.log" 2>&1 \
  || { cat "$work/build.log" >&2; exit 1; }

images=()
for s in "${sources[@]}"; do
  if [[ -d "$s" ]]; then images+=("$s"/*.dll); else images+=("$s"); fi
done

# The peer names the images it read (facades without native code are skipped).
dotnet "$work/peer/r2rdump_peer.dll" -o "$work/peer.jsonl" "${images[@]}" 2>"$work/peer.err" || true
grep -v ': skipped: ' "$work/peer.err" >&2 || true
r2r=()
for f in "${images[@]}"; do
  grep -q -F "$(basename "$f"): skipped: " "$work/peer.err" || r2r+=("$f")
done

mkdir -p "$work/gdmap"
for f in "${r2r[@]}"; do
  "$gdmap" il extract "$f" -o "$work/gdmap/$(basename "$f").json" 2>>"$work/gdmap.err" \
    || echo "gdmap failed on $f: $(tail -1 "$work/gdmap.err")" >&2
done
echo "R2R images: ${#r2r[@]}"
python3 "$here/r2r_peer_compare.py" "$work/peer.jsonl" "$work/gdmap" || true

printf '%s\0' "${r2r[@]}" >"$work/list"
echo "--- gdmap il extract, once per image"
/usr/bin/time -f '%e s wall, %U s user, %M KiB peak' \
  bash -c 'while IFS= read -r -d "" f; do "$0" il extract "$f" -o /dev/null 2>/dev/null || true; done <"$1"' \
  "$gdmap" "$work/list"
echo "--- R2RDump peer, one process"
/usr/bin/time -f '%e s wall, %U s user, %M KiB peak' \
  dotnet "$work/peer/r2rdump_peer.dll" -o /dev/null "${r2r[@]}"
