# -o into a pipe (issue #20, item 4): /dev/stdout when stdout is a pipe or
# a socket, /proc/self/fd/1, a process substitution's /dev/fd/N and a named
# FIFO are written in place, by every command with -o, whatever path names
# them: never output-unwritable, no temporary file anywhere. A regular file named
# through /dev/stdout is still replaced whole.
# Arguments: GDMAP SOURCE_ROOT BLOBS_DRIVER (see tests/CMakeLists.txt).
set -euo pipefail
gdmap=$1
root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli_test.bash"

desc=$root/examples/maps/basic.json
map=$root/examples/maps/basic.gdmap
il=$root/examples/il/worked_example.json
cd "$work"
"$gdmap" il build "$il" --format nibble --method 0x06000001 -o blob.nibble

# Each command with -o, as `ARGS... -o` and the file its output must equal
# (written to a regular file first).
commands=(
  "build $desc"
  "dump $map"
  "il build $il --format nibble --method 0x06000001"
  "il dump blob.nibble --format nibble"
  "il convert blob.nibble --from nibble --to packed3"
)
i=0
for command in "${commands[@]}"; do
  i=$((i + 1))
  # shellcheck disable=SC2086  # the words of the command
  "$gdmap" $command -o "want$i" || fail "$command -o FILE failed"
  for path in /dev/stdout /proc/self/fd/1 /dev/fd/1; do
    [ -e "$path" ] || continue
    status=0
    # shellcheck disable=SC2086
    "$gdmap" $command -o "$path" 2>"$work/err" | cat >"got$i" || status=$?
    [ "$status" -eq 0 ] || { cat "$work/err" >&2; fail "$command -o $path into a pipe exited $status"; }
    cmp -s "got$i" "want$i" || fail "$command -o $path into a pipe: the pipe did not get the output"
    [ ! -s "$work/err" ] || { cat "$work/err" >&2; fail "$command -o $path wrote to stderr"; }
  done
  # A process substitution: -o /dev/fd/63, a pipe to another process.
  status=0
  # shellcheck disable=SC2086
  "$gdmap" $command -o >(cat >"sub$i") 2>"$work/err" || status=$?
  [ "$status" -eq 0 ] || { cat "$work/err" >&2; fail "$command -o >(cat) exited $status"; }
  for _ in $(seq 100); do cmp -s "sub$i" "want$i" && break; sleep 0.05; done
  cmp -s "sub$i" "want$i" || fail "$command -o >(cat): the process did not get the output"
done

# The issue's own line: the byte count of the map through >(wc -c).
"$gdmap" build "$desc" -o >(wc -c >count)
for _ in $(seq 100); do [ -s count ] && break; sleep 0.05; done
[ "$(tr -d ' ' <count)" = "$(wc -c <"$map" | tr -d ' ')" ] || fail "build -o >(wc -c) counted $(cat count)"

# stdout a socket (a service's log, a socketpair): /dev/stdout cannot be
# opened (ENXIO); the descriptor it names is written.
if command -v python3 >/dev/null 2>&1; then
  python3 - "$gdmap" build "$desc" -o /dev/stdout >socket-out 2>"$work/err" <<'PY' || { cat "$work/err" >&2; fail "build -o /dev/stdout into a socket failed"; }
import socket, subprocess, sys
ours, theirs = socket.socketpair()
child = subprocess.Popen(sys.argv[1:], stdout=theirs)
theirs.close()
data = b""
while chunk := ours.recv(65536):
    data += chunk
sys.stdout.buffer.write(data)
sys.exit(child.wait())
PY
  cmp -s socket-out "$map" || fail "build -o /dev/stdout into a socket: the socket did not get the map"
fi

# A named FIFO, by its path and through a symlink to it.
mkfifo fifo
ln -s fifo fifo-link
for path in fifo fifo-link; do
  cat fifo >from-fifo &
  reader=$!
  expect 0 "$gdmap" build "$desc" -o "$path"
  wait "$reader"
  cmp -s from-fifo "$map" || fail "build -o $path: the reader did not get the map"
  [ -p fifo ] || fail "build -o $path replaced the FIFO"
done

# /dev/stdout onto a regular file is a regular file: replaced whole (the
# map is there), no temporary left beside it.
"$gdmap" build "$desc" -o /dev/stdout >regular.gdmap
cmp -s regular.gdmap "$map" || fail "build -o /dev/stdout >FILE: FILE is not the map"
if find . -maxdepth 1 -name '.gdmap-*' | grep -q .; then fail "a temporary file was left behind"; fi

# --json reports the pipe as the output, and the data goes through it.
status=0
"$gdmap" build "$desc" -o >(cat >json-sub) --json >report.json 2>"$work/err" || status=$?
[ "$status" -eq 0 ] || { cat "$work/err" report.json >&2; fail "build -o >(cat) --json exited $status"; }
grep -qF '"written": true' report.json || fail "build -o >(cat) --json: $(cat report.json)"

echo "-o into pipes, FIFOs and /dev/stdout: written in place by every command"
