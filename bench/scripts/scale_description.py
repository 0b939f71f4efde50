#!/usr/bin/env python3
"""Scales a real-world dictionary description to N dictionaries.

    scale_description.py IN.json N OUT.json

IN is a description as `gdmap dump` or tests/tools/metadata-blobs writes it
(one dictionary per line). OUT keeps IN's named instantiations and repeats
its dictionaries, in order, at fresh ascending RVAs (16 bytes apart) until
there are N: the same mix of shared and inline instantiations and the same
types as the real assemblies, at any scale. Deterministic.
"""
import json
import sys


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    source, count, target = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    with open(source) as f:
        description = json.load(f)
    dictionaries = description["dictionaries"]
    with open(target, "w") as out:
        out.write('{\n  "sorted": true,\n  "instantiations": {')
        names = description.get("instantiations", {})
        for i, (name, types) in enumerate(names.items()):
            out.write(("\n    " if i == 0 else ",\n    ") + json.dumps(name) + ": " + json.dumps(types))
        out.write('\n  },\n  "dictionaries": [')
        for i in range(count):
            d = dict(dictionaries[i % len(dictionaries)])
            d["rva"] = "0x%08x" % (0x1000 + 16 * i)
            out.write(("\n    " if i == 0 else ",\n    ") + json.dumps(d, separators=(", ", ": ")))
        out.write("\n  ]\n}\n")


if __name__ == "__main__":
    main()
