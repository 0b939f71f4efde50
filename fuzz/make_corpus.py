#!/usr/bin/env python3
"""Regenerates the seed corpora in fuzz/corpus/ from the project's own
examples and tests (docs/fuzzing.md). Deterministic: each seed is named by
the SHA-1 of its content, as libFuzzer names the inputs it saves, so a
rerun on an unchanged tree writes the same files.

    fuzz/make_corpus.py GDMAP_CLI     (e.g. build/release/tools/gdmap)

The gdmap CLI is needed only to encode the type texts into signature bytes
(`gdmap sig encode`). Seeds that fuzzing found and `-merge=1` kept (the
builder's corpus is only those) live beside these and are left alone:
this script adds and overwrites, it never deletes.
"""
import glob
import hashlib
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "fuzz", "corpus")


def put(target, data):
    if isinstance(data, str):
        data = data.encode()
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, hashlib.sha1(data).hexdigest()), "wb") as f:
        f.write(data)


def read(path, mode="r"):
    with open(os.path.join(ROOT, path), mode) as f:
        return f.read()


def ilasm_types():
    """The type lines of tests/corpus/ilasm_types.txt (no comments, no @ lines)."""
    for line in read("tests/corpus/ilasm_types.txt").splitlines():
        line = line.strip()
        if line and not line.startswith("#") and not line.startswith("@"):
            yield line


def doc_rows():
    """(text, hex) of every `| `text` | `hex` |` row of docs/type-text.md."""
    for m in re.finditer(r"^\| `([^`]+)` \| `([0-9a-f ]+)` \|", read("docs/type-text.md"), re.M):
        yield m.group(1).replace("\\|", "|"), m.group(2).replace(" ", "")


def doc_error_texts():
    """The texts of the error table of docs/type-text.md (3 columns, an offset)."""
    for m in re.finditer(r"^\| `([^`]+)` \| \d+ \|", read("docs/type-text.md"), re.M):
        yield m.group(1)


def test_json_texts():
    """JSON objects written as raw strings in the description tests."""
    for m in re.finditer(r'R"\((\{.*?\})\)"', read("tests/unit/description_test.cpp"), re.S):
        yield m.group(1)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    cli = sys.argv[1]

    texts = sorted(set(ilasm_types()) | {t for t, _ in doc_rows()})
    for t in texts:
        put("type_text", t)
    for t in doc_error_texts():
        put("type_text", t)

    signatures = {bytes.fromhex(h) for _, h in doc_rows()}
    encoded = subprocess.run([cli, "sig", "encode"], input="\n".join(ilasm_types()) + "\n",
                             capture_output=True, text=True, check=True).stdout.split()
    signatures |= {bytes.fromhex(h) for h in encoded}
    for s in sorted(signatures):
        put("signature", s)
    # Two types back to back and a truncated one: what an item holds.
    put("signature", bytes.fromhex("15124902081d1300" "0e"))
    put("signature", bytes.fromhex("151249"))

    for path in sorted(glob.glob(os.path.join(ROOT, "examples", "maps", "*.gdmap"))):
        put("map_reader", read(path, "rb"))
    for hexmap in [
        "",                              # shorter than the header
        "00000000",                      # empty, unsorted
        "00000080",                      # empty, sorted
        "ffffff7f",                      # a count no directory can back
        # bit 31 set, RVAs descending (issue #7 defect 2): find() must not miss.
        "02000080" "20100000" "00000000" "10100000" "00000000" "020108",
        # unsorted, one RVA twice
        "02000000" "10100000" "00000000" "10100000" "00000000" "020108",
        # two entries share one item; then an unreachable byte
        "02000080" "00100000" "00000000" "10100000" "00000000" "02010e" "ff",
        # non-minimal integers: length and count in the 2-byte form
        "01000080" "00100000" "00000000" "80038001" "08",
    ]:
        put("map_reader", bytes.fromhex(hexmap))

    for path in sorted(glob.glob(os.path.join(ROOT, "examples", "maps", "*.json"))):
        put("description", read(path))
    for text in test_json_texts():
        put("description", text)


if __name__ == "__main__":
    main()
