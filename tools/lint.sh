#!/usr/bin/env bash
# Checks that every C++ source is formatted by .clang-format and clean of the
# .clang-tidy checks. Needs clang-format and clang-tidy (Debian: clang-format,
# clang-tidy). Exit 0 clean, 1 findings.
#   tools/lint.sh            both checks
#   tools/lint.sh format     formatting only (fast)
#   tools/lint.sh fix-format rewrite the sources in place
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-all}
mapfile -t sources < <(git ls-files '*.cpp' '*.hpp' '*.h' '*.c')

if [ "$mode" = fix-format ]; then
  clang-format -i --style=file "${sources[@]}"
  exit 0
fi

status=0
echo "== clang-format" >&2
clang-format --dry-run -Werror --style=file "${sources[@]}" || status=1
[ "$mode" = format ] && exit $status

echo "== clang-tidy (library and CLI sources)" >&2
build=build/lint
cmake -S . -B "$build" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON -DCMAKE_BUILD_TYPE=Release \
  -DGDMAP_BUILD_TESTS=OFF -DGDMAP_BUILD_BENCH=OFF >/dev/null
mapfile -t units < <(git ls-files 'schema/*.cpp' 'writer/*.cpp' 'reader/*.cpp' 'description/*.cpp' 'io/*.cpp' 'process/*.cpp' 'coredump/*.cpp' 'symbolize/*.cpp' 'tools/*.cpp')
printf '%s\n' "${units[@]}" | xargs -P "$(nproc)" -n 4 clang-tidy -p "$build" --quiet 2>/dev/null || status=1
exit $status
