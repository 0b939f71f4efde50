#!/usr/bin/env bash
# The bytes gdmap writes never change by accident: two generated
# descriptions (200,000 dictionaries sorted, 50,000 unsorted; every form a
# description has) are built and dumped, and the outputs' sha256 must equal
# the ones recorded in tests/cli/golden/build_output.sha256. The generator
# uses only Python's seeded random, so the inputs are the same anywhere.
# Arguments: GDMAP SOURCE_ROOT BLOBS_DRIVER (see tests/CMakeLists.txt).
set -euo pipefail
gdmap=$1
root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

python3 "$root/tests/cli/lib/gen_description.py" 1 200000 >"$work/g1.json"
python3 "$root/tests/cli/lib/gen_description.py" 2 50000 --unsorted >"$work/g2.json"
for g in g1 g2; do
  # Warnings (unused instantiations) are expected; errors are not.
  "$gdmap" build "$work/$g.json" -o "$work/$g.gdmap" 2>"$work/$g.build.err" ||
    fail "$g: build failed: $(head -n 5 "$work/$g.build.err")"
  "$gdmap" dump "$work/$g.gdmap" -o "$work/$g.dump.json" || fail "$g: dump failed"
  "$gdmap" verify "$work/$g.json" "$work/$g.gdmap" >/dev/null || fail "$g: verify reports a difference"
done
grep -v '^#' "$root/tests/cli/golden/build_output.sha256" >"$work/expected.sha256"
(cd "$work" && sha256sum --quiet -c expected.sha256) || fail "outputs differ from tests/cli/golden/build_output.sha256"
echo "build and dump outputs unchanged"
