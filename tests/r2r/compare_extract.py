#!/usr/bin/env python3
"""Compares `gdmap il extract IMAGE` with the independent reader
r2r_reference.py, method by method.

    compare_extract.py IMAGE EXTRACT.json [--gdmap GDMAP --workdir DIR [--sample N]]

Each extracted method is matched to the reference's body by its first code
RVA and its identity: token, instantiated or not, async variant, resumption
stub (the `instantiation` object's "asyncVariant" and "resumptionStub"
keys: a plain method and its async variant share a token, and a resumption
stub has its owner's), and, in a composite image, the component. Every
reference body with bounds in scope must be extracted: the whole image;
for a composite image extracted whole (every method names its "component")
every component; for one component's extract (--component NAME, or a
component stub, whose composite image lies beside it) that component.
Methods must come in runtime-function order (in a whole composite image,
grouped by component, in component order). Two entry points sharing one
body (.NET Core 3.1 CoreLib) are two methods with the same code and bounds.
An extract without code ranges is paired with the reference in order.

Then, pair by pair: token, instantiated or not, async variant, resumption
stub, component, code size, the code ranges (begin RVA and length of each
runtime function), every bound (native, IL, source). The bytes are checked
too: re-encoded here from the extracted bounds in the image's own form
(nibble for R2R 2..15, packed2 for 16, packed3 from 17), they must be the
image's bytes (cbBounds of them) that the reference read. With --gdmap,
every method (or N of them, spread evenly, with --sample N) is also written
to its own description and built with `gdmap il build --format FORM`, whose
output must be those bytes exactly (the first async variant and the first
resumption stub always among them).

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


def instantiation_flags(got):
    """(instantiated, asyncVariant, resumptionStub) of an extracted method:
    its `instantiation` object may say only that it is an async variant
    (and its resumption stub), which is no instantiation."""
    inst = got.get("instantiation") or {}
    return (bool(set(inst) - {"asyncVariant", "resumptionStub"}), inst.get("asyncVariant") is True,
            inst.get("resumptionStub") is True)


def describe(m):
    """How a reference body is named in messages."""
    text = m["token"]
    if m.get("componentName"):
        text = "%s of %s" % (text, m["componentName"])
    kinds = [k for k, on in (("instantiated", m["instantiated"]), ("async variant", m["asyncVariant"]),
                             ("resumption stub", m["resumptionStub"])) if on]
    return "%s at rf %d%s" % (text, m["runtimeFunction"], " (%s)" % ", ".join(kinds) if kinds else "")


def first_rva(got):
    return number(got["code"][0]["rva"]) if got.get("code") else None


def match(reference, extracted, problems):
    """Pairs (reference body, extracted method), found by first code RVA
    and identity (token, instantiated or not, async variant, resumption
    stub, component); the reference bodies left unmatched; the scope."""
    by_rva = {}
    for m in reference:
        by_rva.setdefault(m["code"][0][0], []).append(m)
    pairs = []
    used = set()
    for k, got in enumerate(extracted):
        rva = first_rva(got)
        if rva is None:
            problems.append("extracted method %d (%s) has no code ranges" % (k, got.get("token")))
            continue
        candidates = [m for m in by_rva.get(rva, []) if id(m) not in used]
        if not candidates:
            problems.append("extracted method %d (%s) at 0x%x: no body %sthere in the reference" % (
                k, got.get("token"), rva, "left " if by_rva.get(rva) else ""))
            continue
        inst, async_variant, stub = instantiation_flags(got)

        def fits(m):
            return (int(got["token"], 16) == int(m["token"], 16) and inst == m["instantiated"]
                    and async_variant == m["asyncVariant"] and stub == m["resumptionStub"]
                    and ("component" not in got or got["component"] == m.get("componentName")))
        ref = next((m for m in candidates if fits(m)), candidates[0])
        used.add(id(ref))
        pairs.append((ref, got))
    left = [m for m in reference if id(m) not in used]
    return pairs, left


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
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
    stub_component = None
    if r2r.owner:
        # A component stub has no code: its methods are in the composite
        # image beside it.
        stub_component = r2r.assembly_name()
        with open(os.path.join(os.path.dirname(image), r2r.owner), "rb") as f:
            r2r = r2r_reference.R2R(f.read())
    for w in r2r.warnings:
        sys.stderr.write("%s: warning: %s\n" % (image, w))
    reference = r2r.methods()
    with open(extract) as f:
        extracted = json.load(f)["methods"]
    # The reference lists every body; gdmap skips those without bounds.
    expected = [m for m in reference if m["boundsHex"]]
    problems = []
    whole = bool(r2r.components) and any("component" in got for got in extracted)
    if whole and not all("component" in got for got in extracted):
        problems.append("some extracted methods name their component, others do not")
    if not r2r.components and any("component" in got for got in extracted):
        problems.append("extracted methods name a component, the image is not a composite image")
    if extracted and not any("code" in got for got in extracted):
        # An extract without code ranges: both lists are in runtime-function
        # order, so they are paired in order.
        pairs = list(zip(expected, extracted))
        left = expected[len(extracted):]
        if len(expected) != len(extracted):
            problems.append("%d methods with bounds in the reference, %d extracted" % (len(expected), len(extracted)))
            left = []
    else:
        pairs, left = match(expected, extracted, problems)
    scope = "the image"
    if r2r.components and not whole:
        # One component's methods (il extract --component, or a component
        # stub): every method of one component, and all of them.
        names = {ref.get("componentName") for ref, _ in pairs}
        if stub_component is not None:
            names.add(stub_component)
        if len(names) > 1:
            problems.append("the extracted methods belong to several components: %s" % ", ".join(
                sorted(str(n) for n in names)))
        name = next(iter(names)) if len(names) == 1 else None
        left = [m for m in left if name is not None and m.get("componentName") == name]
        scope = "component %s" % name
    if left:
        problems.append("%d bodies with bounds of %s in the reference are not extracted: %s" % (
            len(left), scope, ", ".join(describe(m) for m in left[:3])))
    # The order: by component (whole composite images), then by runtime function.
    order = [((ref.get("component") if whole else 0) or 0, ref["runtimeFunction"]) for ref, _ in pairs]
    for k in range(1, len(order)):
        if order[k] < order[k - 1]:
            problems.append("extracted method %d (%s) is out of order: %s after %s" % (
                k, pairs[k][1].get("token"), describe(pairs[k][0]), describe(pairs[k - 1][0])))
            break
    trailing = 0
    build = set()
    if gdmap:
        n = len(pairs)
        build = set(range(n)) if not sample or sample >= n else {i * n // sample for i in range(sample)}
        # The first async variant and resumption stub are always built too.
        for kind in ("asyncVariant", "resumptionStub"):
            build |= set([i for i, (ref, _) in enumerate(pairs) if ref[kind]][:1])
    for i, (ref, got) in enumerate(pairs):
        where = "method %d (%s)" % (i, describe(ref))
        form = ref["form"]
        if int(got["token"], 16) != int(ref["token"], 16):
            problems.append("%s: token %s extracted" % (where, got["token"]))
        inst, async_variant, stub = instantiation_flags(got)
        for what, want, have in (("instantiated", ref["instantiated"], inst),
                                 ("asyncVariant", ref["asyncVariant"], async_variant),
                                 ("resumptionStub", ref["resumptionStub"], stub)):
            if want != have:
                problems.append("%s: %s %s, extracted %s (instantiation %s)" % (
                    where, what, want, have, json.dumps(got.get("instantiation"))))
        if "component" in got and got["component"] != ref.get("componentName"):
            problems.append("%s: component %s, extracted %s" % (where, ref.get("componentName"), got["component"]))
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
            try:
                built = subprocess.run([gdmap, "il", "build", desc, "--format", form, "-o", "-"],
                                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            except OSError as e:
                problems.append("%s: cannot run %s: %s" % (where, gdmap, e))
                break
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
        built = " (il build byte-identical%s)" % ("" if len(build) == len(pairs) else ", %d built" % len(build))
    if trailing:
        built += " (%d with trailing zero bytes after their bounds)" % trailing
    async_variants = sum(1 for ref, _ in pairs if ref["asyncVariant"] and not ref["resumptionStub"])
    stubs = sum(1 for ref, _ in pairs if ref["resumptionStub"])
    if async_variants or stubs:
        built += " (%d async variants, %d resumption stubs)" % (async_variants, stubs)
    shared = {}
    for ref, _ in pairs:
        shared[ref["runtimeFunction"]] = shared.get(ref["runtimeFunction"], 0) + 1
    aliases = sum(n for n in shared.values() if n > 1)
    if aliases:
        built += " (%d share a body with another)" % aliases
    if whole:
        built += " (%d components)" % len({ref.get("component") for ref, _ in pairs})
    print("%s: %d methods agree%s" % (image, len(pairs), built))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
