# An endless or huge pipe given where an image is expected (issue 30): its
# first bytes say it is neither a PE image nor a core dump, and gdmap stops
# reading there and refuses it with the error the whole input gets (no MZ
# signature, at byte 0) instead of reading up to the 1 GiB input cap. What
# was read is bounded: the writer counts the 64 KiB blocks it wrote before
# the pipe closed; nothing is timed.
# (A binary map and an IL blob have no signature: any bytes start one, and
# `gdmap dump -` dumps random bytes as far as they go, so they are read to
# their end or the cap as before; a JSON description stops at its first
# invalid byte, tests/cli/input_bounded.sh.)
# Arguments: GDMAP SOURCE_ROOT BLOBS_DRIVER (see tests/CMakeLists.txt).
set -euo pipefail
gdmap=$1
root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli_test.bash"
cd "$work"

# `writer FILE`: up to 2 GiB of spaces in 64 KiB blocks, stopping when the
# reader is gone (EPIPE: SIGPIPE ignored); the number of blocks in FILE.
writer() {
  trap '' PIPE
  local blocks=0
  local block
  block=$(printf '%65536s' '')
  while [ "$blocks" -lt 32768 ] && printf '%s' "$block" 2>/dev/null; do blocks=$((blocks + 1)); done
  echo "$blocks" >"$1"
}
# `refused NAME COMMAND...`: COMMAND reading the writer's pipe on stdin exits
# 1 with no MZ signature at byte 0 (r2r-not-pe; --names: names-not-assembly), the writer having written at most 64 blocks
# (4 MiB: what gdmap looks at, and what the pipe holds).
refused() {
  local name=$1 got=0
  shift
  set +o pipefail
  writer "$name.blocks" | "$@" >"$work/out" 2>"$work/err" || got=$?
  set -o pipefail
  [ "$got" -eq 1 ] || { cat "$work/err" >&2; fail "'$*' exited $got, expected 1"; }
  if [[ " $* " == *" --json "* ]]; then has out '"rule": "r2r-not-pe"'; else
    has err "stdin: error: byte 0x00000000: "
    has err "PE: no MZ signature"
  fi
  local blocks
  blocks=$(cat "$name.blocks")
  [ "$blocks" -le 64 ] || fail "'$*' let the writer write $blocks blocks of 64 KiB before refusing"
}

refused extract "$gdmap" il extract -
refused extract_json "$gdmap" il extract - --json -o x.json
refused extract_names "$gdmap" il extract - --names
refused locate "$gdmap" il locate - 0x1000

# Random bytes: the same error as a short random input gets.
{ printf 'x'; head -c 100000 /dev/urandom; } >random.bin
expect 1 "$gdmap" il extract random.bin
cp err whole.err
set +o pipefail
{ cat random.bin; head -c 2G /dev/urandom 2>/dev/null; } | "$gdmap" il extract - >out 2>err && fail "accepted random bytes"
set -o pipefail
[ "$(sed 's/^stdin/random.bin/' err)" = "$(cat whole.err)" ] || { cat err whole.err >&2; fail "another error than the file's"; }

# An image on a pipe is still read whole.
image=$root/tests/data/r2r/System.Threading.Tasks.Extensions.dll
[ -f "$image" ] || { echo "no $image" >&2; exit 77; }
expect 0 "$gdmap" il extract "$image"
cp out whole.json
cat "$image" | "$gdmap" il extract - >out 2>err || { cat err >&2; fail "il extract of a piped image failed"; }
cmp -s out whole.json || fail "a piped image extracts otherwise than the file"
echo "input_early_refusal: ok"
