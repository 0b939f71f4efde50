#!/usr/bin/env python3
"""An independent reader of ReadyToRun (R2R) images: the cross-check oracle
for gdmap's C++ reader and `gdmap il extract`.

Written from the runtime's own sources (readytorun.h, readytoruninfo.cpp,
nativeformatreader.h, debuginfostore.cpp, codeman.cpp, the cDAC's DebugInfo
contract, R2RDump's ILCompiler.Reflection.ReadyToRun, crossgen2's
InstanceEntryPointTableNode and ResumptionStubEntryPointSignature) and
from real images, deliberately without looking at gdmap's C++: a second
implementation is only worth something if it can disagree. Standard
library only.

For every precompiled method body (MethodDef entry points, section 103, per
component in a composite image, instance entry points, section 109, and
the runtime-async resumption stubs no entry point names) it gives the
token, the runtime functions (body, funclets, cold part), the code size,
and the method's bounds: their form, the raw bytes (cbBounds of them) and
their decoding.

    r2r_reference.py IMAGE [--json]      # one line per method, or JSON
    r2r_reference.py IMAGE --summary     # counts only
    r2r_reference.py IMAGE --check ...   # also fails on what would mean a
                                         # misread image (see sanity())
    r2r_reference.py IMAGE --strict ...  # refuse a major newer than 26

R2R major versions (what each means for this reader; readytorun.h keeps
the history):

    major  shipped in                     read as
    1      pre-release (2015)             refused
    2      .NET Core 2.x                  nibble bounds, slim header
    3      .NET Core 3.0, 3.1             as 2
    4      .NET 5 previews                as 2 (4.1: composite images)
    5      .NET 5, .NET 6                 as 2 (5.4: UpdateContext)
    6, 7   .NET 7 previews                as 2 (6.3: module indices of a
                                          composite image from 2)
    8      .NET 7                         as 2, hot/cold map (section 120)
    9      .NET 8                         as 2
    10     .NET 9                         as 2
    11-13  .NET 10 previews               as 2
    14-15  .NET 10 previews               x86 funclets (u32 FunctionLength)
    16     .NET 10                        packed2 bounds
    17-25  .NET 11 previews               packed3 bounds, fat debug-info
                                          header possible
    26     .NET 11.0 release              as 17; runtime async: async
                                          variants (method-signature flag
                                          0x100) and resumption stubs (the
                                          11.0.0 packs: slim headers only)
    27+    not known yet                  read as 26 with a warning on
                                          stderr; refused with --strict

Supported: x64, x86, arm64 and arm32 (Thumb-2) on any OS; single-assembly
and composite images; component stubs of a composite image (no code of
their own: 0 methods). Anything else (major 1 or below 2, another machine,
not an R2R image) is refused with a message naming what was found, never
guessed at.

Where versions differ (debug info, runtime functions):
- bounds: majors 2..15 classic nibble form ("nibble"); 16 bit-packed with
  2 source bits ("packed2": bit 0 call_instruction, bit 1 stack_empty);
  17 and later bit-packed with 3 ("packed3": bit 2 async).
- debug-info header: up to 16 nibble varints cbBounds, cbVars; from 17 a
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

Which runtime functions a body owns: its first (the entry point's) and
every following one up to the next body's first (its funclets), plus its
cold part (section 120). Bodies start at entry points and, from .NET 11's
runtime async on, at resumption stubs: a runtime function that has a
debug-info element of its own (section 105 is indexed by runtime function)
and is no entry point's first is a separately compiled IL stub (its own GC
info and bounds over its own IL). crossgen2 places it right after the async
variant it belongs to (body and funclets) and gives it no entry point: the
owner names it by a ResumptionStubEntryPoint fixup (kind 0x38: the stub's
RVA). The stub is reported as a method of its own with the owner's token
(and instantiation), "resumptionStub": true; the owner's runtime functions
stop where it starts. Two entry points may name the same first runtime
function (.NET Core 3.1 CoreLib: MethodDefs 0x06000019 and 0x06000020 at
runtime function 26): each is reported with that one body.
"""
import bisect
import json
import struct
import sys

SECTION_IMPORT_SECTIONS = 101
SECTION_RUNTIME_FUNCTIONS = 102
SECTION_METHODDEF_ENTRY_POINTS = 103
SECTION_DEBUG_INFO = 105
SECTION_INSTANCE_METHOD_ENTRY_POINTS = 109
SECTION_MANIFEST_METADATA = 112
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

# Majors known: 2..26 (18..25: helpers, vars encoding, x86 GC info v5,
# runtime async in previews; 26: .NET 11.0; all read as 17 for bounds).
# A newer major is read as the newest known, with a warning (refused with
# strict=True).
MIN_MAJOR, MAX_MAJOR = 2, 26

# READYTORUN_FIXUP_* kinds this reader looks at (a fixup signature's first
# byte; 0x80 = ModuleOverride, a module index follows).
FIXUP_MODULE_OVERRIDE = 0x80
FIXUP_RESUMPTION_STUB_ENTRY_POINT = 0x38

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
SIG_UNBOXING_STUB = 0x01
SIG_INSTANTIATING_STUB = 0x02
SIG_METHOD_INSTANTIATION = 0x04
SIG_SLOT_INSTEAD_OF_TOKEN = 0x08
SIG_MEMBER_REF_TOKEN = 0x10
SIG_CONSTRAINED = 0x20
SIG_OWNER_TYPE = 0x40
SIG_UPDATE_CONTEXT = 0x80
SIG_ASYNC_VARIANT = 0x100  # R2R 26 (.NET 11): the runtime-async variant of the method
SIG_KNOWN = 0x1FF
# The flags that make a body an instantiation (the method's own arguments,
# or a stub); so does an owner type that is a generic instantiation. An
# owner type that is not (composite images name the owner of every
# instance entry, an async variant's too) or an async variant alone is no
# instantiation.
SIG_INSTANTIATED = SIG_UNBOXING_STUB | SIG_INSTANTIATING_STUB | SIG_METHOD_INSTANTIATION

ELEMENT_TYPE_GENERICINST = 0x15
ELEMENT_TYPE_MODULE_ZAPSIG = 0x3F


def read_instance_sig(data, pos):
    """What an instance entry's signature says: {"flags", "token",
    "context" (UpdateContext's module index or None), "ownerModule" (the
    module index of a MODULE_ZAPSIG owner type, or None), "ownerGeneric"
    (the owner type is a generic instantiation)} and the file offset after
    it. UpdateContext (newer images, composite ones above
    all) puts the index of the module whose metadata the rest of the
    signature uses right after the flags."""
    flags, pos = compressed(data, pos)
    if flags & ~SIG_KNOWN:
        raise BadImage("instance entry with unknown method-signature flags 0x%x" % flags)
    sig = {"flags": flags, "context": None, "ownerModule": None, "ownerGeneric": False}
    if flags & SIG_UPDATE_CONTEXT:
        sig["context"], pos = compressed(data, pos)
    if flags & SIG_OWNER_TYPE:
        at = pos
        if data[at] == ELEMENT_TYPE_MODULE_ZAPSIG:
            sig["ownerModule"], at = compressed(data, at + 1)
        sig["ownerGeneric"] = data[at] == ELEMENT_TYPE_GENERICINST
        pos = skip_type(data, pos)
    if flags & SIG_SLOT_INSTEAD_OF_TOKEN:
        raise BadImage("instance entry by vtable slot (flags 0x%x)" % flags)
    rid, pos = compressed(data, pos)
    sig["token"] = (0x0A000000 if flags & SIG_MEMBER_REF_TOKEN else 0x06000000) | rid
    if flags & SIG_METHOD_INSTANTIATION:
        n, pos = compressed(data, pos)
        for _ in range(n):
            pos = skip_type(data, pos)
    if flags & SIG_CONSTRAINED:
        pos = skip_type(data, pos)
    return sig, pos


# --- manifest metadata (ECMA-335 II.24): the names of a composite image's
# components are the AssemblyRef rows of section 112, in order ---

# Coded indices (II.24.2.6): tag bits and the tables they select.
CODED_INDEX = {
    "TypeDefOrRef": (2, (0x02, 0x01, 0x1B)),
    "HasConstant": (2, (0x04, 0x08, 0x17)),
    "HasCustomAttribute": (5, (0x06, 0x04, 0x01, 0x02, 0x08, 0x09, 0x0A, 0x00, 0x0E, 0x17, 0x14, 0x11,
                               0x1A, 0x1B, 0x20, 0x23, 0x26, 0x27, 0x28, 0x2A, 0x2C, 0x2B)),
    "HasFieldMarshal": (1, (0x04, 0x08)),
    "HasDeclSecurity": (2, (0x02, 0x06, 0x20)),
    "MemberRefParent": (3, (0x02, 0x01, 0x1A, 0x06, 0x1B)),
    "HasSemantics": (1, (0x14, 0x17)),
    "MethodDefOrRef": (1, (0x06, 0x0A)),
    "MemberForwarded": (1, (0x04, 0x06)),
    "CustomAttributeType": (3, (0x06, 0x0A)),
    "ResolutionScope": (2, (0x00, 0x1A, 0x23, 0x01)),
}
# The columns of tables 0x00..0x23 (AssemblyRef): an int is a fixed size in
# bytes, "s"/"g"/"b" an index into #Strings/#GUID/#Blob, ("t", T) a simple
# index into table T, any other string a coded index.
def _t(table):
    return ("t", table)


TABLE_COLUMNS = [
    (2, "s", "g", "g", "g"),                                # 0x00 Module
    ("ResolutionScope", "s", "s"),                          # 0x01 TypeRef
    (4, "s", "s", "TypeDefOrRef", _t(0x04), _t(0x06)),      # 0x02 TypeDef
    (_t(0x04),),                                            # 0x03 FieldPtr
    (2, "s", "b"),                                          # 0x04 Field
    (_t(0x06),),                                            # 0x05 MethodPtr
    (4, 2, 2, "s", "b", _t(0x08)),                          # 0x06 MethodDef
    (_t(0x08),),                                            # 0x07 ParamPtr
    (2, 2, "s"),                                            # 0x08 Param
    (_t(0x02), "TypeDefOrRef"),                             # 0x09 InterfaceImpl
    ("MemberRefParent", "s", "b"),                          # 0x0A MemberRef
    (1, 1, "HasConstant", "b"),                             # 0x0B Constant
    ("HasCustomAttribute", "CustomAttributeType", "b"),     # 0x0C CustomAttribute
    ("HasFieldMarshal", "b"),                               # 0x0D FieldMarshal
    (2, "HasDeclSecurity", "b"),                            # 0x0E DeclSecurity
    (2, 4, _t(0x02)),                                       # 0x0F ClassLayout
    (4, _t(0x04)),                                          # 0x10 FieldLayout
    ("b",),                                                 # 0x11 StandAloneSig
    (_t(0x02), _t(0x14)),                                   # 0x12 EventMap
    (_t(0x14),),                                            # 0x13 EventPtr
    (2, "s", "TypeDefOrRef"),                               # 0x14 Event
    (_t(0x02), _t(0x17)),                                   # 0x15 PropertyMap
    (_t(0x17),),                                            # 0x16 PropertyPtr
    (2, "s", "b"),                                          # 0x17 Property
    (2, _t(0x06), "HasSemantics"),                          # 0x18 MethodSemantics
    (_t(0x02), "MethodDefOrRef", "MethodDefOrRef"),         # 0x19 MethodImpl
    ("s",),                                                 # 0x1A ModuleRef
    ("b",),                                                 # 0x1B TypeSpec
    (2, "MemberForwarded", "s", _t(0x1A)),                  # 0x1C ImplMap
    (4, _t(0x04)),                                          # 0x1D FieldRVA
    (4, 4),                                                 # 0x1E EncLog
    (4,),                                                   # 0x1F EncMap
    (4, 2, 2, 2, 2, 4, "b", "s", "s"),                      # 0x20 Assembly
    (4,),                                                   # 0x21 AssemblyProcessor
    (4, 4, 4),                                              # 0x22 AssemblyOS
    (2, 2, 2, 2, 4, "b", "s", "s", "b"),                    # 0x23 AssemblyRef (Name: column 6)
]
TABLE_ASSEMBLY = 0x20
TABLE_ASSEMBLY_REF = 0x23
NAME_COLUMN = {TABLE_ASSEMBLY: 7, TABLE_ASSEMBLY_REF: 6}


def assembly_ref_names(data, off, size):
    """The Name of every AssemblyRef row of the metadata at file offset off
    (size bytes), in row order."""
    return metadata_names(data, off, size, TABLE_ASSEMBLY_REF)


def metadata_names(data, off, size, table):
    """The Name column of every row of `table` (Assembly or AssemblyRef) of
    the metadata at file offset off (size bytes), in row order."""
    end = off + size
    if data[off:off + 4] != b"BSJB":
        raise BadImage("metadata at file offset 0x%x has no BSJB signature" % off)
    version_length = struct.unpack_from("<I", data, off + 12)[0]
    pos = off + 16 + version_length
    nstreams = struct.unpack_from("<H", data, pos + 2)[0]
    pos += 4
    streams = {}
    for _ in range(nstreams):
        stream_off, _ = struct.unpack_from("<II", data, pos)
        name_end = data.index(b"\0", pos + 8)
        streams[data[pos + 8:name_end]] = off + stream_off
        pos += 8 + ((name_end - (pos + 8)) // 4 + 1) * 4  # the name, NUL-padded to 4 bytes
    tables = streams.get(b"#~", streams.get(b"#-"))
    if tables is None or b"#Strings" not in streams:
        raise BadImage("metadata at file offset 0x%x without a table stream or #Strings" % off)
    heaps = data[tables + 6]
    valid = struct.unpack_from("<Q", data, tables + 8)[0]
    pos = tables + 24
    rows = [0] * 64
    for t in range(64):
        if valid >> t & 1:
            rows[t] = struct.unpack_from("<I", data, pos)[0]
            pos += 4
    if heaps & 0x20:
        pos += 4  # extra data after the row counts
    heap = {"s": 4 if heaps & 1 else 2, "g": 4 if heaps & 2 else 2, "b": 4 if heaps & 4 else 2}

    def width(c):
        if isinstance(c, int):
            return c
        if isinstance(c, tuple):
            return 2 if rows[c[1]] < 0x10000 else 4
        if c in heap:
            return heap[c]
        bits, targets = CODED_INDEX[c]
        return 2 if max(rows[t] for t in targets) < 1 << (16 - bits) else 4

    for t in range(table):
        pos += rows[t] * sum(width(c) for c in TABLE_COLUMNS[t])
    widths = [width(c) for c in TABLE_COLUMNS[table]]
    column = NAME_COLUMN[table]
    names = []
    strings = streams[b"#Strings"]
    for _ in range(rows[table]):
        at = pos + sum(widths[:column])
        index = int.from_bytes(data[at:at + widths[column]], "little")
        name_end = data.index(b"\0", strings + index)
        names.append(data[strings + index:name_end].decode("utf-8", "replace"))
        pos += sum(widths)
    if pos > end:
        raise BadImage("metadata: table 0x%x runs past its %d bytes" % (table, size))
    return names


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
    """One image. A major newer than MAX_MAJOR is read with the newest
    rules and a warning in self.warnings, or refused with strict=True."""

    def __init__(self, data, strict=False):
        self.warnings = []
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
        if self.major < MIN_MAJOR:
            raise BadImage("ReadyToRun version %d.%d is not supported (majors %d..%d; newer ones are read as %d)"
                           % (self.major, self.minor, MIN_MAJOR, MAX_MAJOR, MAX_MAJOR))
        # The major whose rules are applied (a newer one: the newest known).
        self.newer = self.major > MAX_MAJOR
        self.rules = min(self.major, MAX_MAJOR)
        if self.newer:
            what = "ReadyToRun %d.%d is newer than the newest known (%d)" % (self.major, self.minor, MAX_MAJOR)
            if strict:
                raise BadImage("%s: refused (--strict)" % what)
            self.warnings.append("%s: read as %d" % (what, MAX_MAJOR))
        self.flags, self.sections = self.core_header(h + 8)
        self.reader = NativeReader(img)
        self.form = bounds_form(self.rules)
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
        # Their names: the manifest metadata's AssemblyRef rows, parallel to
        # section 115 (row i + 1 is component i).
        self.component_names = [None] * len(self.components)
        if self.components and SECTION_MANIFEST_METADATA in self.sections:
            rva, size = self.sections[SECTION_MANIFEST_METADATA]
            names = assembly_ref_names(data, img.offset(rva), size)
            for i in range(min(len(names), len(self.components))):
                self.component_names[i] = names[i]

    def assembly_name(self):
        """The image's own assembly name (its IL metadata's Assembly row; a
        component stub's is its component's name), or None."""
        if not self.image.cli_rva:
            return None
        cli = self.image.offset(self.image.cli_rva)
        md_rva, md_size = struct.unpack_from("<II", self.image.data, cli + 8)
        names = metadata_names(self.image.data, self.image.offset(md_rva), md_size, TABLE_ASSEMBLY)
        return names[0] if names else None

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

    def fixup_cells(self, rva):
        """[(import section, cell)] of the fixup list of the entry at rva
        (GetEntryPoint: bit 0 of the entry says a list follows it; with bit
        1 the native unsigned after the entry is a lookback to a list
        written earlier). The list is nibble varints: an import section
        index, then per section a first cell index and cell deltas ending
        with 0, then a section delta, 0 ending the list."""
        value, after = self.reader.unsigned(rva)
        if not value & 1:
            return []
        at = after
        if value & 2:
            lookback, _ = self.reader.unsigned(after)
            at = after - lookback
        n = Nibbles(self.image.data, self.image.offset(at), len(self.image.data))
        cells = []
        table = n.u32()
        while True:
            cell = n.u32()
            while True:
                cells.append((table, cell))
                if len(cells) > 100000:
                    raise BadImage("fixup list at RVA 0x%x does not end" % at)
                delta = n.u32()
                if not delta:
                    break
                cell += delta
            delta = n.u32()
            if not delta:
                return cells
            table += delta

    def import_sections(self):
        """[(cells RVA, cell count, signatures RVA)] of section 101
        (READYTORUN_IMPORT_SECTION: Section {RVA, Size}, u16 Flags, u8 Type,
        u8 EntrySize, u32 Signatures, u32 AuxiliaryData)."""
        if SECTION_IMPORT_SECTIONS not in self.sections:
            return []
        rva, size = self.sections[SECTION_IMPORT_SECTIONS]
        off = self.image.offset(rva)
        out = []
        for i in range(size // 20):
            cells, cells_size, _, _, entry_size, sigs, _ = struct.unpack_from("<IIHBBII", self.image.data, off + 20 * i)
            out.append((cells, cells_size // entry_size if entry_size else 0, sigs))
        return out

    def resumption_stub_fixups(self, rva, sections):
        """The code RVAs that the entry at rva's ResumptionStubEntryPoint
        fixups name (kind 0x38, then the stub's RVA as a u32)."""
        out = []
        for table, cell in self.fixup_cells(rva):
            if table >= len(sections) or cell >= sections[table][1] or not sections[table][2]:
                raise BadImage("entry at RVA 0x%x: fixup cell %d of import section %d does not exist" % (rva, cell, table))
            off = self.image.offset(self.reader.u32(sections[table][2] + 4 * cell))
            kind, pos = self.image.data[off], off + 1
            if kind & FIXUP_MODULE_OVERRIDE:
                pos = compressed(self.image.data, pos)[1]  # the module index
                kind &= ~FIXUP_MODULE_OVERRIDE
            if kind == FIXUP_RESUMPTION_STUB_ENTRY_POINT:
                target = self.image.u32_at(pos)
                out.append(target & ~1 if self.image.machine == MACHINE_ARMNT else target)
        return out

    def component_of_module(self, index):
        """The component a module index of a composite image's signature
        names, or None: index 0 is the context, then the manifest
        metadata's AssemblyRef rows (a composite image has no IL
        AssemblyRefs of its own), from 2 in R2R 6.3 and later (1 is the
        manifest metadata itself), from 1 before."""
        if index is None:
            return None
        component = index - (2 if (self.major, self.minor) >= (6, 3) else 1)
        return component if 0 <= component < len(self.components) else None

    def entries(self):
        """Every entry point: {"token", "first" (runtime function), "instantiated",
        "asyncVariant", "component" (index in ComponentAssemblies or None),
        "sigFlags" (instance entries; None for MethodDefs), "at" (the RVA of
        the entry's native unsigned)}. An instance entry of a composite
        image belongs to the component of its owner type's module
        (MODULE_ZAPSIG), else of its UpdateContext module."""
        out = []
        tables = [(None, self.sections)] if not self.components else list(enumerate(self.components))
        for component, sections in tables:
            if SECTION_METHODDEF_ENTRY_POINTS not in sections:
                continue
            arr = NativeArray(self.reader, sections[SECTION_METHODDEF_ENTRY_POINTS][0])
            for rid0 in range(arr.count):
                at = arr.get(rid0)
                if at is not None:
                    out.append({"token": 0x06000000 | (rid0 + 1), "first": self.entry_id(at), "instantiated": False,
                                "asyncVariant": False, "component": component, "sigFlags": None, "at": at})
        if SECTION_INSTANCE_METHOD_ENTRY_POINTS in self.sections:
            rva = self.sections[SECTION_INSTANCE_METHOD_ENTRY_POINTS][0]
            for entry in hashtable_entries(self.reader, rva):
                off = self.image.offset(entry)
                sig, after = read_instance_sig(self.image.data, off)
                at = entry + (after - off)
                e = {"token": sig["token"], "first": self.entry_id(at),
                     "instantiated": bool(sig["flags"] & SIG_INSTANTIATED or sig["ownerGeneric"]),
                     "asyncVariant": bool(sig["flags"] & SIG_ASYNC_VARIANT), "component": None,
                     "sigFlags": sig["flags"], "at": at}
                if self.components:
                    owner = self.component_of_module(sig["ownerModule"])
                    context = self.component_of_module(sig["context"])
                    e["component"] = owner if owner is not None else context
                    e["modules"] = (sig["ownerModule"], sig["context"])
                out.append(e)
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
        """Every body, in runtime-function order, as a dict: "token" (hex
        text), "runtimeFunction" (the first), "runtimeFunctionCount" (hot
        ones), "instantiated", "asyncVariant", "resumptionStub" (booleans;
        a stub has its owner's token, instantiated and asyncVariant),
        "form", "codeSize", "code" ([begin RVA, length] per runtime
        function, cold ones last), "boundsHex" and "bounds" (None without
        debug info); where they apply "sigFlags" (instance entries, and a
        stub its owner's), "ownerRuntimeFunction" (stubs), "component" and
        "componentName" (composite images), "coldRuntimeFunction" and
        "coldRuntimeFunctionCount", "debugInfo" (the blob's RVA),
        "lookback", "header" ("slim" or "fat"), "trailingZeros". Also keeps
        what sanity() checks in self.layout."""
        rfs = self.runtime_functions()
        entries = self.entries()
        cold, first_cold = self.hot_cold(len(rfs))
        debug = None
        if SECTION_DEBUG_INFO in self.sections:
            debug = NativeArray(self.reader, self.sections[SECTION_DEBUG_INFO][0])
        by_start = {}
        for e in entries:
            if e["first"] >= len(rfs):
                raise BadImage("method 0x%08x: runtime function %d of %d" % (e["token"], e["first"], len(rfs)))
            by_start.setdefault(e["first"], []).append(e)
        entry_starts = sorted(by_start)
        # Resumption stubs: a hot runtime function with a debug-info element
        # of its own that no entry point starts at. Each belongs to the
        # entry whose body precedes it.
        bodies = list(entries)
        stubs = []
        if debug:
            for i in range(min(first_cold, debug.count)):
                if i not in by_start and debug.get(i) is not None:
                    stubs.append(i)
        for i in stubs:
            k = bisect.bisect_left(entry_starts, i) - 1
            if k < 0:
                raise BadImage("runtime function %d has debug info of its own, but no body precedes it" % i)
            for owner in by_start[entry_starts[k]]:
                stub = dict(owner, first=i, resumptionStub=True, owner=owner["first"])
                bodies.append(stub)
        starts = sorted(set(entry_starts) | set(stubs) | {first_cold})
        next_start = {s: (starts[i + 1] if i + 1 < len(starts) else len(rfs)) for i, s in enumerate(starts)}
        self.layout = {"rfs": rfs, "entries": entries, "stubs": stubs, "cold": cold, "firstCold": first_cold,
                       "debug": debug, "nextStart": next_start}
        data = self.image.data
        out = []
        for b in sorted(bodies, key=lambda b: (b["first"], b.get("resumptionStub", False),
                                                -1 if b["component"] is None else b["component"], b["token"])):
            first = b["first"]
            count = next_start[first] - first
            functions = list(range(first, first + count))
            m = {"token": "0x%08X" % b["token"], "runtimeFunction": first, "runtimeFunctionCount": count,
                 "instantiated": b["instantiated"], "asyncVariant": b["asyncVariant"],
                 "resumptionStub": b.get("resumptionStub", False),
                 "form": self.form, "boundsHex": None, "bounds": None}
            if b["sigFlags"] is not None:
                m["sigFlags"] = b["sigFlags"]
            if "owner" in b:
                m["ownerRuntimeFunction"] = b["owner"]
            if self.components:
                m["component"] = b["component"]
                if b["component"] is not None:
                    m["componentName"] = self.component_names[b["component"]]
            if first in cold:
                c, n = cold[first]
                m["coldRuntimeFunction"], m["coldRuntimeFunctionCount"] = c, n
                functions += range(c, c + n)
            m["codeSize"] = sum(rfs[i][1] for i in functions)
            m["code"] = [list(rfs[i]) for i in functions]  # [begin RVA, length] per runtime function
            blob = self.debug_blob(debug, first) if debug else None
            if blob:
                rva, lookback = blob
                start, cb_bounds, kind = debug_header(data, self.image.offset(rva), self.rules)
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
    """Problems that would mean this reader misread the image (or that the
    image breaks a rule it relies on): runtime functions that overlap or
    are out of order; a method with no code; a bound past its method's
    code; a runtime function claimed by two bodies that do not start at
    the same one, or by none; a cold part of no body; debug info of its
    own on a cold runtime function or past the runtime functions; a
    resumption stub that does not follow an async variant, or that its
    owner's ResumptionStubEntryPoint fixups do not name (and such a fixup
    naming anything but a stub of that owner); an instance entry of a
    composite image in no component, or whose owner type's module and
    UpdateContext module differ."""
    problems = []
    layout = r2r.layout
    rfs = layout["rfs"]
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
    # Which body claims each runtime function: two bodies may claim one only
    # when they start at the same one (aliases).
    claimed = {}
    for m in methods:
        first = m["runtimeFunction"]
        functions = list(range(first, first + m["runtimeFunctionCount"]))
        if "coldRuntimeFunction" in m:
            functions += range(m["coldRuntimeFunction"], m["coldRuntimeFunction"] + m["coldRuntimeFunctionCount"])
        for i in functions:
            if claimed.setdefault(i, first) != first:
                problems.append("runtime function %d is claimed by the bodies at %d and %d" % (i, claimed[i], first))
    unclaimed = [i for i in range(len(rfs)) if i not in claimed]
    if unclaimed and methods:
        problems.append("%d runtime functions belong to no body (first: %d)" % (len(unclaimed), unclaimed[0]))
    starts = {m["runtimeFunction"] for m in methods}
    for hot, (c, n) in layout["cold"].items():
        if hot not in starts:
            problems.append("the cold part at runtime function %d (%d of them) belongs to runtime function %d, "
                            "which starts no body" % (c, n, hot))
        if n <= 0:
            problems.append("the cold part of runtime function %d is empty" % hot)
    debug = layout["debug"]
    if debug:
        for i in list(range(layout["firstCold"], len(rfs))) + list(range(len(rfs), debug.count)):
            if i not in starts and debug.get(i) is not None:
                problems.append("runtime function %d%s has debug info of its own" % (
                    i, "" if i < len(rfs) else " (past the %d runtime functions)" % len(rfs)))
    # Resumption stubs against the owners' fixups.
    sections = r2r.import_sections()
    stubs = {m["runtimeFunction"]: m for m in methods if m["resumptionStub"]}
    begin = {rfs[i][0]: i for i in stubs}
    owners = {m["ownerRuntimeFunction"] for m in stubs.values()}
    named = {}
    for e in layout["entries"]:
        if not e["asyncVariant"] and e["first"] not in owners:
            continue
        for target in r2r.resumption_stub_fixups(e["at"], sections):
            i = begin.get(target)
            if i is None:
                problems.append("method 0x%08x (runtime function %d): its ResumptionStubEntryPoint fixup names RVA "
                                "0x%x, where no resumption stub starts" % (e["token"], e["first"], target))
            elif stubs[i]["ownerRuntimeFunction"] != e["first"]:
                problems.append("method 0x%08x (runtime function %d): its ResumptionStubEntryPoint fixup names the stub "
                                "at %d, which follows runtime function %d" % (e["token"], e["first"], i,
                                                                              stubs[i]["ownerRuntimeFunction"]))
            else:
                named[i] = named.get(i, 0) + 1
    for i, m in sorted(stubs.items()):
        if not m["asyncVariant"]:
            problems.append("resumption stub at runtime function %d follows method %s (runtime function %d), "
                            "not an async variant" % (i, m["token"], m["ownerRuntimeFunction"]))
        if named.get(i, 0) == 0:
            problems.append("resumption stub at runtime function %d: no ResumptionStubEntryPoint fixup of method %s "
                            "names it" % (i, m["token"]))
    if r2r.components:
        for e in layout["entries"]:
            if e["sigFlags"] is None:
                continue
            owner, context = (r2r.component_of_module(x) for x in e["modules"])
            if e["component"] is None:
                problems.append("instance entry of method 0x%08x (runtime function %d): module indices %s name no "
                                "component" % (e["token"], e["first"], e["modules"]))
            elif owner is not None and context is not None and owner != context:
                problems.append("instance entry of method 0x%08x: owner type in component %d, context %d" % (
                    e["token"], owner, context))
    return problems


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    with open(argv[1], "rb") as f:
        data = f.read()
    try:
        r2r = R2R(data, strict="--strict" in argv)
        for w in r2r.warnings:
            sys.stderr.write("%s: warning: %s\n" % (argv[1], w))
        methods = r2r.methods()
    except (BadImage, struct.error, IndexError, ValueError) as e:
        sys.stderr.write("%s: %s\n" % (argv[1], e))
        return 1
    if "--check" in argv:
        try:
            problems = sanity(r2r, methods)
        except (BadImage, struct.error, IndexError, ValueError) as e:
            problems = ["checking: %s" % e]
        for p in problems[:10]:
            sys.stderr.write("%s: %s\n" % (argv[1], p))
        if len(problems) > 10:
            sys.stderr.write("%s: ... %d problems in all\n" % (argv[1], len(problems)))
        if problems:
            return 1
    if "--json" in argv:
        json.dump({"machine": "0x%04X" % r2r.image.raw_machine, "arch": MACHINES[r2r.image.machine],
                   "os": r2r.image.os, "major": r2r.major, "minor": r2r.minor, "form": r2r.form,
                   "readAs": r2r.rules, "newerVersion": r2r.newer,
                   "composite": r2r.composite, "components": len(r2r.components),
                   "componentNames": r2r.component_names,
                   "ownerComposite": r2r.owner, "methods": methods}, sys.stdout)
        sys.stdout.write("\n")
    elif "--summary" in argv:
        uses = {}
        for m in methods:
            if m["boundsHex"] is not None:
                uses[m["debugInfo"]] = uses.get(m["debugInfo"], 0) + 1
        shared = sum(1 for n in uses.values() if n > 1)
        starts = {}
        for m in methods:
            starts[m["runtimeFunction"]] = starts.get(m["runtimeFunction"], 0) + 1
        extra = ""
        async_variants = sum(1 for m in methods if m["asyncVariant"] and not m["resumptionStub"])
        stubs = sum(1 for m in methods if m["resumptionStub"])
        if async_variants or stubs:
            extra += ", %d async variants, %d resumption stubs" % (async_variants, stubs)
        aliases = sum(n for n in starts.values() if n > 1)
        if aliases:
            extra += ", %d methods share a body (%d bodies)" % (aliases, sum(1 for n in starts.values() if n > 1))
        if r2r.components:
            n = len(r2r.components)
            defs = [sum(1 for m in methods if m.get("component") == i and "sigFlags" not in m and not m["resumptionStub"])
                    for i in range(n)]
            bodies = [sum(1 for m in methods if m.get("component") == i and m["boundsHex"]) for i in range(n)]
            extra += ", composite of %d (MethodDefs per component: %s; with bounds: %s)" % (
                n, " ".join(map(str, defs)),
                ", ".join("%s %d" % (r2r.component_names[i], bodies[i]) for i in range(n)))
        if r2r.owner:
            extra += ", component of %s" % r2r.owner
        trailing = len({m["debugInfo"] for m in methods if m.get("trailingZeros")})
        if trailing:
            extra += ", %d blobs with trailing zero bytes" % trailing
        if r2r.newer:
            extra += ", read as R2R %d" % r2r.rules
        print("%s: %s %s R2R %d.%d %s: %d methods, %d instantiated, %d with bounds, %d shared blobs%s" % (
            argv[1], r2r.image.os, MACHINES[r2r.image.machine], r2r.major, r2r.minor, r2r.form, len(methods),
            sum(m["instantiated"] for m in methods), sum(1 for m in methods if m["boundsHex"]), shared, extra))
    else:
        for m in methods:
            kind = ""
            if m["resumptionStub"]:
                kind = " resumption-stub"
            elif m["asyncVariant"]:
                kind = " async"
            print("%s%s rf %d+%d code %d %s %s" % (m["token"], kind, m["runtimeFunction"], m["runtimeFunctionCount"],
                                                     m["codeSize"], m["boundsHex"] or "-",
                                                     " ".join("%x:%x:%x" % b for b in (m["bounds"] or []))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
