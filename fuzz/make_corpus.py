#!/usr/bin/env python3
"""Regenerates the seed corpora in fuzz/corpus/ from the project's own
examples and tests (docs/fuzzing.md). Deterministic: each seed is named by
the SHA-1 of its content, as libFuzzer names the inputs it saves, so a
rerun on an unchanged tree writes the same files.

    fuzz/make_corpus.py GDMAP_CLI     (e.g. build/release/tools/gdmap)
    fuzz/make_corpus.py --il          (only the IL-to-native seeds; no CLI)

The gdmap CLI is needed only to encode the type texts into signature bytes
(`gdmap sig encode`). The IL-to-native seeds (il_bounds, il_nibble,
il_packed2, il_packed3) are encoded here, by an independent encoder that
reproduces the FORMAT.md §3.3 vectors (asserted before anything is written). Seeds that fuzzing found and `-merge=1` kept (the
builder's corpus is only those) live beside these and are left alone:
this script adds and overwrites, it never deletes.
"""
import glob
import hashlib
import os
import random
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

# IL-to-native bounds (FORMAT.md §3.3). A bound is (native, il, source).
PROLOG, EPILOG, NO_MAPPING = 0xFFFFFFFE, 0xFFFFFFFD, 0xFFFFFFFF
CALL_INSTRUCTION, STACK_EMPTY, ASYNC = 0x10, 0x02, 0x20


def nibble_varint(value, leading_zero_chunks=0):
    """Nibbles of a u32: 3-bit chunks, most significant first, bit 3 on all
    but the last; `leading_zero_chunks` makes it non-minimal."""
    chunks = []
    while True:
        chunks.append(value & 7)
        value >>= 3
        if not value:
            break
    chunks = [0] * leading_zero_chunks + list(reversed(chunks))
    return [c | 8 for c in chunks[:-1]] + [chunks[-1]]


def nibble_bytes(nibbles, pad=0):
    """Low half first; an odd count is completed with `pad` (0 is valid)."""
    if len(nibbles) % 2:
        nibbles = nibbles + [pad]
    return bytes(nibbles[i] | nibbles[i + 1] << 4 for i in range(0, len(nibbles), 2))


def deltas(bounds):
    return [n - (bounds[i - 1][0] if i else 0) for i, (n, _, _) in enumerate(bounds)]


def nibble_blob(bounds, count=None):
    nibbles = nibble_varint(len(bounds) if count is None else count)
    for d, (_, il, source) in zip(deltas(bounds), bounds):
        nibbles += nibble_varint(d) + nibble_varint((il + 3) & 0xFFFFFFFF) + nibble_varint(source)
    return nibble_bytes(nibbles)


def packed_blob(bounds, source_bits, native_bits=None, il_bits=None):
    ds = deltas(bounds)
    ils = [(il + 3) & 0xFFFFFFFF for _, il, _ in bounds]
    native_bits = native_bits or max(max(ds).bit_length(), 1)
    il_bits = il_bits or max(max(ils).bit_length(), 1)
    header = nibble_bytes(nibble_varint(len(bounds)) + nibble_varint(native_bits - 1) + nibble_varint(il_bits - 1))
    bits = position = 0
    for d, il, (_, _, source) in zip(ds, ils, bounds):
        code = (1 if source & CALL_INSTRUCTION else 0) | (2 if source & STACK_EMPTY else 0) | (
            4 if source & ASYNC else 0)
        for value, width in ((code, source_bits), (d, native_bits), (il, il_bits)):
            bits |= value << position
            position += width
    return header + bits.to_bytes((position + 7) // 8, "little")


IL_FORMS = {
    "il_nibble": nibble_blob,
    "il_packed2": lambda b: packed_blob(b, 2),
    "il_packed3": lambda b: packed_blob(b, 3),
}
WORKED_EXAMPLE = [(0, PROLOG, STACK_EMPTY), (4, 0, STACK_EMPTY), (10, 5, 0), (12, 5, CALL_INSTRUCTION),
                  (17, 9, STACK_EMPTY), (30, EPILOG, 0)]


def realistic_bounds(rng, count):
    """What a code generator reports: prolog at 0, small native steps, IL
    mostly ascending with specials and call_instruction entries, an epilog
    near the end."""
    bounds, native, il = [(0, PROLOG, STACK_EMPTY)], 0, 0
    for _ in range(count - 2):
        native += rng.choice([0, 1, 2, 3, 4, 5, 7, 12, 30])
        il += rng.choice([0, 1, 2, 5, 6, 11])
        kind = rng.random()
        if kind < 0.15:
            bounds.append((native, il, CALL_INSTRUCTION))
        elif kind < 0.2:
            bounds.append((native, NO_MAPPING, 0))
        else:
            bounds.append((native, il, STACK_EMPTY if rng.random() < 0.3 else 0))
    bounds.append((native + rng.randint(1, 9), EPILOG, 0))
    return bounds


# Edge cases of the IL-to-native description (FORMAT.md §3.4), valid and not.
IL_DESCRIPTIONS = [
    '{"methods": []}',
    '{"$schema": "x", "methods": [{"token": 100663297, "codeSize": "0x28", "bounds": ['
    '{"native": 0, "il": "prolog", "source": ["stack_empty", "sequence_point"]}, '
    '{"native": "0x4", "il": "0x0", "source": ["call_site", "native_end_offset_unknown"]}, '
    '{"native": 4, "il": "no_mapping", "source": ["async", "0x10"]}, '
    '{"native": 40, "il": "epilog"}]}]}',
    '{"methods": [{"token": "0x06000002", "map": [{"il": 4294967295, "nativeStart": 8, "nativeEnd": 0}, '
    '{"il": "epilog", "nativeStart": "0xFFFFFFFF", "nativeEnd": 0}]}]}',
    '{"methods": [{"token": "0x06000001", "bounds": [{"native": 0, "il": 0}]}, {"token": "0x06000001", "map": []}]}',
    '{"methods": [{"token": "0x06000001", "bounds": [{"native": 8, "il": 0}, {"native": 4, "il": 1}], "map": []}]}',
    '{"methods": [{"token": -1, "codeSize": 4294967296, "bounds": [{"native": 1.5, "il": "prologue", '
    '"source": ["stack_full"], "extra": 1}]}], "methods": 2}',
]


def il_seeds():
    assert nibble_blob(WORKED_EXAMPLE).hex() == "062134620920090a95245900"
    assert packed_blob(WORKED_EXAMPLE, 2).hex() == "3603424883618216d300"
    assert packed_blob(WORKED_EXAMPLE, 3).hex() == "360382100d0c23a8623400"
    assert [nibble_bytes(nibble_varint(v)).hex() for v in (8, 9, 0x3F, 64, 0x1FF, 0x200)] == [
        "09", "19", "7f", "8900", "ff07", "8908"]
    rng = random.Random(8)
    shapes = [
        WORKED_EXAMPLE,
        [(0, 0, 0)],                                                          # a single bound
        [(0, PROLOG, 0), (0, NO_MAPPING, 0), (8, EPILOG, 0)],                 # all specials, equal offsets
        [(0, 0, CALL_INSTRUCTION), (2, 0, CALL_INSTRUCTION), (4, 1, 0), (9, 3, CALL_INSTRUCTION)],
        [(0, 0, 0), (0xFFFFFFF0, 0xFFFFFF00, STACK_EMPTY), (0xFFFFFFFF, 7, 0)],  # wide values
        realistic_bounds(rng, 40),
    ]
    for target, encode in IL_FORMS.items():
        for bounds in shapes:
            put(target, encode(bounds))
            put("il_bounds", encode(bounds))
    # Flags only one form stores.
    put("il_nibble", nibble_blob([(0, 1, 0x0D), (3, 2, 0x1F)]))
    put("il_packed3", packed_blob([(0, 1, ASYNC), (3, 2, ASYNC | CALL_INSTRUCTION | STACK_EMPTY)], 3))
    # Valid but not canonical: a non-minimal count, wider-than-needed widths.
    example_nibbles = nibble_blob(WORKED_EXAMPLE)
    put("il_nibble", nibble_bytes(nibble_varint(1, leading_zero_chunks=1) + [0, 3, 0]))
    for target, bits in (("il_packed2", 2), ("il_packed3", 3)):
        put(target, packed_blob(WORKED_EXAMPLE, bits, native_bits=32, il_bits=32))
        put(target, packed_blob(WORKED_EXAMPLE, bits) + b"\x00")     # a trailing byte
    # Hostile: a count of 2^32-1, a count of 0, a truncated blob, a set
    # padding nibble, an over-long varint.
    for target in list(IL_FORMS) + ["il_bounds"]:
        put(target, nibble_bytes(nibble_varint(0xFFFFFFFF) + [0, 0, 0]))
        put(target, nibble_bytes([0]))
        put(target, example_nibbles[:5])
        put(target, nibble_bytes([2, 0, 3, 0, 1, 4, 0], pad=0xF))
        put(target, bytes([0x88] * 6 + [0x01]))

    for path in sorted(glob.glob(os.path.join(ROOT, "examples", "il", "*.json"))):
        put("il_description", read(path))
    for text in IL_DESCRIPTIONS:
        put("il_description", text)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    il_seeds()
    if sys.argv[1] == "--il":
        return
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
