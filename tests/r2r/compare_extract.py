#!/usr/bin/env python3
"""Compares `gdmap il extract IMAGE` with the independent reader
r2r_reference.py, method by method.

    compare_extract.py IMAGE EXTRACT.json [--gdmap GDMAP --workdir DIR [--sample N]]

For a composite image (or a component stub of one, whose composite image
lies beside it) EXTRACT.json holds one component's methods: each is
matched to the reference's body by its first code RVA, and the caller adds
up the components (r2r_packs.sh checks that they cover every body).

Both list the bodies in runtime-function order, so they are compared
pairwise: token, instantiated or not, code size, every bound (native, IL,
source), and, where the extract names them, the component (composite
images) and the code ranges (begin RVA and length of each runtime function).
The bytes are checked too: re-encoded here from the extracted bounds in
the image's own form (nibble for R2R 2..15, packed2 for 16, packed3 for 17),
they must be the image's bytes (cbBounds of them) that the reference read.
With --gdmap, every method (or N of them, spread evenly, with --sample N)
is also written to its own description and built with `gdmap il build
--format FORM`, whose output must be those bytes exactly.

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
    return flush(nibbles)


def flush(nibbles):
    if len(nibbles) % 2:
        nibbles.append(0)
    return bytes(nibbles[i] | nibbles[i + 1] << 4 for i in range(0, len(nibbles), 2))


# ICorDebugInfo::SourceTypes flag of each bit of the packed forms.
PACKED_BITS = {"packed2": (0x10, 0x02), "packed3": (0x10, 0x02, 0x20)}


def encode_packed(bounds, form):
    """The bit-packed form as the runtime writes it: minimal widths (at
    least 1 bit), a nibble header count, nativeBits-1, ilBits-1 flushed to
    a byte, then the entries least significant bit first."""
    flags = PACKED_BITS[form]
    deltas, ils, previous = [], [], 0
    for native, il, source in bounds:
        if source & ~sum(flags):
            raise ValueError("source 0x%x has a flag %s cannot store" % (source, form))
        deltas.append(native - previous)
        ils.append((il + 3) & 0xFFFFFFFF)
        previous = native
    native_bits = max(1, max(deltas).bit_length())
    il_bits = max(1, max(ils).bit_length())
    nibbles = []
    for v in (len(bounds), native_bits - 1, il_bits - 1):
        nibble_varint(v, nibbles)
    out = flush(nibbles)
    value, shift = 0, 0
    for (native, il, source), delta, stored in zip(bounds, deltas, ils):
        bits = sum(1 << i for i, f in enumerate(flags) if source & f)
        value |= bits << shift
        shift += len(flags)
        value |= delta << shift
        shift += native_bits
        value |= stored << shift
        shift += il_bits
    return out + value.to_bytes((shift + 7) // 8, "little")


def encode(bounds, form):
    if form == "nibble":
        return encode_nibble(bounds)
    return encode_packed(bounds, form)


def main(argv):
    image, extract = argv[1], argv[2]
    gdmap = workdir = None
    sample = 0
    if "--gdmap" in argv:
        gdmap = argv[argv.index("--gdmap") + 1]
        workdir = argv[argv.index("--workdir") + 1]
    if "--sample" in argv:
        sample = int(argv[argv.index("--sample") + 1])
    with open(image, "rb") as f:
        r2r = r2r_reference.R2R(f.read())
    if r2r.owner:
        # A component stub has no code: its methods are in the composite
        # image beside it.
        with open(os.path.join(os.path.dirname(image), r2r.owner), "rb") as f:
            r2r = r2r_reference.R2R(f.read())
    reference = r2r.methods()
    with open(extract) as f:
        extracted = json.load(f)["methods"]
    # The reference lists every body; gdmap skips those without bounds.
    expected = [m for m in reference if m["boundsHex"]]
    problems = []
    if r2r.components:
        # One component's methods (il extract --component, or a stub): each
        # is matched to the reference's body by its first code RVA.
        by_rva = {m["code"][0][0]: m for m in expected}
        matched = []
        for got in extracted:
            rva = number(got["code"][0]["rva"]) if got.get("code") else None
            if rva not in by_rva:
                problems.append("extracted %s at %s: no body there in the reference" % (got["token"], rva))
            else:
                matched.append(by_rva[rva])
        expected = matched
    elif len(expected) != len(extracted):
        problems.append("%d methods with bounds in the reference, %d extracted" % (len(expected), len(extracted)))
    trailing = 0
    build = set()
    if gdmap:
        n = len(expected)
        build = set(range(n)) if not sample or sample >= n else {i * n // sample for i in range(sample)}
    for i, (ref, got) in enumerate(zip(expected, extracted)):
        where = "method %d (%s)" % (i, ref["token"])
        form = ref["form"]
        if int(got["token"], 16) != int(ref["token"], 16):
            problems.append("%s: token %s extracted" % (where, got["token"]))
        if ("instantiation" in got) != ref["instantiated"]:
            problems.append("%s: instantiated %s, extracted %s" % (where, ref["instantiated"], "instantiation" in got))
        if "component" in got and got["component"] != ref.get("component"):
            problems.append("%s: component %s, extracted %s" % (where, ref.get("component"), got["component"]))
        if got.get("codeSize") != ref["codeSize"]:
            problems.append("%s: codeSize %d, extracted %s" % (where, ref["codeSize"], got.get("codeSize")))
        if "code" in got:
            ranges = [[number(r["rva"]), number(r["size"])] for r in got["code"]]
            if ranges != ref["code"]:
                problems.append("%s: code ranges %s, extracted %s" % (
                    where, ["0x%x+%d" % tuple(r) for r in ref["code"]], ["0x%x+%d" % tuple(r) for r in ranges]))
        bounds = bounds_of(got)
        if bounds != [tuple(b) for b in ref["bounds"]]:
            first = next((k for k, (a, b) in enumerate(zip(bounds, ref["bounds"])) if tuple(a) != tuple(b)),
                         min(len(bounds), len(ref["bounds"])))
            problems.append("%s: bounds differ from bound %d (of %d/%d): reference %s, extracted %s" % (
                where, first, len(ref["bounds"]), len(bounds), ref["bounds"][first:first + 2], bounds[first:first + 2]))
        try:
            again = encode(bounds, form).hex()
        except ValueError as e:
            again = "(%s)" % e
        image_bytes = ref["boundsHex"]
        if ref.get("trailingZeros"):
            # Not canonical: the writer gives back the bounds, not the zeros
            # after them (real .NET 10 blobs); the bounds part must match.
            image_bytes = image_bytes[:len(image_bytes) - 2 * ref["trailingZeros"]]
            trailing += 1
        if again != image_bytes:
            problems.append("%s: re-encoded %s bounds %s, image %s" % (where, form, again, ref["boundsHex"]))
        if i in build:
            desc = os.path.join(workdir, "method.json")
            with open(desc, "w") as f:
                json.dump({"methods": [got]}, f)
            built = subprocess.run([gdmap, "il", "build", desc, "--format", form, "-o", "-"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            # An extract's `layout` (trailing bytes and the like) gives the
            # image's bytes back whole; without one, the bounds part.
            want = ref["boundsHex"] if "layout" in got else image_bytes
            if built.returncode != 0 or built.stdout.hex() != want:
                problems.append("%s: il build --format %s gave %s (status %d, %s), image %s" % (
                    where, form, built.stdout.hex(), built.returncode, built.stderr.decode().strip(), want))
        if len(problems) > 10:
            break
    if problems:
        for p in problems[:10]:
            print("%s: %s" % (image, p))
        return 1
    built = ""
    if gdmap:
        built = " (il build byte-identical%s)" % ("" if len(build) == len(expected) else ", %d built" % len(build))
    if trailing:
        built += " (%d with trailing zero bytes after their bounds)" % trailing
    print("%s: %d methods agree%s" % (image, len(extracted), built))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
