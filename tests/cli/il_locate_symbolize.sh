# gdmap il locate as a symbolizer (issue 29, symbolize/): absolute addresses
# (--base, --maps with and without IMAGE), return addresses, source lines
# from the portable PDB (beside the image, --pdb, a mismatched or missing
# one), addresses streamed through one running gdmap (stdin and --input;
# each answer before the next address is written), and the usage errors.
# The image and PDB: tests/data/pdb/sample-r2r.dll and sample.pdb.
# Arguments: GDMAP SOURCE_ROOT.
set -euo pipefail
gdmap=$1
root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
source "$(dirname "${BASH_SOURCE[0]}")/lib/cli_test.bash"
is() { jq -e "$1" "$work/out" >/dev/null || { cat "$work/out" >&2; fail "jq: $1"; }; }

data=$(cd "$root/tests/data/pdb" && pwd)
image=$data/sample-r2r.dll
# Helper.Twice at RVA 0x10960: +5 starts IL 0xf's code (Helper.cs line 11);
# +1..+4 are IL 0's (line 9).

# --- RVAs, lines from the PDB beside the image ---
expect 0 "$gdmap" il locate "$image" 0x10965 --names
has out "0x00010965: method 0x06000001 Sample.Helper.Twice(Int32), body +0x5 of 48 bytes: IL 0xf (native 5-8) at /src/sample/Helper.cs:11:9"
[ ! -s "$work/err" ] || fail "a PDB found says nothing on stderr"
expect 0 "$gdmap" il locate "$image" 0x10965 --json
is '.addresses[0] | .lookup == "exact" and .ilOffset == "0xf" and .source.document == "/src/sample/Helper.cs"
  and .source.line == 11 and .source.column == 9 and .source.endLine == 11'
expect 0 "$gdmap" il locate "$image" 0x10965 --no-lines
has out "IL 0xf (native 5-8)"
grep -q " at /src/" "$work/out" && fail "--no-lines printed a line"
# The prolog: the runtime reports IL 0, whose line is the method's first.
expect 0 "$gdmap" il locate "$image" 0x10960 --json
is '.addresses[0] | .ilOffset == "prolog" and .stackTraceIlOffset == 0 and .source.line == 9'
# The epilog: the method's greatest IL offset (0xf), as StackFrame.GetILOffset() gives it.
expect 0 "$gdmap" il locate "$image" 0x10968 --json
is '.addresses[0] | .ilOffset == "epilog" and .stackTraceIlOffset == 15 and .source.line == 11'

# --- return addresses: looked up one byte before, unless at the method's first byte ---
expect 0 "$gdmap" il locate "$image" 0x10965 0x10960 --return-addresses
has out "0x00010965: method 0x06000001, body +0x5 of 48 bytes, looked up at +0x4: IL 0x0 (native 1-5) at /src/sample/Helper.cs:9:9"
has out "0x00010960: method 0x06000001, body +0x0 of 48 bytes: IL prolog (native 0-1)"
expect 0 "$gdmap" il locate "$image" 0x10965 --return-addresses --json
is '.addresses[0] | .lookup == "return" and .offset == 5 and .ilOffset == "0x0" and .source.line == 9'

# --- --base: absolute addresses ---
expect 1 "$gdmap" il locate "$image" 0x7f0000010965 0x10 --base 0x7f0000000000
has out "0x7f0000010965: RVA 0x00010965: method 0x06000001, body +0x5 of 48 bytes: IL 0xf (native 5-8) at /src/sample/Helper.cs:11:9"
has out "0x10: outside the image mapped at 0x7f0000000000"
expect 1 "$gdmap" il locate "$image" 0x7f0000010965 0x10 --base 0x7f0000000000 --json
is '.addresses[0].address == "0x7f0000010965" and .addresses[0].rva == "0x00010965" and .addresses[0].source.line == 11
  and .addresses[1].rva == null and .addresses[1].method == null and .unknown == 1'

# --- --maps: the process's memory map as a profiler saved it ---
# The runtime maps the page of .text (raw data at 0x200, RVA 0x10200) at
# base + 0x10000 from file offset 0, as /proc/PID/maps shows it.
cat >"$work/maps" <<MAPS
7f0000000000-7f0000001000 r--p 00000000 fe:00 4242                       $image
7f0000010000-7f0000012000 r-xp 00000000 fe:00 4242                       $image
7f0000020000-7f0000021000 rw-p 00000000 00:00 0
7f1000000000-7f1000010000 r-xp 00000000 fe:00 17                         $data/sample.pdb
7ffc00000000-7ffc00021000 rw-p 00000000 00:00 0                          [stack]
MAPS
expect 1 "$gdmap" il locate --maps "$work/maps" 0x7f0000010965 0x7f0000020010 0x7f1000000010 --names
has out "0x7f0000010965: $image RVA 0x00010965: method 0x06000001 Sample.Helper.Twice(Int32), body +0x5 of 48 bytes: IL 0xf (native 5-8) at /src/sample/Helper.cs:11:9"
has out "0x7f0000020010: in no mapped file"
has out "0x7f1000000010: in $data/sample.pdb, not a ReadyToRun image"
expect 1 "$gdmap" il locate --maps "$work/maps" 0x7f0000010965 0x7f0000020010 --json
is '.file == "'"$work/maps"'" and .addresses[0].module == "'"$image"'" and .addresses[0].rva == "0x00010965"
  and .addresses[0].source.line == 11 and .addresses[1].module == null and .addresses[1].error == "in no mapped file"
  and .unknown == 1'
# IMAGE with --maps: only IMAGE's mappings count.
expect 0 "$gdmap" il locate "$image" 0x7f0000010965 --maps "$work/maps" --return-addresses
has out "0x7f0000010965: RVA 0x00010965: method 0x06000001, body +0x5 of 48 bytes, looked up at +0x4: IL 0x0"
expect 1 "$gdmap" il locate "$image" 0x7f1000000010 --maps "$work/maps"
has out "0x7f1000000010: in no mapping of the image"
printf '7f0000000000-7f0000001000 r--p 00000000 fe:00 1 /elsewhere/other.dll\n' >"$work/other.maps"
expect 2 "$gdmap" il locate "$image" 0x7f0000010965 --maps "$work/other.maps"
has err "maps no part of"
# maps-invalid: the line that is not one.
printf '7f0000000000-7f0000001000 r--p 00000000 fe:00 1 /a.dll\nnot a maps line\n' >"$work/bad.maps"
expect 1 "$gdmap" il locate --maps "$work/bad.maps" 0x7f0000000010
has err "line 2 is not a /proc/PID/maps line"
has err "[maps-invalid]"

# --- --pdb: named, mismatched, missing; no PDB at all is a note ---
expect 0 "$gdmap" il locate "$image" 0x10965 --pdb "$data/sample.pdb"
has out "at /src/sample/Helper.cs:11:9"
# The same PDB with another id (the GUID the image names, one byte changed).
python3 - "$data/sample.pdb" "$image" "$work/other.pdb" <<'PY'
import sys
pdb = bytearray(open(sys.argv[1], "rb").read())
image = open(sys.argv[2], "rb").read()
guid = image[image.index(b"RSDS") + 4:][:16]
at = pdb.index(guid)
pdb[at] ^= 0x5A
open(sys.argv[3], "wb").write(pdb)
PY
expect 1 "$gdmap" il locate "$image" 0x10965 --pdb "$work/other.pdb"
has err "[pdb-id-mismatch]"
# A broken PDB: the error names the PDB, the byte and the field.
head -c 3000 "$data/sample.pdb" >"$work/cut.pdb"
expect 1 "$gdmap" il locate "$image" 0x10965 --pdb "$work/cut.pdb"
has err "--pdb: $work/cut.pdb: byte 0x0000006c, metadata root.streams[5]: stream #Blob lies outside the metadata [pdb-invalid]"
expect 2 "$gdmap" il locate "$image" 0x10965 --pdb "$work/none.pdb"
has err "[pdb-not-found]"
# A mismatched PDB beside the image is a note, not an error: no lines.
cp "$image" "$work/sample-r2r.dll"
cp "$work/other.pdb" "$work/sample.pdb"
expect 0 "$gdmap" il locate "$work/sample-r2r.dll" 0x10965
has out "IL 0xf (native 5-8)"
has err "note: no source lines"
has err "[pdb-id-mismatch]"
expect 0 "$gdmap" il locate "$root/tests/data/r2r/sample/Sample.A.x64.dll" 0x1073a
has out "0x0001073a: method 0x06000003, body +0xa of 70 bytes: IL 0x0 (native 10-20)"
has err "note: no source lines: no portable PDB: none embedded, none beside the image"
has err "[pdb-not-found]"

# --- streaming: one gdmap, an answer per line, each before the next is written ---
coproc LOCATE { "$gdmap" il locate "$image" --return-addresses 2>"$work/stream.err"; }
for address in 0x10965 0x10960 0x10; do
  echo "$address" >&"${LOCATE[1]}"
  IFS= read -r -t 20 line <&"${LOCATE[0]}" || fail "no answer for $address while stdin stayed open"
  case $address in
    0x10965) [[ $line == "0x00010965: method 0x06000001, body +0x5 of 48 bytes, looked up at +0x4: IL 0x0"* ]] ;;
    0x10960) [[ $line == "0x00010960: method 0x06000001, body +0x0 of 48 bytes: IL prolog"* ]] ;;
    0x10) [[ $line == "0x00000010: in no method's code" ]] ;;
  esac || fail "unexpected answer for $address: $line"
done
eval "exec ${LOCATE[1]}>&-"
status=0
wait "$LOCATE_PID" || status=$?
[ "$status" -eq 1 ] || fail "streaming: exit $status, expected 1 (one address in no method)"
# Absolute addresses from --input FILE, with --base; a bad line is a usage error at its line.
printf '0x7f0000010965\n\n  0x7f0000010990  \nzz\n' >"$work/addresses"
expect 1 "$gdmap" il locate "$image" --base 0x7f0000000000 --input "$work/addresses"
has out "0x7f0000010965: RVA 0x00010965: method 0x06000001"
has out "0x7f0000010990: RVA 0x00010990: method 0x06000002"
has err "$work/addresses line 4: 'zz' is not"
# --maps alone from stdin.
printf '0x7f0000010965\n' | "$gdmap" il locate --maps "$work/maps" >"$work/out" 2>"$work/err" || fail "--maps from stdin"
has out "0x7f0000010965: $image RVA 0x00010965: method 0x06000001"

# --- usage ---
expect 2 "$gdmap" il locate "$image" 0x7f0000010965 --base 0x7f0000000000 --maps "$work/maps"
has err "--base and --maps both say where the image is mapped"
expect 2 "$gdmap" il locate "$image" 0x10965 --pdb "$data/sample.pdb" --no-lines
has err "--pdb names the PDB of the lines --no-lines asks not to read"
expect 2 "$gdmap" il locate "$image" 0x10965 --input "$work/addresses"
has err "--input is read when no address is given"
expect 2 "$gdmap" il locate "$image" --json
has out "--json needs the addresses on the command line"
expect 2 "$gdmap" il locate "$image" --input "$work/none"
has err "--input $work/none"
expect 2 "$gdmap" il locate --pid $$ 0x1000 --base 0x1000
has err "--base is for a ReadyToRun image; a process"
expect 2 "$gdmap" il locate --pid $$ 0x1000 --pdb "$data/sample.pdb"
has err "--pdb is for a ReadyToRun image"
expect 2 "$gdmap" il locate --maps "$work/maps" 0x7f0000010965 --strict
has err "--strict is for IMAGE"
expect 2 "$gdmap" il locate "$image" 0x10000000000 --base 0x7f0000000000z
has err "--base"
echo ok
