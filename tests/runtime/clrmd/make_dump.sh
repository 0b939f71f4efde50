#!/usr/bin/env bash
# A core dump of the ClrMD comparison's workload (see README.md).
#   make_dump.sh OUTDIR [10|11]
# Builds workload/ (and the ClrMD peer, clrmd_peer.csproj) into OUTDIR, never
# into the source tree; runs the workload with DOTNET_ReadyToRun=0 (every
# framework method it touches is JIT-compiled) on the machine's .NET 10
# (default) or on the .NET 11 root GDMAP_DOTNET11_ROOT (default
# /work/dotnet11) until it prints "ready PID"; writes OUTDIR/app.core with
# that runtime's own createdump (beside its libcoreclr.so, --withheap), then
# ends the workload. Prints the core's path and the runtime folder (where the
# DAC libmscordaccore.so is) on stdout: "core PATH" and "runtime DIR".
set -euo pipefail
out=${1:?usage: make_dump.sh OUTDIR [10|11]}
runtime=${2:-10}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
say() { echo "make_dump.sh [$runtime]: $*" >&2; }
die() { say "$*"; exit 1; }

case $runtime in
  10)
    rt_env=(); muxer=(dotnet exec)
    dotnet_root=$(dirname "$(readlink -f "$(command -v dotnet)")") ;;
  11)
    dotnet_root=${GDMAP_DOTNET11_ROOT:-/work/dotnet11}
    [ -x "$dotnet_root/dotnet" ] || die "no .NET 11 root at $dotnet_root (GDMAP_DOTNET11_ROOT)"
    rt_env=(DOTNET_ROOT="$dotnet_root" DOTNET_MULTILEVEL_LOOKUP=0); muxer=("$dotnet_root/dotnet" exec) ;;
  *) die "unknown RUNTIME $runtime (10 or 11)" ;;
esac
rtdir=$(ls -d "$dotnet_root"/shared/Microsoft.NETCore.App/"$runtime".* 2>/dev/null | sort -V | tail -1)
[ -n "$rtdir" ] && [ -x "$rtdir/createdump" ] || die "no createdump in $dotnet_root/shared/Microsoft.NETCore.App/$runtime.*"

# --- build (once; again when a source is newer) ---
build() { # NAME SRC_DIR FILES...
  local name=$1 src=$2; shift 2
  local dll=$out/$name/$name.dll stale=0 f
  [ -f "$dll" ] || stale=1
  for f in "$@"; do [ "$src/$f" -nt "$dll" ] && stale=1; done
  if [ $stale = 1 ]; then
    mkdir -p "$out/src-$name"
    for f in "$@"; do cp "$src/$f" "$out/src-$name/"; done
    dotnet build "$out/src-$name/$name.csproj" -c Release -o "$out/$name" -nologo -v quiet >"$out/build-$name.log" 2>&1 ||
      { cat "$out/build-$name.log" >&2; die "building $name failed"; }
  fi
}
build workload "$here/workload" Program.cs workload.csproj
build clrmd_peer "$here" Program.cs clrmd_peer.csproj

# --- run until ready ---
fifo=$out/workload.stdin
rm -f "$fifo" "$out/app.core"
mkfifo "$fifo"
pid=
cleanup() {
  exec 3>&- 2>/dev/null || true
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  rm -f "$fifo"
}
trap cleanup EXIT
env "${rt_env[@]}" DOTNET_ReadyToRun=0 "${muxer[@]}" "$out/workload/workload.dll" \
  <"$fifo" >"$out/workload.out" 2>"$out/workload.err" &
pid=$!
exec 3>"$fifo"
for _ in $(seq 1 1200); do
  grep -q '^ready ' "$out/workload.out" 2>/dev/null && break
  kill -0 "$pid" 2>/dev/null || { cat "$out/workload.err" >&2; die "the workload exited before it was ready"; }
  sleep 0.1
done
grep -q '^ready ' "$out/workload.out" || die "the workload was not ready after 120 s"
wpid=$(awk '/^ready /{print $2; exit}' "$out/workload.out")
"$rtdir/createdump" --withheap -f "$out/app.core" "$wpid" >"$out/createdump.log" 2>&1 ||
  { cat "$out/createdump.log" >&2; die "createdump failed"; }
exec 3>&-
wait "$pid" || true
pid=
say "$(grep '^workload:' "$out/workload.err" || true); core $(du -h "$out/app.core" | cut -f1)"
echo "core $out/app.core"
echo "runtime $rtdir"
