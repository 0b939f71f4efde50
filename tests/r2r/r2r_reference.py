#!/usr/bin/env python3
"""An independent reader of ReadyToRun (R2R) images: the cross-check oracle
for gdmap's C++ reader and `gdmap il extract`.

Written from the runtime's own sources (readytorun.h, readytoruninfo.cpp,
nativeformatreader.h, debuginfostore.cpp, codeman.cpp, the cDAC's DebugInfo
contract, R2RDump's ILCompiler.Reflection.ReadyToRun) and from real images,
deliberately without looking at gdmap's C++: a second implementation is
only worth something if it can disagree. Standard library only.

For every precompiled method body (MethodDef entry points, section 103, per
component in a composite image, and instance entry points, section 109) it
gives the token, the runtime functions (body, funclets, cold part), the
code size, and the method's bounds: their form, the raw bytes (cbBounds of
them) and their decoding.

    r2r_reference.py IMAGE [--json]      # one line per method, or JSON
    r2r_reference.py IMAGE --summary     # counts only
    r2r_reference.py IMAGE --check ...   # also fails on overlapping runtime
                                         # functions, empty code, bounds past it

Supported: R2R major versions 2..21 (18..21 read as 17); x64, x86, arm64 and arm32 (Thumb-2)
on any OS; single-assembly and composite images; component stubs of a
composite image (no code of their own: 0 methods). Anything else (major
1 or 22 and above, another machine, not an R2R image) is refused with a
message naming what was found, never guessed at.

Where versions differ (debug info, runtime functions):
- bounds: majors 2..15 classic nibble form ("nibble"); 16 bit-packed with
  2 source bits ("packed2": bit 0 call_instruction, bit 1 stack_empty);
  17 bit-packed with 3 ("packed3": bit 2 async).
- debug-info header: up to 16 nibble varints cbBounds, cbVars; in 17 a
  first value 0 marks the fat header: six sizes follow (bounds, vars,
  uninstrumented bounds, patchpoint info, rich debug info, async info).
- code length: x64 runtime functions carry an end; x86 ones point at the
  method's GC info, whose header starts with its length (7-bit groups,
  most significant first), up to major 13; from 14 (x86 funclets) at an
  UNWIND_INFO, a u32 FunctionLength, for a body and a funclet alike (the
  body's GC info follows it);
  arm64/arm32 ones carry packed unwind data (flag bits 0..1 non-zero:
  length in bits 2..12) or point at .xdata whose first word has the length
  in bits 0..17; the unit is 4 bytes on arm64, 2 on arm32.
"""
import json
import struct
import sys

SECTION_RUNTIME_FUNCTIONS = 102
SECTION_METHODDEF_ENTRY_POINTS = 103
SECTION_DEBUG_INFO = 105
SECTION_INSTANCE_METHOD_ENTRY_POINTS = 109
SECTION_COMPONENT_ASSEMBLIES = 115
SECTION_OWNER_COMPOSITE_EXECUTABLE = 116
SECTION_HOT_COLD_MAP = 120

FLAG_COMPONENT = 0x20

MACHINE_I386 = 0x014C
MACHINE_AMD64 = 0x8664
MACHINE_ARM64 = 0xAA64
MACHINE_ARMNT = 0x01C4  # Thumb-2, what crossgen2 writes for arm32
MACHINES = {MACHINE_I386: "x86", MACHINE_AMD64: "x64", MACHINE_ARM64: "arm64", MACHINE_ARMNT: "arm"}
# IMAGE_FILE_MACHINE_* XOR this gives the machine of a non-Windows image.
OS_XOR = {0x0000: "windows", 0x7B79: "linux", 0x4644: "osx", 0xADC4: "freebsd", 0x1993: "netbsd"}

MIN_MAJOR, MAX_MAJOR = 2, 21  # 18..21: helpers, vars encoding, x86 GC info v5: read as 17

# ICorDebugInfo::SourceTypes values of the bits of the packed forms.
PACKED_SOURCE_BITS = ((1, 0x10), (2, 0x02), (4, 0x20))


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
        self.last = None
        table = opt + opt_size
        for i in range(nsections):
            vsize, va, rsize, raw = struct.unpack_from("<IIII", data, table + 40 * i + 8)
            self.sections.append((va, vsize, raw, rsize))
        self.export_rva, self.export_size = struct.unpack_from("<II", data, dirs)
        self.cli_rva, self.cli_size = struct.unpack_from("<II", data, dirs + 14 * 8)
        self.machine = None
        self.os = None
        for xor, os_name in OS_XOR.items():
            m = self.raw_machine ^ xor
            if m in MACHINES:
                self.machine, self.os = m, os_name
                break

    def u32_at(self, offset):
        if offset + 4 > len(self.data):
            raise BadImage("read past the end of the file at 0x%x" % offset)
        return struct.unpack_from("<I", self.data, offset)[0]

    def offset(self, rva):
        """The file offset of an RVA (raw data only: the runtime maps the
        image, we read the file)."""
        last = self.last
        if last and last[0] <= rva < last[1]:
            return rva - last[0] + last[2]
        for va, vsize, raw, rsize in self.sections:
            if va <= rva < va + max(vsize, rsize):
                if rva - va >= rsize:
                    raise BadImage("RVA 0x%x lies in a section's zero fill" % rva)
                self.last = (va, va + rsize, raw)  # the section of the last lookup, tried first
                return rva - va + raw
        raise BadImage("RVA 0x%x is in no section" % rva)

    def export(self, name):
        """The RVA of an exported symbol, or None (a composite image's
        READYTORUN_HEADER is found by its export RTR_HEADER)."""
        if not self.export_rva:
            return None
        d = self.offset(self.export_rva)
        count_names, functions, names, ordinals = struct.unpack_from("<IIII", self.data, d + 24)
        for i in range(count_names):
            name_rva = self.u32_at(self.offset(names) + 4 * i)
            off = self.offset(name_rva)
            end = self.data.index(b"\0", off)
            if self.data[off:end] == name:
                ordinal = struct.unpack_from("<H", self.data, self.offset(ordinals) + 2 * i)[0]
                return self.u32_at(self.offset(functions) + 4 * ordinal)
        return None


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
SIG_UPDATE_CONTEXT = 0x80


def read_instance_sig(data, pos):
    """(token, after): the method token an instance entry names and the
    file offset after its signature. UpdateContext (newer images, composite
    ones above all) puts the index of the module whose metadata the rest
    of the signature uses right after the flags."""
    flags, pos = compressed(data, pos)
    if flags & SIG_UPDATE_CONTEXT:
        pos = compressed(data, pos)[1]
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


def bounds_form(major):
    if major >= 17:
        return "packed3"
    if major == 16:
        return "packed2"
    return "nibble"


def decode_bounds(blob, form="nibble", trailing_zeros=False):
    """[(native, il, source)], source in ICorDebugInfo::SourceTypes values.
    Every byte of the blob must be used, padding must be zero. With
    trailing_zeros, zero bytes after the bounds are allowed and the result
    is (bounds, bytes used): real .NET 10 images have such blobs (the
    runtime reads `count` bounds and ignores the rest of cbBounds)."""
    r = Nibbles(blob, 0, len(blob))
    count = r.u32()
    if count == 0:
        raise BadImage("bounds count 0")
    bounds = []
    native = 0
    if form == "nibble":
        for _ in range(count):
            native += r.u32()
            il = (r.u32() - 3) & 0xFFFFFFFF
            source = r.u32()
            bounds.append((native, il, source))
        if r.nibble % 2 and blob[r.nibble // 2] >> 4:
            raise BadImage("non-zero padding nibble")
        used = r.bytes_used()
    else:
        source_bits = 2 if form == "packed2" else 3
        native_bits = r.u32() + 1
        il_bits = r.u32() + 1
        if native_bits > 32 or il_bits > 32:
            raise BadImage("bit widths %d/%d over 32" % (native_bits, il_bits))
        if r.nibble % 2 and blob[r.nibble // 2] >> 4:
            raise BadImage("non-zero header padding nibble")
        start = r.bytes_used()
        entry = source_bits + native_bits + il_bits
        total = entry * count
        used = start + (total + 7) // 8
        if used > len(blob):
            raise BadImage("%d packed bounds need %d bytes, the blob has %d" % (count, used, len(blob)))
        value = int.from_bytes(blob[start:used], "little")
        if value >> total:
            raise BadImage("non-zero padding bits")
        for i in range(count):
            e = value >> (entry * i)
            bits = e & ((1 << source_bits) - 1)
            source = 0
            for bit, flag in PACKED_SOURCE_BITS[:source_bits]:
                if bits & bit:
                    source |= flag
            native += (e >> source_bits) & ((1 << native_bits) - 1)
            if native >> 32:
                raise BadImage("bounds[%d].native overflows 32 bits" % i)
            stored = (e >> (source_bits + native_bits)) & ((1 << il_bits) - 1)
            bounds.append((native, (stored - 3) & 0xFFFFFFFF, source))
    if trailing_zeros and used < len(blob) and not any(blob[used:]):
        return bounds, used
    if used != len(blob):
        raise BadImage("bounds use %d of %d bytes" % (used, len(blob)))
    return (bounds, used) if trailing_zeros else bounds


def debug_header(data, off, major):
    """(bounds offset, cbBounds, header kind) of the debug-info blob at
    file offset `off`."""
    n = Nibbles(data, off, len(data))
    first = n.u32()
    if major >= 17 and first == 0:
        sizes = [n.u32() for _ in range(6)]
        return off + n.bytes_used(), sizes[0], "fat"
    n.u32()  # cbVars
    return off + n.bytes_used(), first, "slim"


# --- code length per architecture ---

def gc_unsigned(data, pos):
    """gcdecoder.cpp's unsigned: 7-bit groups, most significant first,
    bit 7 = more (x86 GC info and x86 unwind data start with one)."""
    value = 0
    for _ in range(5):
        b = data[pos]
        pos += 1
        value = value << 7 | (b & 0x7F)
        if not b & 0x80:
            return value
    raise BadImage("x86 GC-info unsigned over 5 bytes")


class R2R:
    def __init__(self, data):
        img = self.image = Image(data)
        if img.machine is None:
            raise BadImage("unsupported machine 0x%04x" % img.raw_machine)
        self.composite = False
        header_rva = None
        if img.cli_rva:
            cli = img.offset(img.cli_rva)
            header_rva = struct.unpack_from("<I", data, cli + 64)[0]
        if not header_rva:
            header_rva = img.export(b"RTR_HEADER")
            self.composite = header_rva is not None
        if not header_rva:
            if not img.cli_rva:
                raise BadImage("no CLI header and no RTR_HEADER export: not a .NET image")
            raise BadImage("no ManagedNativeHeader: not a ReadyToRun image")
        h = img.offset(header_rva)
        sig, self.major, self.minor = struct.unpack_from("<IHH", data, h)
        if sig != 0x00525452:
            raise BadImage("ManagedNativeHeader signature 0x%08x is not RTR" % sig)
        if not MIN_MAJOR <= self.major <= MAX_MAJOR:
            raise BadImage("ReadyToRun version %d.%d is not supported (majors %d..%d)"
                           % (self.major, self.minor, MIN_MAJOR, MAX_MAJOR))
        self.flags, self.sections = self.core_header(h + 8)
        self.reader = NativeReader(img)
        self.form = bounds_form(self.major)
        self.owner = None
        if SECTION_OWNER_COMPOSITE_EXECUTABLE in self.sections:
            rva, size = self.sections[SECTION_OWNER_COMPOSITE_EXECUTABLE]
            off = img.offset(rva)
            self.owner = data[off:off + size].rstrip(b"\0").decode("utf-8", "replace")
        # Component assemblies (composite image): each has its own core
        # header whose sections (its MethodDef entry points above all) are
        # that assembly's; the rest is the image's.
        self.components = []
        if SECTION_COMPONENT_ASSEMBLIES in self.sections:
            rva, size = self.sections[SECTION_COMPONENT_ASSEMBLIES]
            off = img.offset(rva)
            for i in range(size // 16):
                _, _, core_rva, _ = struct.unpack_from("<IIII", data, off + 16 * i)
                self.components.append(self.core_header(img.offset(core_rva))[1])

    def core_header(self, off):
        flags, n = struct.unpack_from("<II", self.image.data, off)
        sections = {}
        for i in range(n):
            t, rva, size = struct.unpack_from("<III", self.image.data, off + 8 + 12 * i)
            sections[t] = (rva, size)
        return flags, sections

    def rf_size(self):
        return 12 if self.image.machine == MACHINE_AMD64 else 8

    def runtime_functions(self):
        """[(begin RVA, length)] of every runtime function."""
        if SECTION_RUNTIME_FUNCTIONS not in self.sections:
            return []
        rva, size = self.sections[SECTION_RUNTIME_FUNCTIONS]
        off = self.image.offset(rva)
        data = self.image.data
        machine = self.image.machine
        out = []
        for i in range(size // self.rf_size()):
            if machine == MACHINE_AMD64:
                begin, end, _ = struct.unpack_from("<III", data, off + 12 * i)
                out.append((begin, end - begin))
                continue
            begin, unwind = struct.unpack_from("<II", data, off + 8 * i)
            if machine == MACHINE_I386 and self.major >= 14:
                # Funclets (R2R 14): every runtime function's unwind data is
                # the x86 UNWIND_INFO, a u32 FunctionLength (the body's GC
                # info follows it).
                length = self.image.u32_at(self.image.offset(unwind))
            elif machine == MACHINE_I386:
                length = gc_unsigned(data, self.image.offset(unwind))
            else:
                unit = 4 if machine == MACHINE_ARM64 else 2
                if machine == MACHINE_ARMNT:
                    begin &= ~1  # the Thumb bit
                if unwind & 3:
                    length = ((unwind >> 2) & 0x7FF) * unit
                else:
                    length = (self.image.u32_at(self.image.offset(unwind)) & 0x3FFFF) * unit
            out.append((begin, length))
        return out

    def entry_id(self, rva):
        """readytoruninfo.cpp GetEntryPoint: the runtime function index of an
        entry (bit 0: fixups follow, bit 1: they are found by a lookback)."""
        value, _ = self.reader.unsigned(rva)
        return value >> 2 if value & 1 else value >> 1

    def entries(self):
        """(token, first runtime function, instantiated, component) for every
        body; component is the index in ComponentAssemblies or None."""
        out = []
        tables = [(None, self.sections)] if not self.components else list(enumerate(self.components))
        for component, sections in tables:
            if SECTION_METHODDEF_ENTRY_POINTS not in sections:
                continue
            arr = NativeArray(self.reader, sections[SECTION_METHODDEF_ENTRY_POINTS][0])
            for rid0 in range(arr.count):
                at = arr.get(rid0)
                if at is not None:
                    out.append((0x06000000 | (rid0 + 1), self.entry_id(at), False, component))
        if SECTION_INSTANCE_METHOD_ENTRY_POINTS in self.sections:
            rva = self.sections[SECTION_INSTANCE_METHOD_ENTRY_POINTS][0]
            for entry in hashtable_entries(self.reader, rva):
                off = self.image.offset(entry)
                token, after = read_instance_sig(self.image.data, off)
                out.append((token, self.entry_id(entry + (after - off)), True, None))
        return out

    def hot_cold(self, rf_count):
        """{hot entry runtime function: (first cold runtime function, count)}
        and the index of the first cold one (section 120: u32 pairs
        {cold runtime function, hot runtime function}; a method's cold
        functions run up to the next pair's, the last to the table's end)."""
        if SECTION_HOT_COLD_MAP not in self.sections:
            return {}, rf_count
        rva, size = self.sections[SECTION_HOT_COLD_MAP]
        off = self.image.offset(rva)
        pairs = [struct.unpack_from("<II", self.image.data, off + 8 * i) for i in range(size // 8)]
        out = {}
        for i, (cold, hot) in enumerate(pairs):
            nxt = pairs[i + 1][0] if i + 1 < len(pairs) else rf_count
            out[hot] = (cold, nxt - cold)
        return out, (pairs[0][0] if pairs else rf_count)

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
        cold, first_cold = self.hot_cold(len(rfs))
        starts = sorted({e[1] for e in entries} | {first_cold})
        next_start = {s: (starts[i + 1] if i + 1 < len(starts) else len(rfs)) for i, s in enumerate(starts)}
        debug = None
        if SECTION_DEBUG_INFO in self.sections:
            debug = NativeArray(self.reader, self.sections[SECTION_DEBUG_INFO][0])
        data = self.image.data
        out = []
        for token, first, inst, component in sorted(entries, key=lambda e: (e[1], e[0])):
            if first >= len(rfs):
                raise BadImage("method 0x%08x: runtime function %d of %d" % (token, first, len(rfs)))
            count = next_start[first] - first
            functions = list(range(first, first + count))
            m = {"token": "0x%08X" % token, "runtimeFunction": first, "runtimeFunctionCount": count,
                 "instantiated": inst, "form": self.form, "boundsHex": None, "bounds": None}
            if component is not None:
                m["component"] = component
            if first in cold:
                c, n = cold[first]
                m["coldRuntimeFunction"], m["coldRuntimeFunctionCount"] = c, n
                functions += range(c, c + n)
            m["codeSize"] = sum(rfs[i][1] for i in functions)
            m["code"] = [list(rfs[i]) for i in functions]  # [begin RVA, length] per runtime function
            blob = self.debug_blob(debug, first) if debug else None
            if blob:
                rva, lookback = blob
                start, cb_bounds, kind = debug_header(data, self.image.offset(rva), self.major)
                raw = data[start:start + cb_bounds]
                m["debugInfo"] = rva
                m["lookback"] = lookback
                m["header"] = kind
                m["boundsHex"] = raw.hex()
                m["bounds"] = []
                if cb_bounds:
                    m["bounds"], used = decode_bounds(raw, self.form, trailing_zeros=True)
                    if used < cb_bounds:
                        m["trailingZeros"] = cb_bounds - used
            out.append(m)
        return out


def sanity(r2r, methods):
    """Problems that would mean this reader misread the image: runtime
    functions that overlap or are out of order, a method with no code,
    a bound past its method's code."""
    problems = []
    rfs = r2r.runtime_functions()
    for i in range(1, len(rfs)):
        if rfs[i - 1][0] + rfs[i - 1][1] > rfs[i][0]:
            problems.append("runtime functions %d and %d overlap (0x%x+%d, 0x%x)" % (
                i - 1, i, rfs[i - 1][0], rfs[i - 1][1], rfs[i][0]))
    for m in methods:
        if m["codeSize"] <= 0:
            problems.append("method %s: code size %d" % (m["token"], m["codeSize"]))
        for native, _, _ in m["bounds"] or []:
            if native > m["codeSize"]:
                problems.append("method %s: bound at native 0x%x past code size %d" % (
                    m["token"], native, m["codeSize"]))
                break
    return problems


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    with open(argv[1], "rb") as f:
        data = f.read()
    try:
        r2r = R2R(data)
        methods = r2r.methods()
    except (BadImage, struct.error, IndexError, ValueError) as e:
        sys.stderr.write("%s: %s\n" % (argv[1], e))
        return 1
    if "--check" in argv:
        problems = sanity(r2r, methods)
        for p in problems[:10]:
            sys.stderr.write("%s: %s\n" % (argv[1], p))
        if problems:
            return 1
    if "--json" in argv:
        json.dump({"machine": "0x%04X" % r2r.image.raw_machine, "arch": MACHINES[r2r.image.machine],
                   "os": r2r.image.os, "major": r2r.major, "minor": r2r.minor, "form": r2r.form,
                   "composite": r2r.composite, "components": len(r2r.components),
                   "ownerComposite": r2r.owner, "methods": methods}, sys.stdout)
        sys.stdout.write("\n")
    elif "--summary" in argv:
        uses = {}
        for m in methods:
            if m["boundsHex"] is not None:
                uses[m["debugInfo"]] = uses.get(m["debugInfo"], 0) + 1
        shared = sum(1 for n in uses.values() if n > 1)
        extra = ""
        if r2r.components:
            per = [sum(1 for m in methods if m.get("component") == i) for i in range(len(r2r.components))]
            extra = ", composite of %d (MethodDefs per component: %s)" % (len(per), " ".join(map(str, per)))
        if r2r.owner:
            extra = ", component of %s" % r2r.owner
        trailing = len({m["debugInfo"] for m in methods if m.get("trailingZeros")})
        if trailing:
            extra += ", %d blobs with trailing zero bytes" % trailing
        print("%s: %s %s R2R %d.%d %s: %d methods, %d instantiated, %d with bounds, %d shared blobs%s" % (
            argv[1], r2r.image.os, MACHINES[r2r.image.machine], r2r.major, r2r.minor, r2r.form, len(methods),
            sum(m["instantiated"] for m in methods), sum(1 for m in methods if m["boundsHex"]), shared, extra))
    else:
        for m in methods:
            print("%s rf %d+%d code %d %s %s" % (m["token"], m["runtimeFunction"], m["runtimeFunctionCount"],
                                                   m["codeSize"], m["boundsHex"] or "-",
                                                   " ".join("%x:%x:%x" % b for b in (m["bounds"] or []))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
