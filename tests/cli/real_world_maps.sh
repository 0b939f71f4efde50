#!/usr/bin/env bash
# A generic dictionary map built from real-world signatures: one dictionary
# per MethodSpec instantiation and per GENERICINST TypeSpec argument list of
# every assembly a Mono install ships (tens of thousands of dictionaries,
# many sharing an instantiation). The map must build, check clean, dump to a
# description that rebuilds it byte for byte, verify against its
# description, and not change when the description is shuffled (order,
# instantiation names, shared versus inline, RVA spelling all differ).
#
# Usage (as CTest runs it): real_world_maps.sh GDMAP SOURCE_ROOT BLOBS_DRIVER
# Environment: GDMAP_MONO_ASSEMBLIES overrides where the assemblies are
# looked for (a space-separated list of directories).
# Exit: 0 pass, 1 fail, 77 skipped (no Mono).
set -euo pipefail

gdmap=$1
blobs_driver=$3
min_dictionaries=10000
shuffle_seeds=(20240601 7)

# shellcheck source=lib/mono_corpus.bash
source "$(dirname "${BASH_SOURCE[0]}")/lib/mono_corpus.bash"
find_blobs_tool "$blobs_driver"

find_mono_assemblies

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# Runs gdmap with its stderr kept; on a non-zero exit shows the command and
# the first diagnostics.
run_gdmap() {  # LABEL ARGS...
  local label=$1
  shift
  if ! "$gdmap" "$@" >"$work/$label.out" 2>"$work/$label.err"; then
    echo "FAIL: gdmap $* exited non-zero:" >&2
    head -n 20 "$work/$label.err" >&2
    exit 1
  fi
}

# 1. The description.
"$blobs_tool" --description "${assemblies[@]}" >"$work/D.json"
# The writer puts each dictionary on a line of its own.
dictionaries=$(grep -c '"rva"' "$work/D.json" || true)
shared=$(grep -c '"instantiation"' "$work/D.json" || true)
if [[ $dictionaries -lt $min_dictionaries ]]; then
  fail "only $dictionaries dictionaries from ${#assemblies[@]} assemblies (want >= $min_dictionaries)"
fi

# 2. Build and check.
run_gdmap build build "$work/D.json" -o "$work/M.gdmap"
check_mode=strict
if ! "$gdmap" check "$work/M.gdmap" --strict >"$work/check.out" 2>"$work/check.err"; then
  # Real signatures may legitimately earn warnings (FORMAT.md §1): then
  # the map must still be valid, and the warnings are reported.
  check_mode="valid, with warnings under --strict"
  echo "NOTE: gdmap check --strict rejects the real-world map; its first diagnostics:"
  head -n 10 "$work/check.err"
  if ! "$gdmap" check "$work/M.gdmap" >"$work/check.out" 2>"$work/check.err"; then
    echo "FAIL: gdmap check rejects the map built from real-world signatures:" >&2
    head -n 20 "$work/check.err" >&2
    exit 1
  fi
fi

# 3. Dump, rebuild, compare.
run_gdmap dump dump "$work/M.gdmap" -o "$work/D2.json"
run_gdmap rebuild build "$work/D2.json" -o "$work/M2.gdmap"
cmp "$work/M.gdmap" "$work/M2.gdmap" || fail "the dumped description does not rebuild the map byte for byte"

# 4. Verify the map against its description.
run_gdmap verify verify "$work/D.json" "$work/M.gdmap"

# 5. Shuffled descriptions (dictionary order, names, sharing, RVA spelling)
# build the same bytes and verify against the original map.
for seed in "${shuffle_seeds[@]}"; do
  "$blobs_tool" --description --shuffle "$seed" "${assemblies[@]}" >"$work/S$seed.json"
  if cmp -s "$work/D.json" "$work/S$seed.json"; then
    fail "--shuffle $seed did not change the description"
  fi
  run_gdmap "shuffled$seed" build "$work/S$seed.json" -o "$work/S$seed.gdmap"
  cmp "$work/M.gdmap" "$work/S$seed.gdmap" || fail "shuffling the description (seed $seed) changed the map"
  run_gdmap "verify$seed" verify "$work/S$seed.json" "$work/M.gdmap"
done

# 6. Spot checks: lookup of inline dictionaries returns their types.
grep '"types"' "$work/D.json" | sed -n '1p;500p;$p' >"$work/samples.txt"
samples=0
while IFS= read -r line; do
  rva=$(sed -n 's/.*"rva": "\{0,1\}\([0-9a-fx]*\)"\{0,1\},.*/\1/p' <<<"$line")
  grep -o '"hex": "[0-9a-f]*"' <<<"$line" | sed 's/"hex": "\(.*\)"/\1/' >"$work/sample.hex"
  "$gdmap" sig decode <"$work/sample.hex" >"$work/expected.txt" 2>"$work/decode.err" ||
    fail "gdmap sig decode of the types of RVA $rva failed"
  "$gdmap" lookup "$work/M.gdmap" "$rva" >"$work/found.txt" </dev/null 2>"$work/lookup.err" ||
    fail "gdmap lookup $rva failed: $(head -n 3 "$work/lookup.err")"
  if ! diff "$work/expected.txt" "$work/found.txt" >"$work/lookup.diff"; then
    echo "FAIL: gdmap lookup $rva does not print the dictionary's types:" >&2
    head -n 20 "$work/lookup.diff" >&2
    exit 1
  fi
  samples=$((samples + 1))
done <"$work/samples.txt"

size=$(wc -c <"$work/M.gdmap")
echo "real_world_maps: $dictionaries dictionaries ($shared referring to shared instantiations)" \
     "from ${#assemblies[@]} assemblies; map $size bytes; check: $check_mode;" \
     "dump rebuilds it, verify passes, ${#shuffle_seeds[@]} shuffles give the same bytes;" \
     "$samples lookups match"
