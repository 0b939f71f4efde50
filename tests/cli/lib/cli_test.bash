# Shared by the CLI scripts (sourced, not run): how a test runs a command and
# states what it expects. Needs $work (a scratch folder the script owns).
#   fail MESSAGE...           fail the test
#   expect STATUS COMMAND...  run COMMAND with stdin closed, its stdout in
#                             $work/out and stderr in $work/err; fail unless
#                             it exits STATUS
#   has FILE TEXT             fail unless $work/FILE contains TEXT

fail() { echo "FAIL: $*" >&2; exit 1; }
expect() {
  local want=$1 got=0
  shift
  "$@" >"$work/out" 2>"$work/err" </dev/null || got=$?
  [ "$got" -eq "$want" ] || { cat "$work/err" >&2; fail "'$*' exited $got, expected $want"; }
}
has() { grep -qF -- "$2" "$work/$1" || { cat "$work/$1" >&2; fail "$1 lacks: $2"; }; }
