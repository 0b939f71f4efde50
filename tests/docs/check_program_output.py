#!/usr/bin/env python3
"""Runs docs/library.md's complete program and fails unless it prints, byte
for byte, the output the document shows after it, and exits 0.

    check_program_output.py PROGRAM EXPECTED.txt
"""
import difflib
import subprocess
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    run = subprocess.run([sys.argv[1]], capture_output=True, text=True, check=False)
    with open(sys.argv[2], encoding="utf-8") as f:
        expected = f.read()
    if run.stderr:
        sys.stderr.write(run.stderr)
    if run.stdout != expected:
        sys.stdout.writelines(difflib.unified_diff(expected.splitlines(True), run.stdout.splitlines(True),
                                                   "docs/library.md (the program's ```text output)", "printed"))
        sys.exit("docs/library.md: the complete program prints something else than the document shows")
    if run.returncode != 0:
        sys.exit(f"docs/library.md: the complete program exits {run.returncode}")
    print("docs/library.md's complete program prints what the document shows")


if __name__ == "__main__":
    main()
