#!/usr/bin/env python3
"""A deterministic dictionary description of N dictionaries, for tests that
need a large input whose built bytes must never change.

    gen_description.py SEED N [--unsorted] > OUT.json

Every form the description has: named instantiations (shared by many
dictionaries, some defined after their first use), inline `types` as ILAsm
text and as {"hex"}, `raw` items, RVAs as integers and as "0x" strings, and
every type shape of examples/maps/every-type-form.json. Only Python's own
`random.Random(seed)` is used, so a seed gives the same text anywhere.
"""
import json
import random
import sys

TEXT_TYPES = [
    "bool", "char", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64",
    "float32", "float64", "string", "object", "native int", "native uint",
    "class 0x02000002", "valuetype 0x01000005", "object modopt(0x1b000001)",
    "class 0x01000012<int32, string>", "valuetype 0x02000003<class 0x01000012<!0, !!1>>",
    "!0", "!!1", "int32*", "void*", "int32**", "int32[]", "string[][]", "int32[,]", "int32[0...4]",
    "int32[5]", "int32[...]", "int32[5,3...5]", "float64[-3...2,0...]",
    "int32 modopt(0x01000001)", "int32 modopt(0x01000002) modreq(0x1b000001)",
    "class 0x01000012<int32 modreq(0x01000003)>[]", "method int32 *(int32)",
    "method instance explicit vararg void *(int32&, ..., string)", "method unmanaged cdecl void *()",
]
HEX_TYPES = ["08", "0e", "1d08", "1512490108", "1b00010808", "140801010500", "1e00", "1300", "1294bc", "119230"]


def random_type(rng):
    kind = rng.random()
    if kind < 0.55:
        return rng.choice(TEXT_TYPES)
    if kind < 0.8:
        return {"hex": rng.choice(HEX_TYPES)}
    # A generic instance of a fresh token: many distinct instantiations.
    return "class 0x%08x<%s>" % (0x01000000 | rng.randrange(1, 1 << 16), rng.choice(TEXT_TYPES[:16]))


def random_types(rng):
    return [random_type(rng) for _ in range(1 + min(rng.randrange(8), rng.randrange(8)))]


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 2:
        sys.exit(__doc__)
    rng = random.Random(int(args[0]))
    count = int(args[1])
    names = ["n%d" % i for i in range(max(1, count // 20))]
    named = {name: random_types(rng) for name in names}
    out = sys.stdout
    out.write('{\n  "sorted": %s,\n  "dictionaries": [' % ("false" if "--unsorted" in sys.argv else "true"))
    rvas = rng.sample(range(0x1000, 0x1000 + 64 * count), count)
    if "--unsorted" not in sys.argv:
        rvas.sort()
    for i, rva in enumerate(rvas):
        d = {"rva": rva if rng.random() < 0.5 else "0x%08x" % rva}
        form = rng.random()
        if form < 0.5:
            d["instantiation"] = rng.choice(names)
        elif form < 0.95:
            d["types"] = random_types(rng)
        else:
            # A valid item, spelled as bytes: its length, its type count,
            # then its types.
            types = [rng.choice(HEX_TYPES) for _ in range(1 + rng.randrange(3))]
            body = "%02x" % len(types) + "".join(types)
            d["raw"] = "%02x" % (len(body) // 2) + body
        out.write(("\n    " if i == 0 else ",\n    ") + json.dumps(d))
    # Defined after the dictionaries that use them, which the format allows.
    out.write('\n  ],\n  "instantiations": {')
    for i, name in enumerate(names):
        out.write(("\n    " if i == 0 else ",\n    ") + json.dumps(name) + ": " + json.dumps(named[name]))
    out.write("\n  }\n}\n")


if __name__ == "__main__":
    main()
