#!/usr/bin/env python3
"""reencode_bounds.py IMAGE OUT

Crafts a ReadyToRun image whose bounds are not canonical: one method's
bounds blob re-encoded non-minimally, in place, with its content and size
unchanged. A nibble varint takes a redundant leading zero group (the
nibble 8: "0, more follow"), which the runtime's reader accepts; the nibble
it adds takes the place of the blob's padding nibble, so nothing after it
moves. In the nibble form any varint can take it (bounds[1].il here, else
header.count); in the packed forms the header's count, when the header has
a padding nibble (the entries start at the same bit either way).

The method is the first MethodDef body (not an instantiation, async
variant or resumption stub, the only body of its token) whose blob has
such a padding nibble. Prints
"TOKEN FORM HEX": the token, the image's bounds form and the blob's new
bytes, which `gdmap il extract` then `gdmap il build --format FORM` must
give back. The independent reader tests/r2r/r2r_reference.py finds the
blob.
"""
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import r2r_reference as ref  # noqa: E402


def nibbles_of(raw):
    out = []
    for b in raw:
        out += [b & 0xF, b >> 4]
    return out


def varint_starts(nibbles, count):
    """Where each of the first `count` varints starts, and where they end."""
    starts, at = [], 0
    for _ in range(count):
        starts.append(at)
        while nibbles[at] & 8:
            at += 1
        at += 1
    return starts, at


def reencoded(raw, form):
    """The blob with one varint widened into its padding nibble, or None."""
    n = nibbles_of(raw)
    if form == "nibble":
        count = 0
        for nibble in n[:varint_starts(n, 1)[1]]:
            count = count << 3 | (nibble & 7)
        starts, end = varint_starts(n, 1 + 3 * count)
        target = starts[5] if count >= 2 else starts[0]  # bounds[1].il, else header.count
    else:
        starts, end = varint_starts(n, 3)  # count, nativeBits - 1, ilBits - 1
        target = starts[0]
    if end % 2 == 0 or n[end] != 0:
        return None  # no padding nibble to take
    widened = n[:target] + [8] + n[target:end] + n[end + 1:]
    return bytes(widened[i] | widened[i + 1] << 4 for i in range(0, len(widened), 2))


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    data = bytearray(open(argv[1], "rb").read())
    r2r = ref.R2R(bytes(data))
    methods = r2r.methods()
    bodies = {}
    for m in methods:
        bodies[m["token"]] = bodies.get(m["token"], 0) + 1
    for m in methods:
        if "sigFlags" in m or m["resumptionStub"] or bodies[m["token"]] != 1:
            continue  # an instance entry (instantiation, async variant), a stub, or a token of several bodies
        if not m["boundsHex"] or m.get("trailingZeros"):
            continue
        start, size, _ = ref.debug_header(bytes(data), r2r.image.offset(m["debugInfo"]), r2r.rules)
        raw = bytes(data[start:start + size])
        new = reencoded(raw, r2r.form)
        if new is None:
            continue
        assert len(new) == len(raw) and new != raw
        data[start:start + size] = new
        open(argv[2], "wb").write(data)
        print(m["token"], r2r.form, new.hex())
        return 0
    sys.stderr.write("%s: no method's bounds have a padding nibble to re-encode into\n" % argv[1])
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
