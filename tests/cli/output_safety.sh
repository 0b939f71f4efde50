# -o never destroys anything (issue #7, defect 5): the input is refused
# whatever path names it; a symlink is written through (the link stays); a
# FIFO or a device is written in place (the node stays); an existing output
# is untouched when the command fails; no temporary file is left behind; and
# every message names the path the user gave, never the temporary.
# Arguments: GDMAP SOURCE_ROOT BLOBS_DRIVER (see tests/CMakeLists.txt).
set -euo pipefail
gdmap=$1
root=$2
work=$(mktemp -d)
reader_pid=
cleanup() {
  [ -n "$reader_pid" ] && kill "$reader_pid" 2>/dev/null
  chmod -R u+w "$work" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli_test.bash"
no_temporaries() {
  local dir
  for dir in "$@"; do
    if find "$dir" -maxdepth 1 -name '.gdmap-*' | grep -q .; then fail "a temporary file was left in $dir"; fi
  done
}
# Every message names the user's path, never a temporary.
names_no_temporary() { ! grep -q '\.gdmap-' "$work/err" || { cat "$work/err" >&2; fail "a message names the temporary"; }; }

desc=$root/examples/maps/basic.json
map=$root/examples/maps/basic.gdmap
mkdir "$work/d"
cd "$work/d"
cp "$desc" desc.json
cp "$map" map.gdmap

# 1. The input, by its own path, by ./path, through a hard link and through
# a symlink: refused (output-is-input, status 2), the input unchanged.
for output in desc.json ./desc.json "$work/d/../d/desc.json"; do
  expect 2 "$gdmap" build desc.json -o "$output"
  has err "$output: error: is the input file"
  has err "[output-is-input]"
  cmp -s desc.json "$desc" || fail "build -o $output changed its input"
done
ln desc.json hardlink.json
expect 2 "$gdmap" build desc.json -o hardlink.json
has err "hardlink.json: error: is the input file"
cmp -s desc.json "$desc" || fail "build -o HARDLINK changed its input"
ln -s desc.json symlink.json
expect 2 "$gdmap" build desc.json -o symlink.json
has err "symlink.json (a symlink to ./desc.json): is the input file"
[ -L symlink.json ] || fail "the symlink to the input was replaced"
expect 2 "$gdmap" dump map.gdmap -o ./map.gdmap
has err "[output-is-input]"
cmp -s map.gdmap "$map" || fail "dump -o ./MAP changed its input"
# stdin redirected from the output file is the input too.
status=0; "$gdmap" dump - -o map.gdmap <map.gdmap >"$work/out" 2>"$work/err" || status=$?
[ "$status" -eq 2 ] || fail "dump - -o MAP < MAP exited $status"
has err "[output-is-input]"
cmp -s map.gdmap "$map" || fail "dump - -o MAP < MAP changed its input"
# JSON names the rule and the path too.
expect 2 "$gdmap" build desc.json -o ./desc.json --json
has out '"rule": "output-is-input"'
has out '"written": false'
no_temporaries "$work/d"

# 2. A symlink is written through: the link stays a link, its target gets
# the map, the temporary sits beside the target (in another folder) and is
# gone.
mkdir "$work/targets" "$work/links"
printf 'old' >"$work/targets/real.gdmap"
ln -s ../targets/real.gdmap "$work/links/out.gdmap"
expect 0 "$gdmap" build desc.json -o "$work/links/out.gdmap"
[ -L "$work/links/out.gdmap" ] || fail "-o SYMLINK replaced the symlink"
cmp -s "$work/targets/real.gdmap" "$map" || fail "-o SYMLINK did not write the map to the target"
# A dangling symlink: its target is created, as a shell's '>' would.
ln -s ../targets/new.gdmap "$work/links/dangling.gdmap"
expect 0 "$gdmap" build desc.json -o "$work/links/dangling.gdmap"
[ -L "$work/links/dangling.gdmap" ] || fail "-o DANGLING-SYMLINK replaced the symlink"
cmp -s "$work/targets/new.gdmap" "$map" || fail "-o DANGLING-SYMLINK did not create the target"
# A symlink loop is an error that names the path.
ln -s loop1 "$work/links/loop2"
ln -s loop2 "$work/links/loop1"
expect 2 "$gdmap" build desc.json -o "$work/links/loop1"
has err "$work/links/loop1"
has err "[output-unwritable]"
no_temporaries "$work/targets" "$work/links"

# 3. A FIFO is written in place (opened, no temporary, no rename): the
# reader gets the whole map and the FIFO is still a FIFO.
mkfifo "$work/fifo"
cat "$work/fifo" >"$work/from-fifo" &
reader_pid=$!
expect 0 "$gdmap" build desc.json -o "$work/fifo"
wait "$reader_pid"
reader_pid=
[ -p "$work/fifo" ] || fail "-o FIFO replaced the FIFO"
cmp -s "$work/from-fifo" "$map" || fail "-o FIFO: the reader did not get the map"
no_temporaries "$work"

# 4. Devices: /dev/null takes the output and stays a device; /dev/full's
# error (no space) names the user's path and /dev/full stays a device.
expect 0 "$gdmap" build desc.json -o /dev/null
[ -c /dev/null ] || fail "/dev/null is no longer a character device"
if [ -c /dev/full ]; then
  expect 2 "$gdmap" dump map.gdmap -o /dev/full
  has err "/dev/full: error: cannot write"
  has err "[output-unwritable]"
  [ -c /dev/full ] || fail "/dev/full is no longer a character device"
  # stdout that cannot be written: status 2, said once.
  status=0; "$gdmap" build desc.json >/dev/full 2>"$work/err" || status=$?
  [ "$status" -eq 2 ] || fail "build >/dev/full exited $status"
  [ "$(grep -c 'stdout: error: cannot write \[output-unwritable\]' "$work/err")" -eq 1 ] || fail "build >/dev/full: $(cat "$work/err")"
  status=0; "$gdmap" sig encode int32 --json >/dev/full 2>"$work/err" || status=$?
  [ "$status" -eq 2 ] || fail "sig encode --json >/dev/full exited $status"
  has err "stdout: error: cannot write"
fi

# 5. Unwritable places: the message names the user's path, the existing
# output (if any) is untouched, nothing is left behind.
printf 'not a folder' >"$work/plain"
expect 2 "$gdmap" build desc.json -o "$work/plain/out.gdmap"
has err "$work/plain/out.gdmap: "
has err "[output-unwritable]"
names_no_temporary
expect 2 "$gdmap" build desc.json -o "$work/no-such-folder/out.gdmap"
has err "$work/no-such-folder/out.gdmap: "
names_no_temporary
mkdir "$work/dir-output"
expect 2 "$gdmap" build desc.json -o "$work/dir-output"
has err "$work/dir-output: error: cannot write: Is a directory"
if [ "$(id -u)" -ne 0 ]; then
  # Permissions do not stop root: these run for other users only.
  mkdir "$work/locked"
  printf 'old' >"$work/locked/out.gdmap"
  chmod 555 "$work/locked"
  expect 2 "$gdmap" build desc.json -o "$work/locked/out.gdmap"
  has err "$work/locked/out.gdmap: "
  names_no_temporary
  [ "$(cat "$work/locked/out.gdmap")" = old ] || fail "a failed write changed the existing output"
  chmod 755 "$work/locked"
  no_temporaries "$work/locked"
  printf 'old' >"$work/readonly.gdmap"
  chmod 444 "$work/readonly.gdmap"
  expect 2 "$gdmap" build desc.json -o "$work/readonly.gdmap"
  has err "$work/readonly.gdmap: error: cannot write"
  [ "$(cat "$work/readonly.gdmap")" = old ] || fail "a read-only output was replaced"
fi

# 6. A failed build leaves an existing output as it was (and creates none).
printf 'old' >"$work/existing.gdmap"
printf '{ "dictionaries": [ { "rva": 1, "types": ["int32<"] } ] }' >"$work/bad.json"
expect 1 "$gdmap" build "$work/bad.json" -o "$work/existing.gdmap"
[ "$(cat "$work/existing.gdmap")" = old ] || fail "a failed build changed the existing output"
expect 1 "$gdmap" build "$work/bad.json" -o "$work/never.gdmap"
[ ! -e "$work/never.gdmap" ] || fail "a failed build created its output"
no_temporaries "$work"

# 7. Replacing a file keeps its mode.
printf 'old' >"$work/mode.gdmap"
chmod 640 "$work/mode.gdmap"
expect 0 "$gdmap" build desc.json -o "$work/mode.gdmap"
cmp -s "$work/mode.gdmap" "$map" || fail "build did not replace the existing output"
[ "$(stat -c %a "$work/mode.gdmap")" = 640 ] || fail "replacing an output changed its mode to $(stat -c %a "$work/mode.gdmap")"

# 8. --json needs an output that is not stdout (usage), and says what it wrote.
expect 2 "$gdmap" build desc.json --json
has out '"rule": "usage"'
expect 0 "$gdmap" build desc.json -o "$work/json.gdmap" --json
has out '"written": true'
cmp -s "$work/json.gdmap" "$map" || fail "build --json -o FILE wrote the wrong bytes"
expect 0 "$gdmap" dump map.gdmap -o "$work/dump.json" --json
has out '"written": true'

# 9. A binary map is refused on a terminal, by -o too (needs script(1)).
if command -v script >/dev/null 2>&1; then
  status=0
  script -qec "'$gdmap' build '$desc' -o /dev/tty" /dev/null >"$work/tty" 2>&1 || status=$?
  [ "$status" -eq 2 ] || fail "build -o /dev/tty exited $status, expected 2"
  grep -q "binary-to-terminal" "$work/tty" || fail "build -o /dev/tty: $(cat "$work/tty")"
fi

echo "output safety: all checks passed"
