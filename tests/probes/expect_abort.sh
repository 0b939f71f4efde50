#!/usr/bin/env bash
# Runs a probe that reads the value of a failed result and checks that it
# aborts (never returns normally) with the ignored error on stderr.
#   expect_abort.sh PROBE
set -uo pipefail
stderr=$(mktemp)
trap 'rm -f "$stderr"' EXIT
"$1" >/dev/null 2>"$stderr"
status=$?
if [ $status -eq 0 ]; then echo "FAIL: the probe returned normally" >&2; exit 1; fi
if [ $status -ne 134 ]; then echo "FAIL: exit status $status, expected 134 (SIGABRT)" >&2; cat "$stderr" >&2; exit 1; fi
grep -q "value() of a failed result (offset 28, rule 'offset-outside-heap'): heap offset 0x40 is outside the heap" "$stderr" \
  || { echo "FAIL: stderr does not name the ignored error:" >&2; cat "$stderr" >&2; exit 1; }
echo "ok: aborted naming the ignored error"
