# Every rule id is declared once, documented once and tested:
#   1. each constant in schema/include/gdmap/schema/rules.hpp
#      (`inline constexpr char kX[] = "rule-id";`) has a heading
#      "### `rule-id`" in docs/errors.md, and each such heading names a
#      declared rule (and no rule is declared or documented twice);
#   2. each rule id is mentioned by some test (tests/unit/*.cpp,
#      tests/cli/*.sh), written as a test asserts it: "id", 'id' or [id];
#   3. no source in schema/ writer/ reader/ tools/ spells a rule id as a
#      string literal instead of using its rules:: constant. Comments are
#      ignored (the text from // to the end of the line), and a literal is
#      "..." without escaped quotes inside. Two patterns:
#        a. a literal whose whole content is a declared rule id, anywhere;
#        b. a literal that looks like a rule id (lowercase words joined by
#           '-', at least two) on a line whose code outside literals says
#           rule, Error, Severity, error( or warning(: an undeclared id.
#      A rule built at run time from pieces, or passed through a variable
#      that is not named like that, escapes pattern b.
# Arguments: GDMAP SOURCE_ROOT BLOBS_DRIVER (only the source root is used).
set -euo pipefail
root=$2
rules_header=$root/schema/include/gdmap/schema/rules.hpp
errors_doc=$root/docs/errors.md
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
problems=0
problem() { echo "FAIL: $*" >&2; problems=$((problems + 1)); }

sed -nE 's/^[[:space:]]*inline constexpr char k[A-Za-z0-9_]+\[\] = "([^"]*)";.*/\1/p' "$rules_header" >"$work/declared.all"
sed -nE 's/^### `([^`]*)`[[:space:]]*$/\1/p' "$errors_doc" >"$work/documented.all"
[ -s "$work/declared.all" ] || { echo "FAIL: no rule constants found in $rules_header" >&2; exit 1; }

sort "$work/declared.all" | uniq -d | while read -r id; do echo "FAIL: rule '$id' is declared twice in rules.hpp" >&2; done
sort "$work/documented.all" | uniq -d | while read -r id; do echo "FAIL: rule '$id' is documented twice in docs/errors.md" >&2; done
dups=$( (sort "$work/declared.all" | uniq -d; sort "$work/documented.all" | uniq -d) | wc -l)
problems=$((problems + dups))
sort -u "$work/declared.all" >"$work/declared"
sort -u "$work/documented.all" >"$work/documented"

# 1. declared <-> documented
while read -r id; do problem "rule '$id' (rules.hpp) is not documented in docs/errors.md (### \`$id\`)"; done \
  < <(comm -23 "$work/declared" "$work/documented")
while read -r id; do problem "docs/errors.md documents '$id', which rules.hpp does not declare"; done \
  < <(comm -13 "$work/declared" "$work/documented")

# 2. every declared rule is asserted by a test
tests=()
for f in "$root"/tests/unit/*.cpp "$root"/tests/cli/*.sh; do
  [ "$(basename "$f")" = rules_documented.sh ] && continue
  tests+=("$f")
done
cat "${tests[@]}" >"$work/tests.txt"
while read -r id; do
  grep -qE "[\"'[]${id}[\"']|\\[${id}\\]" "$work/tests.txt" ||
    problem "rule '$id' is mentioned by no test (tests/unit/*.cpp, tests/cli/*.sh): no test shows it is emitted"
done <"$work/declared"

# 3. rule ids spelled as literals in the sources
: >"$work/sources.txt"
while IFS= read -r -d '' f; do
  [ "$f" = "$rules_header" ] && continue
  # file:line:code, with // comments dropped
  awk -v file="${f#"$root"/}" '{ sub(/\/\/.*$/, ""); print file ":" FNR ":" $0 }' "$f" >>"$work/sources.txt"
done < <(find "$root/schema" "$root/writer" "$root/reader" "$root/tools" \( -name '*.cpp' -o -name '*.hpp' \) -print0 | sort -z)
awk -v declared="$work/declared" '
  BEGIN { while ((getline id < declared) > 0) known[id] = 1 }
  {
    split($0, part, ":"); where = part[1] ":" part[2]
    code = substr($0, length(where) + 2)
    bare = code; gsub(/"[^"\\]*"/, "", bare)
    ruleish = bare ~ /(rule|Error|Severity|error\(|warning\()/
    while (match(code, /"[^"\\]*"/)) {
      literal = substr(code, RSTART + 1, RLENGTH - 2)
      code = substr(code, RSTART + RLENGTH)
      if (literal in known)
        print where ": the literal \"" literal "\" spells a rule id: use its rules:: constant"
      else if (ruleish && literal ~ /^[a-z][a-z0-9]*(-[a-z0-9]+)+$/)
        print where ": the literal \"" literal "\" looks like a rule id that rules.hpp does not declare"
    }
  }' "$work/sources.txt" >"$work/literals"
while IFS= read -r line; do problem "$line"; done <"$work/literals"

if [ "$problems" -ne 0 ]; then
  echo "rules documented: $problems problem(s)" >&2
  exit 1
fi
echo "rules documented: $(wc -l <"$work/declared") rules declared, documented, tested and used by constant"
