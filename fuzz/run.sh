#!/usr/bin/env bash
# Runs the libFuzzer targets briefly (what CI does; docs/fuzzing.md):
# first each target's saved reproducers (fuzz/regressions/TARGET/), then
# fuzzing from a copy of its seed corpus (fuzz/corpus/TARGET/) in a
# temporary directory, so nothing is ever written into the tree. Exits
# non-zero when any target crashes, leaks, times out or breaks an
# invariant, after printing the failing input in hex.
#
#   fuzz/run.sh [--build DIR] [--time SECONDS] [--runs N] [TARGET...]
#
# DIR defaults to build/fuzz (`cmake --preset fuzz && cmake --build
# --preset fuzz`); SECONDS to 5 and N to 500000 per target (whichever
# comes first); TARGET to all of them.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build/fuzz"
seconds=5
runs=500000
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --time) seconds=$2; shift 2 ;;
    --runs) runs=$2; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    -*) echo "fuzz/run.sh: unknown option $1" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
if [ ${#targets[@]} -eq 0 ]; then
  targets=(map_reader signature type_text description builder dump_roundtrip il_bounds il_nibble il_packed2 il_packed3 il_description il_dump_roundtrip r2r_image core_dump elf_module runtime_code plain_json portable_pdb perf_script)
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failed=()

for target in "${targets[@]}"; do
  binary="$build/fuzz/fuzz_$target"
  if [ ! -x "$binary" ]; then
    echo "fuzz/run.sh: $binary is missing: cmake --preset fuzz && cmake --build --preset fuzz" >&2
    exit 2
  fi
  echo "== fuzz_$target"

  # Every input that once failed must pass now.
  regressions="$root/fuzz/regressions/$target"
  if [ -d "$regressions" ] && [ -n "$(ls -A "$regressions")" ]; then
    if ! "$binary" "$regressions"/* >"$work/$target.regressions.log" 2>&1; then
      tail -n 40 "$work/$target.regressions.log"
      echo "FAIL: fuzz_$target: a saved reproducer in fuzz/regressions/$target fails again"
      failed+=("$target (regression)")
      continue
    fi
    echo "   $(ls "$regressions" | wc -l) saved reproducer(s) pass"
  fi

  corpus="$work/$target.corpus"
  mkdir -p "$corpus" "$work/$target.artifacts"
  cp "$root/fuzz/corpus/$target"/* "$corpus"/ 2>/dev/null || true
  options=(-max_total_time="$seconds" -runs="$runs" -timeout=60 -rss_limit_mb=2048
           -print_final_stats=1 -artifact_prefix="$work/$target.artifacts/")
  if [ -f "$root/fuzz/$target.dict" ]; then options+=(-dict="$root/fuzz/$target.dict"); fi
  if "$binary" "${options[@]}" "$corpus" >"$work/$target.log" 2>&1; then
    grep -E '^stat::(number_of_executed_units|peak_rss_mb)' "$work/$target.log" | sed 's/^/   /'
  else
    tail -n 60 "$work/$target.log"
    for artifact in "$work/$target.artifacts"/*; do
      [ -f "$artifact" ] || continue
      echo "failing input $(basename "$artifact") ($(wc -c <"$artifact") bytes), hex:"
      od -An -tx1 -v "$artifact" | head -n 64
    done
    echo "FAIL: fuzz_$target (save the input above under fuzz/regressions/$target/ and fix it)"
    failed+=("$target")
  fi
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzzing failed: ${failed[*]}"
  exit 1
fi
echo "fuzzing passed: ${targets[*]}"
