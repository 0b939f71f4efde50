#!/usr/bin/env bash
# What users run, end to end: gdmap build, check, dump and verify on
# descriptions of N dictionaries, each beside its floor, all in one run on
# this machine, printed as ratios (absolute times drift on a shared
# machine; ratios measured side by side hold):
#   build, verify   vs  nlohmann's SAX pass over the same JSON (the floor),
#                       nlohmann's DOM parse, and Python's json.load (a peer:
#                       any Python implementation pays at least that)
#   dump            vs  the SAX pass over the JSON it writes
#   plain           gdmap's own plain JSON parser over the description
#                   (what build and verify read a plain description with)
#   check           vs  sha256sum of the map
#   py-build        bench/peers/naive_build.py, a naive Python builder that
#                   writes the same map (real hex workload)
# dom, py-load and py-build run up to CLI_BENCH_PEERS_UP_TO dictionaries
# (default 1000000: Python holds about 12 bytes a byte of description).
# Peak RSS is given as a multiple of the input's size.
#
# Two workloads (docs/performance.md):
#   generated  tests/cli/lib/gen_description.py: every form a description
#              has, types from a vocabulary of about fifty spellings
#   real       gdmap-metadata-blobs over every assembly of the .NET
#              installation on PATH (shared frameworks, SDK, compilers):
#              the TypeSpec and MethodSpec instantiations of real code,
#              copied with moved rows past the assemblies' own count, in a
#              shuffled order; once with {"hex"} types (real-hex) and once
#              as ILAsm text (real-text). Skipped without dotnet.
#
#   bench/scripts/cli_bench.sh [--workload generated|real|both] [BUILD_DIR] [N ...]
#       (default: both, build/release, 100000 1000000; 10000000 takes ~20 min)
#
# Needs the release build with the bench targets (cmake --build --preset
# release --target gdmap_cli gdmap_json_floor gdmap-metadata-blobs) and
# python3. Each command runs 3 times, in turn with its floor (round-robin),
# and the minimum CPU time of each is taken; the peak RSS is the largest.
# The maps of the hex form, the text form and the Python peer are compared
# byte for byte, and their sha256 printed: the same N gives the same bytes
# on every machine with the same .NET installation.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
workload=both
if [ "${1:-}" = "--workload" ]; then
  workload=$2
  shift 2
fi
case $workload in generated | real | both) ;; *) echo "--workload: generated, real or both" >&2; exit 2 ;; esac
build=${1:-$root/build/release}
shift || true
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(100000 1000000)
gdmap=$build/tools/gdmap
floor=$build/bench/gdmap_json_floor
blobs=$build/tests/tools/metadata-blobs/gdmap-metadata-blobs
for tool in "$gdmap" "$floor" "$blobs"; do
  [ -x "$tool" ] || {
    echo "missing $tool: cmake --build --preset release --target gdmap_cli gdmap_json_floor gdmap-metadata-blobs" >&2
    exit 2
  }
done
peersUpTo=${CLI_BENCH_PEERS_UP_TO:-1000000}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Runs the labelled commands of one set 3 times each, round-robin, and sets
# cpu[LABEL] (minimum user + sys seconds) and peak[LABEL] (largest KiB).
declare -A cpu peak
measure_set() {  # LABEL=COMMAND ...
  local spec label cmd t m
  cpu=()
  peak=()
  for _ in 1 2 3; do
    for spec in "$@"; do
      label=${spec%%=*}
      cmd=${spec#*=}
      /usr/bin/time -f "%U %S %M" -o "$work/time" sh -c "$cmd" >/dev/null 2>&1 || true
      read -r t m < <(awk '{ printf "%.3f %d\n", $1 + $2, $3 }' "$work/time")
      if [ -z "${cpu[$label]:-}" ] || awk -v a="$t" -v b="${cpu[$label]}" 'BEGIN { exit !(a < b) }'; then
        cpu[$label]=$t
      fi
      if [ -z "${peak[$label]:-}" ] || [ "$m" -gt "${peak[$label]}" ]; then peak[$label]=$m; fi
    done
  done
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
row() {  # SIZE PHASE CPU FLOOR PEAK_KIB INPUT_BYTES
  printf '%-10s %-10s %9s %9s %8s %9.1f  %.2f\n' "$1" "$2" "$3" "$4" "$(ratio "$3" "$4")" \
    "$(awk -v k="$5" 'BEGIN { print k / 1024 }')" "$(awk -v k="$5" -v b="$6" 'BEGIN { print k * 1024 / b }')"
}
header() {
  printf '\n== %s\n' "$1"
  printf '%-10s %-10s %9s %9s %8s %9s  %s\n' dicts phase "cpu s" "floor s" "x floor" "peak MiB" "peak / input"
}

# One description: every phase beside its floor. $1 size, $2 description,
# $3 whether to run the Python peer (hex only).
bench_description() {
  local n=$1 desc=$2 peer=$3 map=$work/m.gdmap descBytes mapBytes
  "$gdmap" build "$desc" -o "$map" 2>/dev/null
  "$gdmap" dump "$map" -o "$work/dump.json"
  descBytes=$(stat -c %s "$desc")
  mapBytes=$(stat -c %s "$map")
  local commands=(
    "sax=$floor sax $desc"
    "build=$gdmap build $desc -o $work/out.gdmap"
    "verify=$gdmap verify $desc $map"
    "plain=$floor plain $desc"
  )
  # The peers hold the whole description in memory (Python: about 12 times
  # it), so they run up to peersUpTo dictionaries.
  local peers=no
  [ "$n" -le "$peersUpTo" ] && peers=yes
  [ "$peers" = yes ] && commands+=("dom=$floor dom $desc"
    "py-load=python3 -c 'import json, sys; json.load(open(sys.argv[1]))' $desc")
  [ "$peers" = yes ] || peer=no
  [ "$peer" = yes ] && commands+=("py-build=python3 $root/bench/peers/naive_build.py $desc $work/peer.gdmap")
  measure_set "${commands[@]}"
  row "$n" build "${cpu[build]}" "${cpu[sax]}" "${peak[build]}" "$descBytes"
  row "$n" verify "${cpu[verify]}" "${cpu[sax]}" "${peak[verify]}" "$descBytes"
  row "$n" plain "${cpu[plain]}" "${cpu[sax]}" "${peak[plain]}" "$descBytes"
  if [ "$peers" = yes ]; then
    row "$n" dom "${cpu[dom]}" "${cpu[sax]}" "${peak[dom]}" "$descBytes"
    row "$n" py-load "${cpu[py-load]}" "${cpu[sax]}" "${peak[py-load]}" "$descBytes"
  fi
  if [ "$peer" = yes ]; then
    row "$n" py-build "${cpu[py-build]}" "${cpu[sax]}" "${peak[py-build]}" "$descBytes"
    cmp -s "$map" "$work/peer.gdmap" || { echo "the Python peer's map differs from gdmap's" >&2; exit 1; }
    printf '%-10s %-10s %s\n' "$n" "peer/build" "$(ratio "${cpu[py-build]}" "${cpu[build]}") x (the same map)"
  fi
  local build_cpu=${cpu[build]}
  measure_set "dumpsax=$floor sax $work/dump.json" "dump=$gdmap dump $map -o $work/out.json" \
    "sha=sha256sum $map" "check=$gdmap check $map"
  row "$n" dump "${cpu[dump]}" "${cpu[dumpsax]}" "${peak[dump]}" "$mapBytes"
  row "$n" check "${cpu[check]}" "${cpu[sha]}" "${peak[check]}" "$mapBytes"
  printf '%-10s %-10s %s\n' "$n" "map" "$(sha256sum <"$map" | cut -c1-16) ($mapBytes bytes)"
  last_build_cpu=$build_cpu
}

if [ "$workload" != real ]; then
  header "generated (tests/cli/lib/gen_description.py 1 N)"
  for n in "${sizes[@]}"; do
    python3 "$root/tests/cli/lib/gen_description.py" 1 "$n" >"$work/d.json"
    bench_description "$n" "$work/d.json" no
  done
fi

if [ "$workload" != generated ]; then
  if ! command -v dotnet >/dev/null 2>&1; then
    echo "real workload skipped: no dotnet on PATH" >&2
  else
    dotnetRoot=$(dirname "$(readlink -f "$(command -v dotnet)")")
    mapfile -t assemblies < <(find "$dotnetRoot" -name '*.dll' | LC_ALL=C sort)
    declare -A buildCpu
    for form in hex text; do
      header "real-$form (${#assemblies[@]} assemblies under $dotnetRoot)"
      for n in "${sizes[@]}"; do
        flags=(--description --keep-going --dictionaries "$n" --shuffle 21)
        [ "$form" = text ] && flags+=(--text)
        "$blobs" "${flags[@]}" "${assemblies[@]}" >"$work/r.json" 2>/dev/null || true
        peer=no
        [ "$form" = hex ] && peer=yes
        bench_description "$n" "$work/r.json" "$peer"
        buildCpu[$form.$n]=$last_build_cpu
        cp "$work/m.gdmap" "$work/real-$form-$n.gdmap"
        if [ "$form" = text ]; then
          cmp -s "$work/real-hex-$n.gdmap" "$work/real-text-$n.gdmap" ||
            { echo "real-text $n: not the map of real-hex $n" >&2; exit 1; }
          rm -f "$work/real-hex-$n.gdmap" "$work/real-text-$n.gdmap"
        fi
      done
      # Growth: build's CPU time from each size to the next.
      for ((k = 1; k < ${#sizes[@]}; k++)); do
        a=${sizes[k - 1]} b=${sizes[k]}
        printf 'growth %s -> %s (%s x the input): build %s x\n' "$a" "$b" "$(ratio "$b" "$a")" \
          "$(ratio "${buildCpu[$form.$b]}" "${buildCpu[$form.$a]}")"
      done
    done
  fi
fi
