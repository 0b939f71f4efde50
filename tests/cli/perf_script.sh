# Opt-in: Linux perf on a real .NET program, symbolized by `gdmap il locate
# --perf-script`. Publishes tests/runtime/stacktrace/perf_app ReadyToRun
# with its PDB (into a scratch folder), records it with `perf record -g`
# (cpu-clock; R2R code keeps its frame pointers, so the callchains walk
# through managed frames; tiered compilation off so no tier-1 code replaces
# the precompiled code), pipes `perf script --show-mmap-events` through
# gdmap, and checks with tests/runtime/stacktrace/perf_check.py that every
# line comes back and the samples resolve to the right methods and lines
# (leaves on the hot loops' lines, callers on their calls' lines). Also the
# same text from a file and without callchains. Runs only with GDMAP_PERF=1
# (else skipped, status 77); skipped too without perf, dotnet or python3,
# or when perf_event_paranoid (above 2) or the machine forbids recording.
# Arguments: GDMAP SOURCE_ROOT (see tests/CMakeLists.txt).
set -euo pipefail
gdmap=$1
root=$2
[ "${GDMAP_PERF:-}" = 1 ] || { echo "SKIP: set GDMAP_PERF=1 to run (records a .NET program with perf)"; exit 77; }
for tool in perf dotnet python3; do
  command -v "$tool" >/dev/null 2>&1 || { echo "SKIP: $tool is needed"; exit 77; }
done
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid 2>/dev/null || echo 3)
[ "$paranoid" -le 2 ] || { echo "SKIP: kernel.perf_event_paranoid is $paranoid (perf needs 2 or less)"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli_test.bash"

perf record -e cpu-clock -o "$work/probe.data" -- true >/dev/null 2>&1 ||
  { echo "SKIP: perf cannot record here"; exit 77; }

mkdir "$work/src"
cp "$root/tests/runtime/stacktrace/perf_app/Program.cs" "$root/tests/runtime/stacktrace/perf_app/perf_app.csproj" \
  "$work/src/"
(cd "$work/src" &&
  dotnet publish -c Release -r linux-x64 -p:PublishReadyToRun=true --self-contained false -o "$work/pub" --nologo) \
  >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; fail "publishing perf_app failed"; }
[ -f "$work/pub/perf_app.pdb" ] || fail "the publish left no perf_app.pdb"

export DOTNET_TieredCompilation=0 DOTNET_TieredPGO=0
perf record -e cpu-clock -F 999 -g -o "$work/perf.data" -- dotnet "$work/pub/perf_app.dll" 2 \
  >"$work/app.out" 2>"$work/record.err" || { cat "$work/record.err" >&2; fail "perf record failed"; }
perf script -i "$work/perf.data" --show-mmap-events >"$work/script.txt" 2>"$work/script.err" ||
  { cat "$work/script.err" >&2; fail "perf script failed"; }

# The filter, fed by a pipe; stderr says what it did.
"$gdmap" il locate --perf-script - <"$work/script.txt" >"$work/annotated.txt" 2>"$work/err" ||
  { cat "$work/err" >&2; fail "gdmap il locate --perf-script failed"; }
has err "perf script: "
python3 "$root/tests/runtime/stacktrace/perf_check.py" "$work/script.txt" "$work/annotated.txt" \
  "$work/src/Program.cs"
# The same text from a file: the same output.
"$gdmap" il locate --perf-script "$work/script.txt" >"$work/annotated2.txt" 2>/dev/null
cmp -s "$work/annotated.txt" "$work/annotated2.txt" || fail "--perf-script FILE and stdin differ"

# Without callchains: each sample line holds its absolute address.
perf record -e cpu-clock -F 999 -o "$work/flat.data" -- dotnet "$work/pub/perf_app.dll" 1 >/dev/null 2>&1 ||
  fail "perf record (no callchains) failed"
perf script -i "$work/flat.data" --show-mmap-events >"$work/flat.txt" 2>/dev/null
"$gdmap" il locate --perf-script "$work/flat.txt" >"$work/flat.out" 2>/dev/null
flat=$(grep -c 'perf_app.dll) => 0x0600000[123] Hot\.[A-Za-z]*(Int32) +0x[0-9a-f]*, IL [^ ]* at .*Program.cs:' \
  "$work/flat.out" || true)
all=$(grep -c 'perf_app.dll)' "$work/flat.out" | head -1 || true)
[ "$flat" -ge 20 ] || fail "only $flat of $all samples without callchains resolved to a hot method"
echo "perf_script: $flat samples without callchains resolved to a hot method ($all in perf_app.dll)"

# What does not go with --perf-script is refused by name.
expect 2 "$gdmap" il locate --perf-script "$work/script.txt" --json
has out "no --json"
expect 2 "$gdmap" il locate --perf-script "$work/script.txt" --pid 1
has err "--pid does not go with it"
expect 2 "$gdmap" il locate --perf-script "$work/nonexistent.txt"
has err "input-unreadable"
