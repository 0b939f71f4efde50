#!/usr/bin/env python3
"""An independent reader of ReadyToRun (R2R) images: the cross-check oracle
for gdmap's C++ reader (reader/r2r_*.cpp) and `gdmap il extract`.

Written from the runtime's own sources (readytorun.h, readytoruninfo.cpp,
nativeformatreader.h, debuginfostore.cpp, codeman.cpp, gcdecoder.cpp) and
deliberately without looking at gdmap's C++: a second implementation is
only worth something if it can disagree. Standard library only.

For every precompiled method body (MethodDef entry points, section 103, and
instance entry points, section 109) it gives the token, the range of
runtime functions (body and funclets), the code size, and the method's
bounds: the raw nibble bytes (cbBounds of them) and their decoding.

    r2r_reference.py IMAGE [--json]      # one line per method, or JSON
    r2r_reference.py IMAGE --summary     # counts only

Supported: R2R major version 2 (.NET Core 2.x), x64 and x86 images. Anything
else is refused with a message naming what was found, never guessed at.
"""
import json
import struct
import sys

SECTION_RUNTIME_FUNCTIONS = 102
SECTION_METHODDEF_ENTRY_POINTS = 103
SECTION_DEBUG_INFO = 105
SECTION_INSTANCE_METHOD_ENTRY_POINTS = 109

MACHINE_I386 = 0x014C
MACHINE_AMD64 = 0x8664
# IMAGE_FILE_MACHINE_* XOR this gives the machine of a non-Windows image.
OS_XOR = {0x0000: "windows", 0x7B79: "linux", 0x4644: "osx", 0xADC4: "freebsd", 0x1993: "netbsd"}


class BadImage(Exception):
    pass


class Image:
    """A PE file and the RVA -> file offset mapping of its sections."""

    def __init__(self, data):
        self.data = data
        if len(data) < 0x40 or data[:2] != b"MZ":
            raise BadImage("not a PE file (no MZ header)")
        pe = self.u32_at(0x3C)
        if data[pe:pe + 4] != b"PE\0\0":
            raise BadImage("not a PE file (no PE signature at 0x%x)" % pe)
        self.raw_machine, nsections = struct.unpack_from("<HH", data, pe + 4)
        opt_size = struct.unpack_from("<H", data, pe + 20)[0]
        opt = pe + 24
        magic = struct.unpack_from("<H", data, opt)[0]
        if magic == 0x10B:
            dirs = opt + 96
        elif magic == 0x20B:
            dirs = opt + 112
        else:
            raise BadImage("unknown optional header magic 0x%x" % magic)
        self.sections = []
        table = opt + opt_size
        for i in range(nsections):
            vsize, va, rsize, raw = struct.unpack_from("<IIII", data, table + 40 * i + 8)
            self.sections.append((va, vsize, raw, rsize))
        self.cli_rva, self.cli_size = struct.unpack_from("<II", data, dirs + 14 * 8)
        self.machine = None
        self.os = None
        for xor, os_name in OS_XOR.items():
            m = self.raw_machine ^ xor
            if m in (MACHINE_I386, MACHINE_AMD64):
                self.machine, self.os = m, os_name
                break

    def u32_at(self, offset):
        if offset + 4 > len(self.data):
            raise BadImage("read past the end of the file at 0x%x" % offset)
        return struct.unpack_from("<I", self.data, offset)[0]

    def offset(self, rva):
        """The file offset of an RVA (raw data only: the runtime maps the
        image, we read the file)."""
        for va, vsize, raw, rsize in self.sections:
            if va <= rva < va + max(vsize, rsize):
                if rva - va >= rsize:
                    raise BadImage("RVA 0x%x lies in a section's zero fill" % rva)
                return rva - va + raw
        raise BadImage("RVA 0x%x is in no section" % rva)


class NativeReader:
    """nativeformatreader.h over the image, addressed by RVA as the runtime
    addresses it (it reads the mapped image)."""

    def __init__(self, image):
        self.image = image
        self.data = image.data

    def byte(self, rva):
        off = self.image.offset(rva)
        if off >= len(self.data):
            raise BadImage("RVA 0x%x is past the end of the file" % rva)
        return self.data[off]

    def u16(self, rva):
        return self.byte(rva) | self.byte(rva + 1) << 8

    def u32(self, rva):
        return self.u16(rva) | self.u16(rva + 2) << 16

    def unsigned(self, rva):
        """DecodeUnsigned: the low bits of the first byte say how many bytes
        follow (0 -> 1 byte, 01 -> 2, 011 -> 3, 0111 -> 4, 01111 -> 5)."""
        b = self.byte(rva)
        if b & 1 == 0:
            return b >> 1, rva + 1
        if b & 2 == 0:
            return (b >> 2) | self.byte(rva + 1) << 6, rva + 2
        if b & 4 == 0:
            return (b >> 3) | self.byte(rva + 1) << 5 | self.byte(rva + 2) << 13, rva + 3
        if b & 8 == 0:
            return ((b >> 4) | self.byte(rva + 1) << 4 | self.byte(rva + 2) << 12
                    | self.byte(rva + 3) << 20), rva + 4
        if b & 16 == 0:
            return self.u32(rva + 1), rva + 5
        raise BadImage("bad native-format unsigned at RVA 0x%x" % rva)

    def signed(self, rva):
        value, nxt = self.unsigned(rva)
        bits = {1: 7, 2: 14, 3: 21, 4: 28, 5: 32}[nxt - rva]
        if value & (1 << (bits - 1)):
            value -= 1 << bits
        return value, nxt


class NativeArray:
    """NativeArray: a header (count << 2 | index entry size), a table of
    block offsets, one per 16 elements, and per block a small binary tree."""

    BLOCK = 16

    def __init__(self, reader, rva):
        self.r = reader
        header, self.base = reader.unsigned(rva)
        self.count = header >> 2
        self.entry_size = header & 3
        if self.entry_size == 3:
            raise BadImage("NativeArray at RVA 0x%x: entry index size 3" % rva)

    def get(self, index):
        """The RVA of element `index`, or None when it has none."""
        if index >= self.count:
            return None
        block = index // self.BLOCK
        if self.entry_size == 0:
            off = self.r.byte(self.base + block)
        elif self.entry_size == 1:
            off = self.r.u16(self.base + 2 * block)
        else:
            off = self.r.u32(self.base + 4 * block)
        off += self.base
        bit = self.BLOCK >> 1
        while bit > 0:
            val, nxt = self.r.unsigned(off)
            if index & bit:
                if val & 2:
                    off = off + (val >> 2)
                    bit >>= 1
                    continue
            else:
                if val & 1:
                    off = nxt
                    bit >>= 1
                    continue
            if val & 3 == 0 and (val >> 2) == (index & (self.BLOCK - 1)):
                return nxt
            return None
        return off


def hashtable_entries(reader, rva):
    """Every entry RVA of a NativeHashtable (all buckets, in order)."""
    header = reader.byte(rva)
    base = rva + 1
    buckets = 1 << (header >> 2)
    size = header & 3
    if size == 3:
        raise BadImage("NativeHashtable at RVA 0x%x: entry index size 3" % rva)

    def bucket_start(i):
        if size == 0:
            return base + reader.byte(base + i)
        if size == 1:
            return base + reader.u16(base + 2 * i)
        return base + reader.u32(base + 4 * i)

    for b in range(buckets):
        pos, end = bucket_start(b), bucket_start(b + 1)
        while pos < end:
            pos += 1  # the low byte of the entry's hash code
            delta, nxt = reader.signed(pos)
            yield pos + delta
            pos = nxt


# --- signatures (ECMA-335 II.23.2 plus the runtime's zapsig extensions) ---

def compressed(data, pos):
    b = data[pos]
    if b & 0x80 == 0:
        return b, pos + 1
    if b & 0xC0 == 0x80:
        return (b & 0x3F) << 8 | data[pos + 1], pos + 2
    if b & 0xE0 == 0xC0:
        return (b & 0x1F) << 24 | data[pos + 1] << 16 | data[pos + 2] << 8 | data[pos + 3], pos + 4
    raise BadImage("bad compressed integer 0x%02x at 0x%x" % (b, pos))


def skip_type(data, pos, depth=0):
    if depth > 64:
        raise BadImage("type signature nested too deeply at 0x%x" % pos)
    et = data[pos]
    pos += 1
    if 0x01 <= et <= 0x0E or et in (0x16, 0x18, 0x19, 0x1C, 0x3E):
        return pos  # primitives, typedref, native ints, object, __Canon
    if et in (0x0F, 0x10, 0x1D, 0x45, 0x3D):  # ptr, byref, szarray, pinned, native valuetype
        return skip_type(data, pos, depth + 1)
    if et in (0x11, 0x12):  # valuetype, class: a TypeDefOrRefOrSpec
        return compressed(data, pos)[1]
    if et in (0x13, 0x1E):  # var, mvar
        return compressed(data, pos)[1]
    if et in (0x1F, 0x20):  # cmod_reqd, cmod_opt
        pos = compressed(data, pos)[1]
        return skip_type(data, pos, depth + 1)
    if et == 0x15:  # genericinst
        pos += 1  # class or valuetype
        pos = compressed(data, pos)[1]
        n, pos = compressed(data, pos)
        for _ in range(n):
            pos = skip_type(data, pos, depth + 1)
        return pos
    if et == 0x14:  # array: type rank nsizes sizes nlo lobounds
        pos = skip_type(data, pos, depth + 1)
        _, pos = compressed(data, pos)
        n, pos = compressed(data, pos)
        for _ in range(n):
            pos = compressed(data, pos)[1]
        n, pos = compressed(data, pos)
        for _ in range(n):
            pos = compressed(data, pos)[1]
        return pos
    if et == 0x3F:  # module zapsig: module index, then the type
        pos = compressed(data, pos)[1]
        return skip_type(data, pos, depth + 1)
    if et == 0x1B:  # fnptr: a method signature
        return skip_method_sig(data, pos, depth + 1)
    raise BadImage("unsupported element type 0x%02x at 0x%x" % (et, pos - 1))


def skip_method_sig(data, pos, depth):
    conv = data[pos]
    pos += 1
    if conv & 0x10:
        pos = compressed(data, pos)[1]
    n, pos = compressed(data, pos)
    for _ in range(n + 1):
        pos = skip_type(data, pos, depth + 1)
    return pos


# READYTORUN_METHOD_SIG_* flags of an instance entry's signature.
SIG_METHOD_INSTANTIATION = 0x04
SIG_SLOT_INSTEAD_OF_TOKEN = 0x08
SIG_MEMBER_REF_TOKEN = 0x10
SIG_CONSTRAINED = 0x20
SIG_OWNER_TYPE = 0x40


def read_instance_sig(data, pos):
    """(token, after): the method token an instance entry names and the
    file offset after its signature."""
    flags, pos = compressed(data, pos)
    if flags & SIG_OWNER_TYPE:
        pos = skip_type(data, pos)
    if flags & SIG_SLOT_INSTEAD_OF_TOKEN:
        raise BadImage("instance entry by vtable slot (flags 0x%x)" % flags)
    rid, pos = compressed(data, pos)
    token = (0x0A000000 if flags & SIG_MEMBER_REF_TOKEN else 0x06000000) | rid
    if flags & SIG_METHOD_INSTANTIATION:
        n, pos = compressed(data, pos)
        for _ in range(n):
            pos = skip_type(data, pos)
    if flags & SIG_CONSTRAINED:
        pos = skip_type(data, pos)
    return token, pos


# --- bounds ---

class Nibbles:
    """nibblestream.h: low half of each byte first."""

    def __init__(self, data, pos, end):
        self.data, self.start, self.end = data, pos, end
        self.nibble = 0

    def next(self):
        byte = self.start + self.nibble // 2
        if byte >= self.end:
            raise BadImage("nibble stream runs past its end")
        value = self.data[byte]
        n = value >> 4 if self.nibble & 1 else value & 0xF
        self.nibble += 1
        return n

    def u32(self):
        value = 0
        for _ in range(11):
            n = self.next()
            value = value << 3 | (n & 7)
            if not n & 8:
                if value >> 32:
                    raise BadImage("nibble varint over 32 bits")
                return value
        raise BadImage("nibble varint over 11 nibbles")

    def bytes_used(self):
        return (self.nibble + 1) // 2


def decode_bounds(blob):
    r = Nibbles(blob, 0, len(blob))
    count = r.u32()
    bounds = []
    native = 0
    for _ in range(count):
        native += r.u32()
        il = (r.u32() - 3) & 0xFFFFFFFF
        source = r.u32()
        bounds.append((native, il, source))
    if r.bytes_used() != len(blob):
        raise BadImage("bounds use %d of %d bytes" % (r.bytes_used(), len(blob)))
    return bounds


def x86_method_size(data, pos):
    """gcdecoder.cpp: the x86 GC info header starts with the method's code
    size, an unsigned in 7-bit groups, most significant first, bit 7 = more."""
    value = 0
    for _ in range(5):
        b = data[pos]
        pos += 1
        value = value << 7 | (b & 0x7F)
        if not b & 0x80:
            return value
    raise BadImage("x86 GC info method size over 5 bytes")


class R2R:
    def __init__(self, data):
        img = self.image = Image(data)
        if img.machine is None:
            raise BadImage("unsupported machine 0x%04x" % img.raw_machine)
        if not img.cli_rva:
            raise BadImage("no CLI header: not a .NET image")
        cli = img.offset(img.cli_rva)
        mnh_rva, _ = struct.unpack_from("<II", data, cli + 64)
        if not mnh_rva:
            raise BadImage("no ManagedNativeHeader: not a ReadyToRun image")
        h = img.offset(mnh_rva)
        sig, self.major, self.minor, self.flags, n = struct.unpack_from("<IHHII", data, h)
        if sig != 0x00525452:
            raise BadImage("ManagedNativeHeader signature 0x%08x is not RTR" % sig)
        if self.major != 2:
            raise BadImage("ReadyToRun version %d.%d is not supported (major 2 only)" % (self.major, self.minor))
        self.sections = {}
        for i in range(n):
            t, rva, size = struct.unpack_from("<III", data, h + 16 + 12 * i)
            self.sections[t] = (rva, size)
        self.reader = NativeReader(img)
        self.rf_size = 12 if img.machine == MACHINE_AMD64 else 8

    def runtime_functions(self):
        if SECTION_RUNTIME_FUNCTIONS not in self.sections:
            return []
        rva, size = self.sections[SECTION_RUNTIME_FUNCTIONS]
        off = self.image.offset(rva)
        out = []
        for i in range(size // self.rf_size):
            if self.rf_size == 12:
                begin, end, unwind = struct.unpack_from("<III", self.image.data, off + 12 * i)
            else:
                begin, unwind = struct.unpack_from("<II", self.image.data, off + 8 * i)
                end = begin + x86_method_size(self.image.data, self.image.offset(unwind))
            out.append((begin, end))
        return out

    def entry_id(self, rva):
        """readytoruninfo.cpp GetEntryPoint: the runtime function index of an
        entry (bit 0: fixups follow, bit 1: they are found by a lookback)."""
        value, _ = self.reader.unsigned(rva)
        return value >> 2 if value & 1 else value >> 1

    def entries(self):
        """(token, first runtime function, instantiated) for every body."""
        out = []
        if SECTION_METHODDEF_ENTRY_POINTS in self.sections:
            arr = NativeArray(self.reader, self.sections[SECTION_METHODDEF_ENTRY_POINTS][0])
            for rid0 in range(arr.count):
                at = arr.get(rid0)
                if at is not None:
                    out.append((0x06000000 | (rid0 + 1), self.entry_id(at), False))
        if SECTION_INSTANCE_METHOD_ENTRY_POINTS in self.sections:
            rva = self.sections[SECTION_INSTANCE_METHOD_ENTRY_POINTS][0]
            for entry in hashtable_entries(self.reader, rva):
                off = self.image.offset(entry)
                token, after = read_instance_sig(self.image.data, off)
                out.append((token, self.entry_id(entry + (after - off)), True))
        return out

    def debug_blob(self, array, rf_index):
        """(blob RVA, lookback) of a runtime function's debug info, or None."""
        at = array.get(rf_index)
        if at is None:
            return None
        lookback, after = self.reader.unsigned(at)
        return (at - lookback if lookback else after), lookback

    def methods(self):
        rfs = self.runtime_functions()
        entries = self.entries()
        starts = sorted({e[1] for e in entries})
        next_start = {s: (starts[i + 1] if i + 1 < len(starts) else len(rfs)) for i, s in enumerate(starts)}
        debug = None
        if SECTION_DEBUG_INFO in self.sections:
            debug = NativeArray(self.reader, self.sections[SECTION_DEBUG_INFO][0])
        data = self.image.data
        out = []
        for token, first, inst in sorted(entries, key=lambda e: (e[1], e[0])):
            if first >= len(rfs):
                raise BadImage("method 0x%08x: runtime function %d of %d" % (token, first, len(rfs)))
            count = next_start[first] - first
            code = sum(rfs[i][1] - rfs[i][0] for i in range(first, first + count))
            m = {"token": "0x%08X" % token, "runtimeFunction": first, "runtimeFunctionCount": count,
                 "codeSize": code, "instantiated": inst, "boundsHex": None, "bounds": None}
            blob = self.debug_blob(debug, first) if debug else None
            if blob:
                rva, lookback = blob
                off = self.image.offset(rva)
                n = Nibbles(data, off, len(data))
                cb_bounds = n.u32()
                n.u32()  # cbVars
                start = off + n.bytes_used()
                raw = data[start:start + cb_bounds]
                m["debugInfo"] = rva
                m["lookback"] = lookback
                m["boundsHex"] = raw.hex()
                m["bounds"] = decode_bounds(raw) if cb_bounds else []
            out.append(m)
        return out


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    with open(argv[1], "rb") as f:
        data = f.read()
    try:
        r2r = R2R(data)
        methods = r2r.methods()
    except (BadImage, struct.error, IndexError) as e:
        sys.stderr.write("%s: %s\n" % (argv[1], e))
        return 1
    if "--json" in argv:
        json.dump({"machine": "0x%04X" % r2r.image.raw_machine, "major": r2r.major, "minor": r2r.minor,
                   "methods": methods}, sys.stdout)
        sys.stdout.write("\n")
    elif "--summary" in argv:
        uses = {}
        for m in methods:
            if m["boundsHex"] is not None:
                uses[m["debugInfo"]] = uses.get(m["debugInfo"], 0) + 1
        shared = sum(1 for n in uses.values() if n > 1)
        print("%s: %d methods, %d instantiated, %d with bounds, %d shared blobs" % (
            argv[1], len(methods), sum(m["instantiated"] for m in methods),
            sum(1 for m in methods if m["boundsHex"]), shared))
    else:
        for m in methods:
            print("%s rf %d+%d code %d %s %s" % (m["token"], m["runtimeFunction"], m["runtimeFunctionCount"],
                                                   m["codeSize"], m["boundsHex"] or "-",
                                                   " ".join("%x:%x:%x" % b for b in (m["bounds"] or []))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
