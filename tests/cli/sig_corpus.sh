#!/usr/bin/env bash
# `gdmap sig decode` then `gdmap sig encode` must give back the exact bytes
# of every type signature in the assemblies a Mono install ships: every
# TypeSpec blob, every MethodSpec argument, and every field's type (the
# Field signature without its leading 06). gdmap-metadata-blobs extracts
# them; duplicates are removed first so the whole corpus takes seconds.
#
# Usage (as CTest runs it): sig_corpus.sh GDMAP SOURCE_ROOT BLOBS_DRIVER
# Environment: GDMAP_MONO_ASSEMBLIES overrides where the assemblies are
# looked for (a space-separated list of directories).
# Exit: 0 every blob round-trips, 1 some do not, 77 skipped (no Mono).
set -euo pipefail

gdmap=$1
blobs_driver=$3

# shellcheck source=lib/mono_corpus.bash
source "$(dirname "${BASH_SOURCE[0]}")/lib/mono_corpus.bash"
find_blobs_tool "$blobs_driver"

find_mono_assemblies

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$blobs_tool" --typespec "${assemblies[@]}" >"$work/typespec.hex"
"$blobs_tool" --methodspec-args "${assemblies[@]}" >"$work/methodspec.hex"
"$blobs_tool" --field "${assemblies[@]}" | sed 's/^06//' >"$work/field.hex"
cat "$work/typespec.hex" "$work/methodspec.hex" "$work/field.hex" | LC_ALL=C sort -u >"$work/input.hex"
blobs=$(wc -l <"$work/input.hex")
if [[ $blobs -eq 0 ]]; then
  echo "FAIL: no blobs extracted from ${#assemblies[@]} assemblies" >&2
  exit 1
fi

decode_status=0
"$gdmap" sig decode <"$work/input.hex" >"$work/text.txt" 2>"$work/decode.err" || decode_status=$?
encode_status=0
"$gdmap" sig encode <"$work/text.txt" >"$work/output.hex" 2>"$work/encode.err" || encode_status=$?
for status in "$decode_status" "$encode_status"; do
  if [[ $status -gt 1 ]]; then
    echo "FAIL: gdmap sig exited $status (usage or I/O error):" >&2
    head -n 5 "$work/decode.err" "$work/encode.err" >&2
    exit 1
  fi
done
if [[ $(wc -l <"$work/text.txt") -ne $blobs || $(wc -l <"$work/output.hex") -ne $blobs ]]; then
  echo "FAIL: gdmap sig does not give one output line per input line" \
       "($blobs blobs, $(wc -l <"$work/text.txt") decoded, $(wc -l <"$work/output.hex") encoded)" >&2
  exit 1
fi

# (An empty field becomes "<error>": read would merge two tabs into one.)
paste "$work/input.hex" "$work/text.txt" "$work/output.hex" |
  awk -F'\t' -v OFS='\t' '$1 != $3 { for (i = 1; i <= NF; ++i) if ($i == "") $i = "<error>"; print }' \
    >"$work/differ.tsv"
differ=$(wc -l <"$work/differ.tsv")
if [[ $differ -ne 0 || $decode_status -ne 0 || $encode_status -ne 0 ]]; then
  echo "FAIL: $differ of $blobs distinct blobs do not round-trip (decode exit $decode_status," \
       "encode exit $encode_status). First ones:" >&2
  head -n 10 "$work/differ.tsv" | while IFS=$'\t' read -r input text output; do
    echo "  blob:    $input" >&2
    echo "  decoded: $text" >&2
    echo "  encoded: $output" >&2
  done
  for log in "$work/decode.err" "$work/encode.err"; do
    if [[ -s $log ]]; then
      echo "gdmap sig $(basename "$log" .err) said:" >&2
      head -n 5 "$log" >&2
    fi
  done
  exit 1
fi
echo "sig_corpus: $blobs distinct type signatures from ${#assemblies[@]} assemblies" \
     "($(wc -l <"$work/typespec.hex") TypeSpecs, $(wc -l <"$work/methodspec.hex") MethodSpec" \
     "arguments, $(wc -l <"$work/field.hex") field types) decode and re-encode to the same bytes"
