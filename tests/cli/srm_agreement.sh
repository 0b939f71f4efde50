# Opt-in: gdmap reads type signatures as System.Reflection.Metadata does,
# the reference for where a SENTINEL (0x41) belongs (issue #20,
# docs/type-text.md "Function pointers"). Builds tests/srm (a console
# program over SRM's SignatureDecoder that prints gdmap's type text) into a
# scratch folder and decodes with it and with `gdmap sig decode`: the types
# of tests/corpus/ilasm_types.txt (encoded by gdmap) and the sentinel cases
# below. Where SRM reads every byte, both must print the same text; where
# SRM refuses a case below, so must gdmap. SRM reads no trailing sentinel
# (ilasm's `1b 05 01 08 08 41`), which gdmap does read: those are counted.
# Runs only with GDMAP_SRM=1 (else skipped, status 77); needs dotnet (an SDK
# for net10.0).
# Arguments: GDMAP SOURCE_ROOT BLOBS_DRIVER (see tests/CMakeLists.txt).
set -euo pipefail
gdmap=$1
root=$2
[ "${GDMAP_SRM:-}" = 1 ] || { echo "SKIP: set GDMAP_SRM=1 to run (builds a .NET program)"; exit 77; }
command -v dotnet >/dev/null 2>&1 || { echo "SKIP: dotnet is needed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli_test.bash"

cp "$root/tests/srm/srm_types.csproj" "$root/tests/srm/Program.cs" "$work/"
(cd "$work" && dotnet build -c Release -o out --nologo) >"$work/build.log" 2>&1 ||
  { cat "$work/build.log" >&2; fail "building tests/srm failed"; }

# The sentinel cases: HEX and what SRM must do with them: `same` (read
# every byte, as gdmap), `refused` (gdmap refuses them too) or `trailing`
# (SRM leaves or refuses the trailing sentinel gdmap reads).
cat >"$work/cases.tsv" <<'CASES'
20211b050215122902101300111d0f1b65021912250541151229021b6101130109140e020105027f02	same
1b0502011b0500014108	same
1b05011b0500014108	same
1b0502010f1b050101084108	same
1b0503011b0001010841080e	same
1b05020115124902081b050101084108	same
1b0502011b050001414108	refused
1b050201411b050101084108	refused
1b0501011b0501010841	trailing
151249021b0500014108	trailing
CASES
cut -f1 "$work/cases.tsv" >"$work/cases.hex"

# The corpus, encoded by gdmap (metadata tokens as written).
grep -v -E '^[[:space:]]*(#|@|$)' "$root/tests/corpus/ilasm_types.txt" >"$work/corpus.txt"
"$gdmap" sig encode <"$work/corpus.txt" >"$work/corpus.hex" 2>"$work/encode.err" ||
  { cat "$work/encode.err" >&2; fail "gdmap sig encode of the corpus failed"; }

cat "$work/cases.hex" "$work/corpus.hex" >"$work/all.hex"
dotnet "$work/out/srm_types.dll" <"$work/all.hex" >"$work/srm.tsv"
"$gdmap" sig decode <"$work/all.hex" >"$work/gdmap.txt" 2>"$work/decode.err" || true
[ "$(wc -l <"$work/srm.tsv")" -eq "$(wc -l <"$work/all.hex")" ] || fail "SRM did not answer every line"

cases=$(wc -l <"$work/cases.hex")
paste "$work/all.hex" "$work/gdmap.txt" "$work/srm.tsv" | awk -F'\t' -v cases="$cases" -v expectations="$work/cases.tsv" '
  BEGIN { while ((getline line < expectations) > 0) { split(line, f, "\t"); expect[++n] = f[2] } }
  {
    hex = $1; gdmap = $2; srm = $3; srmText = $3 == "left" ? $5 : $4
    want = NR <= cases ? expect[NR] : ""
    if (srm == "ok") {
      same++
      if (gdmap != srmText) { print "FAIL: " hex ": gdmap " gdmap " | SRM " srmText > "/dev/stderr"; bad = 1 }
    } else if (want == "refused" || (want == "" && gdmap == "")) {
      refused++
      if (gdmap != "") { print "FAIL: " hex ": SRM refuses it (" srmText "), gdmap reads " gdmap > "/dev/stderr"; bad = 1 }
    } else if (gdmap ~ /(, |\()\.\.\.\)/) {
      trailing++  # gdmap reads a trailing sentinel, SRM does not
    } else {
      print "FAIL: " hex ": SRM " srm " " srmText ", gdmap " gdmap > "/dev/stderr"; bad = 1
    }
    if (want == "same" && srm != "ok") { print "FAIL: " hex ": SRM did not read it all: " srm " " srmText > "/dev/stderr"; bad = 1 }
    if (want == "refused" && srm != "error") { print "FAIL: " hex ": SRM did not refuse it: " srmText > "/dev/stderr"; bad = 1 }
    if (want == "trailing" && (srm == "ok" || gdmap !~ /(, |\()\.\.\.\)/)) {
      print "FAIL: " hex ": not a trailing sentinel only gdmap reads: gdmap " gdmap " | SRM " srm " " srmText > "/dev/stderr"; bad = 1
    }
  }
  END {
    printf "srm_agreement: %d types read alike by gdmap and SRM, %d refused by both, %d with a trailing sentinel only gdmap reads\n", same, refused, trailing
    exit bad
  }
' || fail "gdmap and System.Reflection.Metadata disagree (see above)"
