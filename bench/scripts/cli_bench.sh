#!/usr/bin/env bash
# What users run, end to end: gdmap build, check, dump and verify on
# generated descriptions of N dictionaries, each beside its floor, all in
# one run on this machine, printed as ratios (absolute times drift on a
# shared machine; ratios measured side by side hold):
#   build, verify   vs  nlohmann's SAX pass over the same JSON (the floor),
#                       nlohmann's DOM parse, and Python's json.load (a peer:
#                       any Python implementation pays at least that)
#   dump            vs  the SAX pass over the JSON it writes
#   plain           gdmap's own plain JSON parser over the description
#                   (what build and verify read a plain description with)
#   check           vs  sha256sum of the map
# Peak RSS is given as a multiple of the input's size.
#
#   bench/scripts/cli_bench.sh [BUILD_DIR] [N ...]      (default: build/release 100000 1000000)
#
# Needs the release build with the bench targets (cmake --build --preset
# release --target gdmap_cli gdmap_json_floor) and python3. Each figure is
# the median of 3 runs. docs/performance.md has the results and the targets.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build/release}
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(100000 1000000)
gdmap=$build/tools/gdmap
floor=$build/bench/gdmap_json_floor
for tool in "$gdmap" "$floor"; do
  [ -x "$tool" ] || { echo "missing $tool: cmake --build --preset release --target gdmap_cli gdmap_json_floor" >&2; exit 2; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Median of 3 runs of a command: "cpu_seconds peak_kib" (user + sys).
measure() {
  local runs=()
  for _ in 1 2 3; do
    /usr/bin/time -f "%U %S %M" -o "$work/time" "$@" >/dev/null 2>&1 || true
    runs+=("$(awk '{ printf "%.3f %d\n", $1 + $2, $3 }' "$work/time")")
  done
  printf '%s\n' "${runs[@]}" | sort -n | sed -n 2p
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

printf '%-10s %-8s %9s %9s %8s %9s  %s\n' dicts phase "cpu s" "floor s" "x floor" "peak MiB" "peak / input"
for n in "${sizes[@]}"; do
  desc=$work/d$n.json
  python3 "$root/tests/cli/lib/gen_description.py" 1 "$n" >"$desc"
  "$gdmap" build "$desc" -o "$work/m$n.gdmap" 2>/dev/null
  "$gdmap" dump "$work/m$n.gdmap" -o "$work/dump$n.json"
  descBytes=$(stat -c %s "$desc")
  mapBytes=$(stat -c %s "$work/m$n.gdmap")
  read -r sax _ < <(measure "$floor" sax "$desc")
  read -r dom domPeak < <(measure "$floor" dom "$desc")
  read -r plain plainPeak < <(measure "$floor" plain "$desc")
  read -r py pyPeak < <(measure python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$desc")
  read -r dumpSax _ < <(measure "$floor" sax "$work/dump$n.json")
  read -r sha _ < <(measure sha256sum "$work/m$n.gdmap")
  row() {  # PHASE CPU FLOOR PEAK_KIB INPUT_BYTES
    printf '%-10s %-8s %9s %9s %8s %9.1f  %.2f\n' "$n" "$1" "$2" "$3" "$(ratio "$2" "$3")" \
      "$(awk -v k="$4" 'BEGIN { print k / 1024 }')" "$(awk -v k="$4" -v b="$5" 'BEGIN { print k * 1024 / b }')"
  }
  read -r t m < <(measure "$gdmap" build "$desc" -o "$work/out.gdmap")
  row build "$t" "$sax" "$m" "$descBytes"
  read -r t m < <(measure "$gdmap" verify "$desc" "$work/m$n.gdmap")
  row verify "$t" "$sax" "$m" "$descBytes"
  read -r t m < <(measure "$gdmap" dump "$work/m$n.gdmap" -o "$work/out.json")
  row dump "$t" "$dumpSax" "$m" "$mapBytes"
  read -r t m < <(measure "$gdmap" check "$work/m$n.gdmap")
  row check "$t" "$sha" "$m" "$mapBytes"
  row dom "$dom" "$sax" "$domPeak" "$descBytes"
  row plain "$plain" "$sax" "$plainPeak" "$descBytes"
  row py-load "$py" "$sax" "$pyPeak" "$descBytes"
done
