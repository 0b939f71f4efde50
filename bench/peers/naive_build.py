#!/usr/bin/env python3
"""A naive generic dictionary map builder: the peer of `gdmap build`.

    naive_build.py DESCRIPTION.json MAP

What a pipeline engineer would write in an afternoon with the standard
library: json.load the description, turn each dictionary's types into an
item (compressed length, compressed count, the types' bytes), keep each
distinct item once in a dict, sort the directory by RVA and lay the heap out
in order of first reference (FORMAT.md section 1). Like gdmap it refuses a
type that is not one well-formed ECMA-335 Type (II.23.2.12) in shortest
integers, with a plain recursive walk; unlike gdmap it knows only {"hex"}
types (taken as given, not re-encoded), no "raw", no layout overrides, and
says no more than which type failed. On the descriptions the benchmark gives
it, its map is byte for byte gdmap's (bench/scripts/cli_bench.sh compares
them), so timing one against the other compares like with like.
"""
import json
import struct
import sys


def compressed(value):
    if value < 0x80:
        return bytes([value])
    if value < 0x4000:
        return struct.pack(">H", 0x8000 | value)
    return struct.pack(">I", 0xC0000000 | value)


def read_uint(b, i):
    """A compressed unsigned integer at b[i] in its shortest form: (value, next)."""
    x = b[i]
    if x < 0x80:
        return x, i + 1
    if x & 0xC0 == 0x80:
        v = (x & 0x3F) << 8 | b[i + 1]
        if v < 0x80:
            raise ValueError("non-minimal integer")
        return v, i + 2
    if x & 0xE0 == 0xC0:
        v = (x & 0x1F) << 24 | b[i + 1] << 16 | b[i + 2] << 8 | b[i + 3]
        if v < 0x4000:
            raise ValueError("non-minimal integer")
        return v, i + 4
    raise ValueError("bad integer")


PRIMITIVES = set(range(0x01, 0x0F)) | {0x16, 0x18, 0x19, 0x1C}


def read_type(b, i):
    """One Type at b[i]: the index after it (IndexError or ValueError if malformed)."""
    e = b[i]
    i += 1
    if e in PRIMITIVES:
        return i
    if e in (0x0F, 0x10, 0x1D, 0x45):  # PTR, BYREF, SZARRAY, PINNED
        return read_type(b, i)
    if e in (0x11, 0x12):  # VALUETYPE, CLASS
        return read_uint(b, i)[1]
    if e in (0x1F, 0x20):  # CMOD_REQD, CMOD_OPT
        return read_type(b, read_uint(b, i)[1])
    if e in (0x13, 0x1E):  # VAR, MVAR
        return read_uint(b, i)[1]
    if e == 0x15:  # GENERICINST
        if b[i] not in (0x11, 0x12):
            raise ValueError("bad generic instance")
        i = read_uint(b, i + 1)[1]
        count, i = read_uint(b, i)
        if count == 0:
            raise ValueError("no generic arguments")
        for _ in range(count):
            i = read_type(b, i)
        return i
    if e == 0x14:  # ARRAY
        i = read_type(b, i)
        rank, i = read_uint(b, i)
        sizes, i = read_uint(b, i)
        for _ in range(sizes):
            i = read_uint(b, i)[1]
        bounds, i = read_uint(b, i)
        for _ in range(bounds):
            i = read_uint(b, i)[1]  # the signed form takes the same bytes
        return i
    if e == 0x1B:  # FNPTR
        convention = b[i]
        i += 1
        if convention & 0x10:
            i = read_uint(b, i)[1]
        count, i = read_uint(b, i)
        i = read_type(b, i)
        for _ in range(count):
            if b[i] == 0x41:  # SENTINEL
                i += 1
            i = read_type(b, i)
        return i
    raise ValueError("bad element type 0x%02x" % e)


def type_bytes(spelling):
    b = bytes.fromhex(spelling)
    try:
        if read_type(b, 0) != len(b):
            raise ValueError("bytes after the type")
    except (IndexError, ValueError) as e:
        sys.exit("invalid type %s: %s" % (spelling, e))
    return b


def item_of(types):
    body = compressed(len(types)) + b"".join(type_bytes(t["hex"]) for t in types)
    return compressed(len(body)) + body


def rva_of(value):
    return int(value, 16) if isinstance(value, str) else value


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1]) as f:
        description = json.load(f)
    named = {name: item_of(types) for name, types in description.get("instantiations", {}).items()}
    entries = []
    for d in description["dictionaries"]:
        item = named[d["instantiation"]] if "instantiation" in d else item_of(d["types"])
        entries.append((rva_of(d["rva"]), item))
    sorted_map = description.get("sorted", True)
    if sorted_map:
        entries.sort(key=lambda e: e[0])
    offsets = {}
    heap = []
    size = 0
    directory = []
    for rva, item in entries:
        offset = offsets.get(item)
        if offset is None:
            offset = offsets[item] = size
            heap.append(item)
            size += len(item)
        directory.append(struct.pack("<II", rva, offset))
    count = len(entries) | (0x80000000 if sorted_map else 0)
    with open(sys.argv[2], "wb") as out:
        out.write(struct.pack("<I", count))
        out.write(b"".join(directory))
        out.write(b"".join(heap))


if __name__ == "__main__":
    main()
