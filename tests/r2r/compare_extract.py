#!/usr/bin/env python3
"""Compares `gdmap il extract IMAGE` with the independent reader
r2r_reference.py, method by method.

    compare_extract.py IMAGE EXTRACT.json [--gdmap GDMAP --workdir DIR]

Both list the bodies in runtime-function order, so they are compared
pairwise: token, instantiated or not, code size, every bound (native, IL,
source). The nibble bytes are checked too: re-encoded here from the
extracted bounds, they must be the image's bytes (cbBounds of them) that
the reference read. With --gdmap, every method is also written to its own
description and built with `gdmap il build --format nibble`, whose output
must be those bytes exactly.

Prints one line: "IMAGE: N methods agree" (status 0), or the first few
differences (status 1).
"""
import json
import os
import subprocess
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import r2r_reference  # noqa: E402

SPECIAL = {"prolog": 0xFFFFFFFE, "epilog": 0xFFFFFFFD, "no_mapping": 0xFFFFFFFF}
FLAGS = {"sequence_point": 0x01, "stack_empty": 0x02, "call_site": 0x04, "native_end_offset_unknown": 0x08,
         "call_instruction": 0x10, "async": 0x20}


def number(v):
    if isinstance(v, int):
        return v
    if v in SPECIAL:
        return SPECIAL[v]
    return int(v, 16)


def bounds_of(method):
    out = []
    for b in method["bounds"]:
        source = 0
        for f in b.get("source", []):
            source |= FLAGS[f] if f in FLAGS else int(f, 16)
        out.append((number(b["native"]), number(b["il"]), source))
    return out


def nibble_varint(value, nibbles):
    chunks = []
    while True:
        chunks.append(value & 7)
        value >>= 3
        if not value:
            break
    for i, c in enumerate(reversed(chunks)):
        nibbles.append(c | (8 if i < len(chunks) - 1 else 0))


def encode_nibble(bounds):
    """FORMAT.md §3.3, written here again so that the check does not rest on
    gdmap's writer."""
    nibbles = []
    nibble_varint(len(bounds), nibbles)
    previous = 0
    for native, il, source in bounds:
        nibble_varint(native - previous, nibbles)
        nibble_varint((il + 3) & 0xFFFFFFFF, nibbles)
        nibble_varint(source, nibbles)
        previous = native
    if len(nibbles) % 2:
        nibbles.append(0)
    return bytes(nibbles[i] | nibbles[i + 1] << 4 for i in range(0, len(nibbles), 2))


def main(argv):
    image, extract = argv[1], argv[2]
    gdmap = workdir = None
    if "--gdmap" in argv:
        gdmap = argv[argv.index("--gdmap") + 1]
        workdir = argv[argv.index("--workdir") + 1]
    with open(image, "rb") as f:
        reference = r2r_reference.R2R(f.read()).methods()
    with open(extract) as f:
        extracted = json.load(f)["methods"]
    # The reference lists every body; gdmap skips those without bounds.
    expected = [m for m in reference if m["boundsHex"]]
    problems = []
    if len(expected) != len(extracted):
        problems.append("%d methods with bounds in the reference, %d extracted" % (len(expected), len(extracted)))
    for i, (ref, got) in enumerate(zip(expected, extracted)):
        where = "method %d (%s)" % (i, ref["token"])
        if int(got["token"], 16) != int(ref["token"], 16):
            problems.append("%s: token %s extracted" % (where, got["token"]))
        if ("instantiation" in got) != ref["instantiated"]:
            problems.append("%s: instantiated %s, extracted %s" % (where, ref["instantiated"], "instantiation" in got))
        if got.get("codeSize") != ref["codeSize"]:
            problems.append("%s: codeSize %d, extracted %s" % (where, ref["codeSize"], got.get("codeSize")))
        bounds = bounds_of(got)
        if bounds != [tuple(b) for b in ref["bounds"]]:
            problems.append("%s: bounds differ: %s vs %s" % (where, ref["bounds"][:4], bounds[:4]))
        if encode_nibble(bounds).hex() != ref["boundsHex"]:
            problems.append("%s: re-encoded bounds %s, image %s" % (where, encode_nibble(bounds).hex(), ref["boundsHex"]))
        if gdmap:
            desc = os.path.join(workdir, "method.json")
            with open(desc, "w") as f:
                json.dump({"methods": [got]}, f)
            built = subprocess.run([gdmap, "il", "build", desc, "--format", "nibble", "-o", "-"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            if built.returncode != 0 or built.stdout.hex() != ref["boundsHex"]:
                problems.append("%s: il build --format nibble gave %s (status %d, %s), image %s" % (
                    where, built.stdout.hex(), built.returncode, built.stderr.decode().strip(), ref["boundsHex"]))
        if len(problems) > 10:
            break
    if problems:
        for p in problems[:10]:
            print("%s: %s" % (image, p))
        return 1
    print("%s: %d methods agree%s" % (image, len(extracted), " (il build byte-identical)" if gdmap else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
