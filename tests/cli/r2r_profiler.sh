# Opt-in: the running runtime's own answer. Builds the CLR profiler of
# tests/r2r/profiler (g++, into a scratch folder), runs the workload program
# under it (twice: short, and --hot so tiered compilation adds tier-1 code
# versions), and checks with tests/r2r/profiler_compare.py that `gdmap il
# lookup` gives, for every method whose ReadyToRun code ran, exactly the
# array GetILToNativeMapping3 returned for that code. Runs only with
# GDMAP_R2R_PROFILER=1 (else skipped, status 77); needs dotnet (an SDK and a
# runtime with R2R framework images), g++ and python3.
# The runtime: the machine's (.NET 10) unless GDMAP_DOTNET_ROOT names another
# .NET root (e.g. .NET 11, made by tests/r2r/profiler/dotnet11_root.sh). When
# that root's framework has runtime-async code (async variants and their
# resumption stubs, .NET 11), the profiler is also asked who owns each of
# their code addresses (GDMAP_PROF_ASK, tests/r2r/profiler/async_asks.py) and
# the owners must be gdmap's bodies (profiler_compare.py --asks).
# Arguments: GDMAP SOURCE_ROOT BLOBS_DRIVER (see tests/CMakeLists.txt).
set -euo pipefail
gdmap=$1
root=$2
[ "${GDMAP_R2R_PROFILER:-}" = 1 ] || { echo "SKIP: set GDMAP_R2R_PROFILER=1 to run (builds a profiler, runs .NET)"; exit 77; }
for tool in dotnet g++ python3; do
  command -v "$tool" >/dev/null 2>&1 || { echo "SKIP: $tool is needed"; exit 77; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli_test.bash"

bash "$root/tests/r2r/profiler/build.sh" "$work/build" || fail "building the profiler or the workload failed"

# The addresses to ask about: every async variant's and resumption stub's
# code in the root's newest framework (none in .NET 10's).
asks=()
if [ -n "${GDMAP_DOTNET_ROOT:-}" ]; then
  fw=$(ls -d "$GDMAP_DOTNET_ROOT"/shared/Microsoft.NETCore.App/*/ 2>/dev/null | sort -V | tail -1)
  [ -n "$fw" ] || fail "GDMAP_DOTNET_ROOT=$GDMAP_DOTNET_ROOT has no shared/Microsoft.NETCore.App/VERSION"
  echo "r2r_profiler: runtime ${fw%/}"
  for image in "$fw"*.dll; do
    python3 "$root/tests/r2r/profiler/async_asks.py" "$image" >>"$work/asks.txt" 2>"$work/asks.err" ||
      { cat "$work/asks.err" >&2; fail "async_asks.py failed on $image"; }
  done
  if grep -q '^[^#]' "$work/asks.txt"; then
    export GDMAP_PROF_ASK=$work/asks.txt
    asks=(--asks "$work/records.ask.jsonl")
    grep '^# .* async variants' "$work/asks.txt" | grep -v ': 0 async' | sed 's/^# /r2r_profiler: asking about /' || true
  fi
fi

bash "$root/tests/r2r/profiler/run.sh" "$work/build" "$work/records.jsonl" >"$work/run1" 2>&1 ||
  { cat "$work/run1" >&2; fail "the workload failed under the profiler"; }
bash "$root/tests/r2r/profiler/run.sh" "$work/build" "$work/records.jsonl" --hot >"$work/run2" 2>&1 ||
  { cat "$work/run2" >&2; fail "the workload (--hot) failed under the profiler"; }
grep -q 'records written' "$work/run1" || { cat "$work/run1" >&2; fail "the profiler did not report"; }
grep -h '^workload:' "$work/run1"

# First the rule set alone (reference reader + FORMAT.md 3.2 in Python), then
# gdmap itself.
python3 "$root/tests/r2r/profiler_compare.py" --reference "$work/records.jsonl" ${asks[@]+"${asks[@]}"} >"$work/ref.txt" ||
  { cat "$work/ref.txt"; fail "the reference bounds with FORMAT.md 3.2 disagree with the runtime"; }
head -1 "$work/ref.txt"
status=0
python3 "$root/tests/r2r/profiler_compare.py" "$gdmap" "$work/records.jsonl" --work "$work/cmp" ${asks[@]+"${asks[@]}"} >"$work/cmp.txt" || status=$?
cat "$work/cmp.txt"
[ "$status" -eq 0 ] || fail "gdmap il lookup and the runtime disagree (see above)"
# Enough methods compared that the check means something (~4,500 run).
compared=$(sed -n 's/.*compared \([0-9]*\):.*/\1/p' "$work/cmp.txt" | head -1)
[ "${compared:-0}" -ge 2000 ] || fail "only ${compared:-0} methods compared (expected ~4,500)"
echo "r2r_profiler: $compared methods compared with the runtime's own GetILToNativeMapping"
