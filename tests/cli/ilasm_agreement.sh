#!/usr/bin/env bash
# `gdmap sig encode` must write exactly the bytes Mono's ilasm writes for the
# same type text. Each type of tests/corpus/ilasm_types.txt (gdmap syntax,
# metadata tokens) becomes one `.field static TYPE fN` of a generated
# assembly, with the tokens replaced by the names of classes the assembly
# declares (TypeDefs) or references (TypeRefs). ilasm assembles it; the
# field signatures (06, then the type) are read back with
# gdmap-metadata-blobs and compared, line by line, with gdmap's encoding of
# the corpus text. TypeRef tokens are whatever ilasm chose: the script reads
# the TypeRef table to learn them and puts them into the gdmap text.
#
# Usage (as CTest runs it): ilasm_agreement.sh GDMAP SOURCE_ROOT BLOBS_DRIVER
# Exit: 0 all agree, 1 a difference or error, 77 skipped (no ilasm).
set -euo pipefail

gdmap=$1
source_root=$2
blobs_driver=$3
corpus="$source_root/tests/corpus/ilasm_types.txt"

# shellcheck source=lib/mono_corpus.bash
source "$(dirname "${BASH_SOURCE[0]}")/lib/mono_corpus.bash"
find_blobs_tool "$blobs_driver"
if ! command -v ilasm >/dev/null 2>&1; then
  echo "SKIP: Mono's ilasm is not installed (Debian: apt-get install mono-devel)"
  exit 77
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 1. Split the corpus: directives, and the type lines with their line
# numbers; expected.tsv holds, per type, "GDMAP_HEX ILASM_HEX" from an
# @expect directive or "-" (gdmap must write what ilasm writes).
awk -v dir="$work" '
  /^[[:space:]]*(#|$)/ { next }
  $1 == "@typedef" { print $2 "\t" $3 "\t" substr($0, index($0, $4)) > (dir "/typedefs.tsv"); next }
  $1 == "@typeref" { print $2 "\t" $3 > (dir "/typerefs.tsv"); next }
  $1 == "@expect" { expect = tolower($2) "\t" tolower($3); next }
  /^@/ { print "corpus line " NR ": unknown directive " $1 > "/dev/stderr"; exit 1 }
  {
    print NR "\t" $0 > (dir "/types.tsv")
    print (expect == "" ? "-\t-" : expect) > (dir "/expected.tsv")
    expect = ""
  }
' "$corpus"

# token -> the name ILAsm uses for it (a TypeDef's name without its
# generic parameters; a TypeRef's [scope]Namespace.Name).
awk -F'\t' '{ name = $3; sub(/<.*/, "", name); print tolower($1) "\t" name }' \
  "$work/typedefs.tsv" >"$work/symbolic_names.tsv"
awk -F'\t' '{ print tolower($1) "\t" $2 }' "$work/typerefs.tsv" >>"$work/symbolic_names.tsv"

# Replaces every metadata token in field 2 of each line by its entry in the
# map file (token -> replacement); an unknown token is an error.
replace_tokens() {  # MAP_FILE INPUT_TSV
  awk -F'\t' -v OFS='\t' '
    NR == FNR { map[$1] = $2; next }
    {
      text = $2; out = ""
      while (match(text, /0[xX][0-9a-fA-F]+/)) {
        token = tolower(substr(text, RSTART, RLENGTH))
        # Tokens may be written with fewer than 8 digits: normalize.
        digits = substr(token, 3)
        while (length(digits) < 8) digits = "0" digits
        token = "0x" digits
        if (!(token in map)) {
          print "corpus line " $1 ": no @typedef/@typeref for token " token > "/dev/stderr"
          failed = 1
        }
        out = out substr(text, 1, RSTART - 1) map[token]
        text = substr(text, RSTART + RLENGTH)
      }
      print $1, out text
    }
    END { exit failed }
  ' "$1" "$2"
}

# 2. The assembly: the declared classes in corpus order, then one field per
# type in a generic holder (so !0..!3 name its parameters).
replace_tokens "$work/symbolic_names.tsv" "$work/types.tsv" >"$work/ilasm_types.tsv"
{
  echo '.assembly extern mscorlib { .publickeytoken = (B7 7A 5C 56 19 34 E0 89) .ver 4:0:0:0 }'
  echo '.assembly ilasm_types {}'
  echo '.module ilasm_types.dll'
  while IFS=$'\t' read -r _token kind declaration; do
    if [[ $kind == valuetype ]]; then
      echo ".class public sealed $declaration extends [mscorlib]System.ValueType { .size 1 }"
    else
      echo ".class public $declaration extends [mscorlib]System.Object {}"
    fi
  done <"$work/typedefs.tsv"
  echo '.class public Holder<T0, T1, T2, T3> extends [mscorlib]System.Object {'
  n=0
  while IFS=$'\t' read -r line text; do
    n=$((n + 1))
    echo "  .field public static $text f$n  // corpus line $line"
  done <"$work/ilasm_types.tsv"
  echo '}'
} >"$work/ilasm_types.il"

if ! (cd "$work" && ilasm /dll /quiet /output:ilasm_types.dll ilasm_types.il) >"$work/ilasm.log" 2>&1; then
  echo "FAIL: ilasm rejected the generated assembly:" >&2
  cat "$work/ilasm.log" >&2
  # ilasm names the .il line as "(LINE, COLUMN)"; show it with its corpus line.
  il_line=$(sed -n 's/.*(\([0-9][0-9]*\), [0-9]*).*/\1/p' "$work/ilasm.log" | head -n 1)
  if [[ -n $il_line ]]; then sed -n "${il_line}p" "$work/ilasm_types.il" >&2; fi
  exit 1
fi

# 3. The tokens ilasm gave each name, and the corpus text with them.
"$blobs_tool" --typedefs "$work/ilasm_types.dll" >"$work/typedefs.out"
"$blobs_tool" --typerefs "$work/ilasm_types.dll" >"$work/typerefs.out"
awk -F'\t' '
  FILENAME ~ /symbolic_names/ { n = $2; sub(/^\[[^]]*\]/, "", n); symbolic[n] = symbolic[n] " " $1; next }
  {
    split($0, f, " ")
    if (f[2] in symbolic) {
      count = split(symbolic[f[2]], tokens, " ")
      for (i = 1; i <= count; ++i) print tokens[i] "\t" f[1]
    }
  }
' "$work/symbolic_names.tsv" "$work/typedefs.out" "$work/typerefs.out" >"$work/real_tokens.tsv"
replace_tokens "$work/real_tokens.tsv" "$work/types.tsv" >"$work/gdmap_types.tsv"

# 4. Both encodings, one line per type.
"$blobs_tool" --field "$work/ilasm_types.dll" | sed 's/^06//' >"$work/ilasm.hex"
cut -f2 "$work/gdmap_types.tsv" >"$work/gdmap_types.txt"
encode_status=0
"$gdmap" sig encode <"$work/gdmap_types.txt" >"$work/gdmap.hex" 2>"$work/encode.err" || encode_status=$?
if [[ $encode_status -gt 1 ]]; then
  echo "FAIL: gdmap sig encode exited $encode_status:" >&2
  head -n 20 "$work/encode.err" >&2
  exit 1
fi

total=$(wc -l <"$work/gdmap_types.tsv")
if [[ $(wc -l <"$work/ilasm.hex") -ne $total || $(wc -l <"$work/gdmap.hex") -ne $total ]]; then
  echo "FAIL: line counts differ: $total types, $(wc -l <"$work/ilasm.hex") ilasm fields," \
       "$(wc -l <"$work/gdmap.hex") gdmap results" >&2
  exit 1
fi

# 5. Compare; report the first few differences with everything needed to
# reproduce them.
# Columns: line, text, ilasm hex, gdmap hex, @expect gdmap hex, @expect ilasm hex.
paste "$work/gdmap_types.tsv" "$work/ilasm.hex" "$work/gdmap.hex" "$work/expected.tsv" >"$work/joined.tsv"
# (An empty field becomes "<error>": read would merge two tabs into one.)
awk -F'\t' -v OFS='\t' '
  $5 == "-" ? $3 != $4 : ($4 != $5 || $3 != $6) {
    for (i = 1; i <= NF; ++i) if ($i == "") $i = "<error>"
    print
  }' "$work/joined.tsv" >"$work/differ.tsv"
differ=$(wc -l <"$work/differ.tsv")
known=$(awk -F'\t' '$5 != "-"' "$work/joined.tsv" | wc -l)
if [[ $differ -ne 0 ]]; then
  echo "FAIL: $differ of $total types: gdmap sig encode differs from ilasm. First ones:" >&2
  head -n 10 "$work/differ.tsv" | while IFS=$'\t' read -r line text ilasm_hex gdmap_hex want_gdmap want_ilasm; do
    echo "  corpus line $line: $text" >&2
    if [[ $want_gdmap != - ]]; then
      echo "    @expect: gdmap $want_gdmap, ilasm $want_ilasm (a known ilasm deviation)" >&2
    fi
    echo "    ilasm: ${ilasm_hex}   (gdmap sig decode: $("$gdmap" sig decode "$ilasm_hex" 2>&1 </dev/null || true))" >&2
    echo "    gdmap: $gdmap_hex" >&2
  done
  if [[ -s $work/encode.err ]]; then
    echo "gdmap sig encode said (stdin line N is the Nth type of the corpus):" >&2
    head -n 10 "$work/encode.err" >&2
  fi
  exit 1
fi
echo "ilasm_agreement: $total types: gdmap sig encode agrees with ilasm byte for byte" \
     "($known where ilasm breaks ECMA-335 checked against the spec's bytes instead)"
