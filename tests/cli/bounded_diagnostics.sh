# Diagnostics are bounded whatever the input (issue 20): JSON pointers,
# paths and names taken from the input are shown capped (the first bytes,
# "…", the last, the full length), in text and --json, and every error is
# still counted. A description with a 1 MB key, and one whose 25,000 errors
# all name a 50 KB instantiation, each print under 64 KiB.
# Arguments: GDMAP SOURCE_ROOT BLOBS_DRIVER (see tests/CMakeLists.txt).
set -euo pipefail
gdmap=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli_test.bash"
command -v python3 >/dev/null || { echo "SKIP: python3 is needed"; exit 77; }
is() { python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' \
  "$work/out" "$1" || { head -c 2000 "$work/out" >&2; fail "not true: $1"; }; }
limit=65536
under() {  # under FILE: fewer than 64 KiB
  local size
  size=$(wc -c <"$work/$1")
  [ "$size" -lt "$limit" ] || { head -c 600 "$work/$1" >&2; fail "$1: $size bytes of diagnostics"; }
}

# A 1 MB key: unknown-key, its pointer /dictionaries/0/kkk... capped.
python3 -c '
import json, sys
d = {"dictionaries": [{"rva": "0x1000", "types": ["int32"], "k" * 1000000: 1}]}
json.dump(d, open(sys.argv[1], "w"))' "$work/key.json"
expect 1 "$gdmap" build "$work/key.json" -o "$work/key.gdmap"
under err
has err "[unknown-key]"
has err "/dictionaries/0/kkkk"
has err "(1000016 bytes)"
expect 1 "$gdmap" build "$work/key.json" -o "$work/key.gdmap" --json
under out
under err
is 'j["errors"] == 1 and any(d["rule"] == "unknown-key" and d["path"].endswith("(1000016 bytes)") for d in j["diagnostics"])'

# A 50 KB instantiation name, 25,000 errors pointing into it (each type of
# its list bad), and 25,000 more naming it from dictionaries (it is not
# defined under that name).
python3 -c '
import json, sys
name = "N" * 50000
d = {"instantiations": {name: ["int32<"] * 25000},
     "dictionaries": [{"rva": hex(0x1000 + 16 * i), "instantiation": name + "x"} for i in range(25000)]}
json.dump(d, open(sys.argv[1], "w"))' "$work/name.json"
expect 1 "$gdmap" build "$work/name.json" -o "$work/name.gdmap"
under err
has err "; 50000 error(s) and "
expect 1 "$gdmap" build "$work/name.json" -o "$work/name.gdmap" --json
under out
under err
is 'j["errors"] == 50000 and j["diagnostics"][-1]["rule"] == "too-many-diagnostics"'
is 'all(len(d["path"]) < 300 and len(d["message"]) < 600 for d in j["diagnostics"])'

# A path given on the command line is capped the same way.
long=$work/$(printf 'f%.0s' $(seq 1 200))
expect 2 "$gdmap" check "$long"
under err
grep -qF -- "…" "$work/err" || fail "a 200-byte file name shown whole: $(cat "$work/err")"
