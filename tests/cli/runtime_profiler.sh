# Opt-in: the running runtime as judge of gdmap's reading of JIT-compiled
# code. For each configuration and runtime, tests/runtime/profiler/run.sh
# runs the workload under the CLR profiler jit_map_profiler.so (built with
# g++ into a scratch folder), which records every JIT-compiled code version
# with the runtime's own GetCodeInfo4 and GetILToNativeMapping3 answers; the
# workload dumps itself with createdump and waits; gdmap il extract --pid
# PID --api --jit-only and gdmap il extract CORE --api --jit-only read it, and
# tests/runtime/profiler_compare.py must find every recorded version in both
# documents with the same code ranges, API array, module, token, dynamic flag
# and (from the runtime's perf map) tier.
# Runs only with GDMAP_RUNTIME_PROFILER=1 (else skipped, status 77); needs
# dotnet (an SDK), g++, python3 and ptrace rights (createdump, and gdmap on a
# live pid: root).
#   GDMAP_RUNTIME_PROFILER_CONFIGS   default "default notiering osr nor2r"
#   GDMAP_RUNTIME_PROFILER_RUNTIMES  default "10 11" when a .NET 11 root is
#                                    there (GDMAP_DOTNET11_ROOT, default
#                                    /work/dotnet11), else "10"
#   GDMAP_RUNTIME_PROFILER_OUT       keep the runs' files there (default: a
#                                    scratch folder, removed)
# Skipped (77) too when gdmap has no `il extract --pid` yet: then only the
# profiler's own part (records complete, each run shaped like its
# configuration) has been checked.
# Arguments: GDMAP SOURCE_ROOT BLOBS_DRIVER (see tests/CMakeLists.txt).
set -euo pipefail
gdmap=$1
root=$2
[ "${GDMAP_RUNTIME_PROFILER:-}" = 1 ] || { echo "SKIP: set GDMAP_RUNTIME_PROFILER=1 to run (builds a profiler, runs .NET, dumps it)"; exit 77; }
for tool in dotnet g++ python3; do
  command -v "$tool" >/dev/null 2>&1 || { echo "SKIP: $tool is needed"; exit 77; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli_test.bash"

out=${GDMAP_RUNTIME_PROFILER_OUT:-$work/runs}
configs=${GDMAP_RUNTIME_PROFILER_CONFIGS:-default notiering osr nor2r}
if [ -z "${GDMAP_RUNTIME_PROFILER_RUNTIMES:-}" ]; then
  if [ -x "${GDMAP_DOTNET11_ROOT:-/work/dotnet11}/dotnet" ]; then runtimes="10 11"; else runtimes=10; fi
else
  runtimes=$GDMAP_RUNTIME_PROFILER_RUNTIMES
fi

failed=() skipped=0 passed=0
for rt in $runtimes; do
  for config in $configs; do
    s=0
    GDMAP=$gdmap bash "$root/tests/runtime/profiler/run.sh" "$out" "$config" "$rt" >"$work/run.txt" 2>"$work/run.err" || s=$?
    grep -v '^workload: \|^jit_map_profiler: ' "$work/run.txt" || true
    case $s in
      0) passed=$((passed + 1)) ;;
      77) skipped=$((skipped + 1)); tail -1 "$work/run.err" ;;
      *) cat "$work/run.err" >&2; failed+=("$config/$rt") ;;
    esac
  done
done
[ ${#failed[@]} -eq 0 ] || fail "the runtime and gdmap disagree, or a run failed: ${failed[*]}"
if [ "$passed" -eq 0 ] && [ "$skipped" -gt 0 ]; then
  echo "SKIP: $gdmap has no 'il extract --pid' yet; the profiler's part passed in $skipped runs"
  exit 77
fi
echo "runtime_profiler: $passed runs agree with the runtime (${configs// /, } on .NET ${runtimes// /, })"
