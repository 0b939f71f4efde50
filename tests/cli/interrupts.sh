# Interrupts and kills while `-o FILE` is written (issue #30; docs/cli.md
# "Output files"): SIGINT, SIGTERM and SIGKILL sent to `il build`, `il dump`
# and `dump` while their temporary is open end the command by that signal
# (status 130, 143, 137), leave the previous target as it was and leave no
# temporary beside it. Each signal is sent once the process holds a file
# open in the output folder (its temporary), read from /proc/PID/fd (one
# that comes as the output is put in place finds the command done: exit 0,
# the whole new target; it is sent again to a new run). Then
# `il extract` is interrupted at random moments: whatever the moment, an
# exit by the signal means the old target, an exit 0 the whole new one,
# and nothing else is ever in the folder.
# Arguments: GDMAP SOURCE_ROOT BLOBS_DRIVER (see tests/CMakeLists.txt).
set -euo pipefail
gdmap=$1
root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
. "$root/tests/cli/lib/cli_test.bash"
[ -d /proc/self/fd ] || { echo "SKIP: no /proc"; exit 77; }

# A method of n bounds: its JSON dump and its API array are tens of MB.
n=1000000
if ldd "$gdmap" 2>/dev/null | grep -q libasan; then n=300000; fi
awk -v n="$n" 'BEGIN {
  printf "{\"methods\":[{\"token\":\"0x06000001\",\"codeSize\":%d,\"bounds\":[\n", 4 * n
  for (i = 0; i < n - 1; i++) printf "{\"native\":%d,\"il\":%d},\n", 4 * i, 2 * i
  printf "{\"native\":%d,\"il\":\"epilog\"}]}]}\n", 4 * (n - 1)
}' >"$work/big.json"
expect 0 "$gdmap" il build "$work/big.json" --format nibble -o "$work/big.nibble"
# A map of many dictionaries, for `dump`.
awk 'BEGIN {
  printf "{\"dictionaries\":[\n"
  for (i = 0; i < 200000; i++) printf "%s{\"rva\":%d,\"types\":[\"int32\",\"class 0x%08x\",\"string[]\"]}", (i ? ",\n" : ""), 4096 + 8 * i, 33554432 + i + 1
  printf "]}\n"
}' >"$work/map.json"
expect 0 "$gdmap" build "$work/map.json" -o "$work/big.gdmap"

out=$work/out.d
mkdir "$out"
target=$out/target
others() { find "$out" -mindepth 1 ! -path "$target" | head -5; }

# Sends SIGNAL to `gdmap ARGS... -o target` once it has a file open in the
# output folder (polled every 50 microseconds); 0 when it was caught
# writing, 1 when it ended first or was done (exit 0, its target whole).
cat >"$work/interrupt.py" <<'PY'
import os, signal, subprocess, sys, time
sig, out, argv = getattr(signal, "SIG" + sys.argv[1]), sys.argv[2], sys.argv[3:]
p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
seen = False
while p.poll() is None and not seen:
    try:
        fds = os.listdir(f"/proc/{p.pid}/fd")
    except OSError:
        fds = []
    for fd in fds:
        try:
            if os.readlink(f"/proc/{p.pid}/fd/{fd}").startswith(out + "/"):
                seen = True
                break
        except OSError:
            pass
    if seen:
        os.kill(p.pid, sig)
    else:
        time.sleep(0.00005)
status = p.wait()
print(("seen " if seen else "missed ") + str(128 - status if status < 0 else status))
PY
interrupt_writing() {
  local signal=$1
  shift
  printf 'OLD' >"$target"
  local answer
  answer=$(python3 "$work/interrupt.py" "$signal" "$out" "$gdmap" "$@" -o "$target")
  local seen=${answer% *} status=${answer#* }
  if [ "$seen" = missed ]; then return 1; fi
  # The signal came as the output was put in place: the command is done,
  # its target whole (an interrupted command never changes its target).
  if [ "$status" -eq 0 ] && [ "$signal" != KILL ] && ! printf 'OLD' | cmp -s - "$target"; then
    [ -z "$(others)" ] || fail "'$*' left $(others)"
    return 1
  fi
  local want
  case $signal in INT) want=130 ;; TERM) want=143 ;; KILL) want=137 ;; esac
  [ "$status" -eq "$want" ] || fail "'$*' sent SIG$signal while writing exited $status, expected $want"
  printf 'OLD' | cmp -s - "$target" || fail "'$*' sent SIG$signal changed its target"
  [ -z "$(others)" ] || fail "'$*' sent SIG$signal left $(others)"
  return 0
}

for signal in INT TERM KILL; do
  for command in "il build $work/big.json --format api" "il dump $work/big.nibble --format nibble" \
    "build $work/map.json" "dump $work/big.gdmap"; do
    caught=0
    for _ in 1 2 3 4 5 6 7 8 9 10; do
      # shellcheck disable=SC2086
      if interrupt_writing "$signal" $command; then
        caught=1
        break
      fi
    done
    [ "$caught" = 1 ] || fail "'$command' was never caught writing"
  done
done

# il extract interrupted at random moments: old target or whole new one.
image=$root/tests/data/r2r/sample/Sample.A.x64.dll
expect 0 "$gdmap" il extract "$image" -o "$work/extract.json"
RANDOM=29
for _ in $(seq 1 30); do
  printf 'OLD' >"$target"
  "$gdmap" il extract "$image" -o "$target" >/dev/null 2>&1 &
  pid=$!
  sleep "0.00$((RANDOM % 10))"
  kill -INT "$pid" 2>/dev/null || true
  status=0
  wait "$pid" || status=$?
  case $status in
    0) cmp -s "$target" "$work/extract.json" || fail "il extract exited 0 but its target is not the whole output" ;;
    130) [ "$(cat "$target")" = OLD ] || fail "il extract exited 130 but its target changed" ;;
    *) fail "il extract interrupted exited $status" ;;
  esac
  [ -z "$(others)" ] || fail "il extract interrupted left $(others)"
done
echo "PASS"
