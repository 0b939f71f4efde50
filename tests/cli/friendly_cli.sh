# A command line that helps (issue 10): the nearest name for a mistyped
# subcommand or option, a note when a JSON description is given where a map
# is expected (or a map where a description is), the offending line with a
# caret under a JSON syntax error, descriptions with comments, and the bash
# completion and man page that `cmake --install` installs.
# Arguments: GDMAP SOURCE_ROOT BLOBS_DRIVER (see tests/CMakeLists.txt).
set -euo pipefail
gdmap=$1
root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli_test.bash"
lacks() { if grep -qF -- "$2" "$work/$1"; then cat "$work/$1" >&2; fail "$1 has: $2"; fi; }
maps=$root/examples/maps
il=$root/examples/il/worked_example.json

# --- did you mean: subcommands and options of the level being read; usage, 2.
expect 2 "$gdmap" chek "$maps/basic.gdmap"
has err "unknown command 'chek' for \`gdmap\`; did you mean 'check'? [usage]"
has err "Run \`gdmap --help\`"
expect 2 "$gdmap" check --strct "$maps/basic.gdmap"
has err "unknown option '--strct' for \`gdmap check\`; did you mean '--strict'? [usage]"
expect 2 "$gdmap" il chekc "$maps/basic.gdmap"
has err "did you mean 'check'?"
expect 2 "$gdmap" il build "$il" --fromat api
has err "unknown option '--fromat' for \`gdmap il build\`; did you mean '--format'?"
expect 2 "$gdmap" sig ecnode int32
has err "did you mean 'encode'?"
# An option's value is not taken for a subcommand; a transposition is one step.
expect 2 "$gdmap" check --max-diagnostics 3 "$maps/basic.gdmap" --jsno
has err "did you mean '--json'?"
# --json: the same rule and message in the diagnostics, exit 2.
expect 2 "$gdmap" --json chek "$maps/basic.gdmap"
has out '"rule": "usage"'
has out "did you mean 'check'?"
# Nothing near: CLI11's own message, no guess.
expect 2 "$gdmap" frobnicate
lacks err "did you mean"
expect 2 "$gdmap" check -q "$maps/basic.gdmap"
lacks err "did you mean"

# --- a JSON description where a map is expected, and the other way round.
expect 1 "$gdmap" check "$maps/basic.json"
has err "basic.json: note: it looks like a JSON description, not a binary map; did you mean \`gdmap build $maps/basic.json\`? [wrong-input-kind]"
expect 1 "$gdmap" lookup "$maps/basic.json" 0x1000
has err "did you mean \`gdmap build $maps/basic.json\`?"
expect 1 "$gdmap" dump "$maps/basic.json"
has err "did you mean \`gdmap build"
expect 1 "$gdmap" check --json "$maps/basic.json"
has out '"severity": "note", "rule": "wrong-input-kind", "message": "it looks like a JSON description, not a binary map'
expect 1 "$gdmap" build "$maps/basic.gdmap"
has err "it looks like a binary map, not a JSON description; did you mean \`gdmap dump $maps/basic.gdmap\`?"
# verify with its operands swapped names the right order.
expect 1 "$gdmap" verify "$maps/basic.gdmap" "$maps/basic.json"
has err "did you mean \`gdmap verify $maps/basic.json $maps/basic.gdmap\`?"
# A valid map and a good description get no such note.
expect 0 "$gdmap" check "$maps/basic.gdmap"
lacks err "looks like"
expect 0 "$gdmap" verify "$maps/basic.json" "$maps/basic.gdmap"
lacks err "looks like"
# A name that needs quoting is quoted for the shell.
cp "$maps/basic.json" "$work/my desc.json"
expect 1 "$gdmap" check "$work/my desc.json"
has err "did you mean \`gdmap build '$work/my desc.json'\`?"
# gdmap il: the same for blobs and IL descriptions.
expect 1 "$gdmap" il check "$il" --format nibble
has err "it looks like a JSON IL description, not a binary IL-to-native map; did you mean \`gdmap il build $il\`?"
expect 1 "$gdmap" il dump "$il" --format packed2
has err "did you mean \`gdmap il build $il\`?"
expect 1 "$gdmap" il build "$maps/basic.gdmap" --format api
has err "it looks like a binary IL-to-native map, not a JSON IL description"
expect 1 "$gdmap" il verify "$maps/basic.gdmap" "$il" --format api
has err "did you mean \`gdmap il verify --format FORM $il $maps/basic.gdmap\`?"

# Issue 20: a PE image where a description is expected points at il extract;
# JSON given to il extract or il hexdump says so; a description in type
# names built without --names suggests --names.
image=$root/tests/data/r2r/Microsoft.Win32.Primitives.dll
expect 1 "$gdmap" il build "$image" --format nibble
has err "it looks like a PE image, not a JSON IL description; did you mean \`gdmap il extract $image\`? [wrong-input-kind]"
expect 1 "$gdmap" il lookup "$image"
has err "did you mean \`gdmap il extract $image\`?"
expect 1 "$gdmap" il extract "$il" -o "$work/never.json"
has err "it looks like a JSON IL description, not a PE image; did you mean \`gdmap il build --format FORM $il\`?"
expect 1 "$gdmap" il extract "$il" --names -o "$work/never.json"
has err "[names-not-assembly]"
has err "not a PE image"
expect 1 "$gdmap" il hexdump "$il" --format nibble
has err "it looks like a JSON IL description, not a binary IL-to-native map; did you mean \`gdmap il build $il\`?"
expect 1 "$gdmap" il hexdump --json "$il" --format nibble
has out '"rule": "wrong-input-kind"'
# a blob that is valid gets no note
"$gdmap" il build "$il" --format nibble --method 0x06000001 -o "$work/we.nibble"
expect 0 "$gdmap" il hexdump "$work/we.nibble" --format nibble
lacks err "looks like"
printf '{"dictionaries": [{"rva": 4096, "types": ["class [System.Runtime]System.Threading.Tasks.Task`1<int32>"]}]}\n' >"$work/named.json"
expect 1 "$gdmap" build "$work/named.json" -o "$work/never.gdmap"
has err "[type-text-syntax]"
has err "named.json: note: its types are written by name (\`class [System.Runtime]System.Threading.Tasks.Task\`1\`)"
has err "did you mean to add \`--names ASSEMBLY\`"
has err "[names-needed]"
expect 1 "$gdmap" verify "$work/named.json" "$maps/basic.gdmap"
has err "[names-needed]"
# A syntax error in token text gets no such note.
printf '{"dictionaries": [{"rva": 4096, "types": ["class 0x01000012 <"]}]}\n' >"$work/tokens.json"
expect 1 "$gdmap" build "$work/tokens.json" -o "$work/never.gdmap"
lacks err "names-needed"

# --- a JSON syntax error: the line, and a caret under the column (text only).
printf '{\n  "dictionaries": [\n    { "rva": 0x10, "raw": "00" }\n  ]\n}\n' >"$work/bad.json"
expect 1 "$gdmap" build "$work/bad.json"
has err "bad.json:3:15: error:"
has err "[invalid-json]"
# The caret sits under the column the diagnostic names (15: the 'x').
printf '   3 |     { "rva": 0x10, "raw": "00" }\n     |               ^\n' >"$work/want"
grep -A2 -F '[invalid-json]' "$work/err" | tail -n 2 >"$work/got"
diff "$work/want" "$work/got" >&2 || fail "caret lines differ"
expect 1 "$gdmap" build --json -o "$work/never.gdmap" "$work/bad.json"
[ ! -s "$work/err" ] || { cat "$work/err" >&2; fail "--json printed the source line on stderr"; }
has out '"rule": "invalid-json"'
# A long line is cut around the column; control bytes are shown escaped.
{ printf '{"dictionaries": ['; for _ in $(seq 200); do printf '{"rva": 1, "raw": "00"}, '; done; printf '\001]}\n'; } >"$work/long.json"
expect 1 "$gdmap" build "$work/long.json"
has err '...'
has err '\x01'
[ "$(awk 'length > 200' "$work/err" | wc -l)" -eq 0 ] || fail "an excerpt line is longer than 200 characters"
# The IL description's errors get it too.
printf '{ "methods": [ { "token": 1 } ]\n' >"$work/bad-il.json"
expect 1 "$gdmap" il build "$work/bad-il.json" --format api
has err "bad-il.json:2:1: error:"
has err "   2 | "

# --- comments: a commented description builds the same map; positions count them.
{ echo '// basic.json, with comments'; echo '/* a block'; echo '   of two lines */'; cat "$maps/basic.json"; echo '// end'; } >"$work/commented.json"
expect 0 "$gdmap" build "$work/commented.json" -o "$work/commented.gdmap"
cmp "$maps/basic.gdmap" "$work/commented.gdmap" || fail "the commented description built other bytes"
printf '{ /* "x": 1 */ "dictionaries": [],\n  // "y": 2\n  "extra": 1 }\n' >"$work/unknown.json"
expect 1 "$gdmap" build "$work/unknown.json"
has err "unknown.json:3:12: error: /extra:"
printf '{ "dictionaries": [] } /* never closed\n' >"$work/open.json"
expect 1 "$gdmap" build "$work/open.json"
has err "open.json:2:1: error:"  # where the text ends, still in the comment
has err "missing closing '*/'"
has err "[invalid-json]"

# --- progress: on a terminal only (script(1) gives one), after a delay that
# GDMAP_PROGRESS_DELAY_MS=0 takes away; erased when the step ends.
GDMAP_PROGRESS_DELAY_MS=0 "$gdmap" build "$maps/basic.json" -o "$work/quiet.gdmap" 2>"$work/err"
[ ! -s "$work/err" ] || { cat "$work/err" >&2; fail "progress shown when stderr is not a terminal"; }
if command -v script >/dev/null; then
  GDMAP_PROGRESS_DELAY_MS=0 script -qec "'$gdmap' build '$maps/basic.json' -o '$work/tty.gdmap'" /dev/null >"$work/tty" </dev/null
  has tty "gdmap: building $maps/basic.json (331 bytes)... 0s"
  [ "$(tail -c 4 "$work/tty" | od -An -c | tr -d ' ')" = '\r033[K' ] || fail "the progress line is not erased at the end"
  GDMAP_PROGRESS_DELAY_MS=0 script -qec "'$gdmap' dump '$maps/basic.gdmap' -o '$work/tty.json'" /dev/null >"$work/tty" </dev/null
  has tty "gdmap: checking $maps/basic.gdmap ("
  cmp "$maps/basic.gdmap" "$work/tty.gdmap" || fail "the build shown with progress wrote other bytes"
fi

# --- bash completion: names and options come from the binary's --help.
completion=$root/tools/completion/gdmap.bash
complete_words() {  # the words the completion offers for the command line "$@" (last word: being typed)
  bash -c 'source "$1"; shift; program=$1; shift
    COMP_WORDS=(gdmap "$@"); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
    _gdmap "$program" gdmap; [ ${#COMPREPLY[@]} -eq 0 ] || printf "%s\n" "${COMPREPLY[@]}"' _ "$completion" "$gdmap" "$@"
}
[ "$(complete_words ch)" = check ] || fail "completion of 'ch': $(complete_words ch)"
complete_words "" >"$work/out"
for name in sig build dump check verify lookup il; do grep -qx "$name" "$work/out" || fail "completion lacks $name"; done
[ "$(complete_words il co)" = convert ] || fail "completion of 'il co': $(complete_words il co)"
[ "$(complete_words check --st)" = --strict ] || fail "completion of 'check --st'"
[ "$(complete_words il build x.json --format p | tr '\n' ' ')" = "packed2 packed3 " ] || fail "--format values"
[ "$(complete_words il convert b --from nibble --to a)" = api ] || fail "--to values"
complete_words il build --method "" >"$work/out"
[ ! -s "$work/out" ] || fail "a token was completed: $(cat "$work/out")"
(cd "$work" && complete_words check comm) >"$work/out"
grep -qx commented.json "$work/out" || grep -qx commented.gdmap "$work/out" || fail "no file completion: $(cat "$work/out")"

# --- the man page names every command.
man_page=$root/docs/gdmap.1
for level in "" il sig; do
  # shellcheck disable=SC2086
  "$gdmap" $level --help | awk '/^Subcommands:$/ { on = 1; next } /^$/ { on = 0 } on { print $1 }' >"$work/names"
  [ -s "$work/names" ] || fail "no subcommands listed by gdmap $level --help"
  while read -r name; do
    grep -q -- "$name" "$man_page" || fail "docs/gdmap.1 does not mention 'gdmap $level $name'"
  done <"$work/names"
done
if command -v groff >/dev/null; then
  groff -man -Tutf8 -ww "$man_page" 2>"$work/err" >/dev/null
  [ ! -s "$work/err" ] || { cat "$work/err" >&2; fail "groff warns about docs/gdmap.1"; }
fi
echo "friendly CLI checks passed"
