#!/usr/bin/env bash
# Checks the installed CMake package the way its users meet it:
#   tests/package/check_package.sh PREFIX
# - examples/consumer (every component) builds and runs;
# - examples/reader-consumer (COMPONENTS reader) builds and runs with
#   nlohmann_json made unfindable: a reader-only program does not need it;
# - docs/library.md's complete program (its CMakeLists.txt and main.cpp as
#   the page shows them) builds, without nlohmann_json, and prints what the
#   page says it prints;
# - an unknown component makes find_package fail, naming the component;
# - the man page and the bash completion are installed where man(1) and
#   bash-completion look, and load; the JSON Schemas under share/gdmap.
set -euo pipefail
cd "$(dirname "$0")/../.."
prefix=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== examples/consumer (all components)"
cmake -S examples/consumer -B "$work/consumer" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$work/consumer" -j2 >/dev/null
"$work/consumer/gdmap_consumer"

echo "== examples/reader-consumer (COMPONENTS reader, no nlohmann_json)"
cmake -S examples/reader-consumer -B "$work/reader" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_DISABLE_FIND_PACKAGE_nlohmann_json=ON --no-warn-unused-cli >/dev/null
cmake --build "$work/reader" -j2 >/dev/null
"$work/reader/gdmap_reader_consumer" examples/maps/basic.gdmap
"$work/reader/gdmap_reader_consumer" examples/maps/basic.gdmap 0x1000

echo "== docs/library.md's complete program, as written (COMPONENTS writer reader, no nlohmann_json)"
python3 tests/docs/extract_examples.py docs/library.md "$work/library_examples.cpp" --program "$work/program-src"
cmake -S "$work/program-src" -B "$work/program" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_DISABLE_FIND_PACKAGE_nlohmann_json=ON --no-warn-unused-cli >/dev/null
cmake --build "$work/program" -j2 >/dev/null
python3 tests/docs/check_program_output.py "$work/program/map_round_trip" "$work/program-src/expected.txt"

echo "== find_package(gdmap COMPONENTS no-such-part) fails loudly"
mkdir -p "$work/unknown"
cat >"$work/unknown/CMakeLists.txt" <<'CMAKE'
cmake_minimum_required(VERSION 3.25)
project(unknown_component NONE)
find_package(gdmap REQUIRED COMPONENTS no-such-part)
CMAKE
if cmake -S "$work/unknown" -B "$work/unknown/build" -DCMAKE_PREFIX_PATH="$prefix" >"$work/unknown.log" 2>&1; then
  echo "FAIL: an unknown component was accepted" >&2
  exit 1
fi
grep -q "no component 'no-such-part'" "$work/unknown.log" || { cat "$work/unknown.log" >&2; echo "FAIL: the error does not name the component" >&2; exit 1; }
echo "== the man page and the bash completion"
man_page=$prefix/share/man/man1/gdmap.1
completion=$prefix/share/bash-completion/completions/gdmap
for f in "$man_page" "$completion"; do
  [ -s "$f" ] || { echo "FAIL: $f is not installed" >&2; exit 1; }
done
grep -q '^\.TH GDMAP 1' "$man_page" || { echo "FAIL: $man_page is not a man page" >&2; exit 1; }
bash -c 'source "$1" && complete -p gdmap' _ "$completion" >/dev/null ||
  { echo "FAIL: $completion does not register a completion for gdmap" >&2; exit 1; }
echo "== the JSON Schemas"
for f in gdmap-description gdmap-il-description output/gdmap-output-common output/gdmap-check output/gdmap-il-lookup; do
  [ -s "$prefix/share/gdmap/schema/$f.schema.json" ] || { echo "FAIL: schema $f is not installed" >&2; exit 1; }
done
echo "package checks passed"
