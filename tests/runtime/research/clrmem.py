#!/usr/bin/env python3
"""Research helper (scratch, not project code): read a .NET runtime's contract descriptor and
JIT code structures from a live process (/proc/PID/mem) or an ELF core file."""
import struct, json, re, subprocess, os, sys

class LiveTarget:
    def __init__(self, pid):
        self.pid = pid
        self.f = open(f'/proc/{pid}/mem', 'rb', buffering=0)
        self.maps = []
        for line in open(f'/proc/{pid}/maps'):
            p = line.split(None, 5)
            lo, hi = (int(x, 16) for x in p[0].split('-'))
            self.maps.append((lo, hi, p[1], int(p[2], 16), p[5].strip() if len(p) > 5 else ''))
    def read(self, addr, n):
        self.f.seek(addr)
        b = self.f.read(n)
        if len(b) != n: raise IOError('short read at %#x' % addr)
        return b
    def module_base(self, suffix):
        for lo, hi, perm, off, path in self.maps:
            if path.endswith(suffix) and off == 0: return lo, path
        raise KeyError(suffix)

class CoreTarget:
    """ELF core: PT_LOAD segments; NT_FILE note gives file-backed mappings."""
    def __init__(self, path):
        self.data = open(path, 'rb').read()
        d = self.data
        assert d[:4] == b'\x7fELF' and d[4] == 2
        e_type, = struct.unpack_from('<H', d, 16)
        assert e_type == 4, 'not ET_CORE'
        e_phoff, = struct.unpack_from('<Q', d, 0x20)
        e_phentsize, e_phnum = struct.unpack_from('<HH', d, 0x36)
        self.loads = []; self.notes = []
        for i in range(e_phnum):
            p_type, p_flags, p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_align = struct.unpack_from('<IIQQQQQQ', d, e_phoff + i * e_phentsize)
            if p_type == 1: self.loads.append((p_vaddr, p_memsz, p_offset, p_filesz, p_flags))
            elif p_type == 4: self.notes.append((p_offset, p_filesz))
        self.loads.sort()
        self.files = []
        for off, sz in self.notes:
            pos = off
            while pos < off + sz:
                namesz, descsz, ntype = struct.unpack_from('<III', d, pos)
                name = d[pos + 12: pos + 12 + namesz]
                desc_off = pos + 12 + ((namesz + 3) & ~3)
                if ntype == 0x46494c45:  # NT_FILE
                    count, page = struct.unpack_from('<QQ', d, desc_off)
                    ents = [struct.unpack_from('<QQQ', d, desc_off + 16 + 24 * k) for k in range(count)]
                    names = d[desc_off + 16 + 24 * count: desc_off + descsz].split(b'\0')
                    for (s, e, pgoff), nm in zip(ents, names):
                        self.files.append((s, e, pgoff * page, nm.decode()))
                pos = desc_off + ((descsz + 3) & ~3)
    def read(self, addr, n):
        import bisect
        out = b''
        while n > 0:
            i = bisect.bisect_right(self.loads, (addr, 1 << 64)) - 1
            if i < 0: raise IOError('not in core: %#x' % addr)
            va, memsz, off, filesz, fl = self.loads[i]
            if not (va <= addr < va + memsz): raise IOError('not in core: %#x' % addr)
            k = min(n, va + memsz - addr)
            rel = addr - va
            if rel + k > filesz: raise IOError('in a segment but not in the file: %#x' % addr)
            out += self.data[off + rel: off + rel + k]
            addr += k; n -= k
        return out
    def module_base(self, suffix):
        for s, e, off, nm in self.files:
            if nm.endswith(suffix) and off == 0: return s, nm
        raise KeyError(suffix)

def export_offset(sofile, name='DotNetRuntimeContractDescriptor'):
    out = subprocess.run(['readelf', '-Ws', '--dyn-syms', sofile], capture_output=True, text=True).stdout
    m = re.search(r'^\s*\d+: ([0-9a-f]+)\s+\d+ OBJECT\s+GLOBAL\s+\S+\s+\S+ ' + name, out, re.M)
    return int(m.group(1), 16)

class Descriptor:
    def __init__(self, t, addr):
        self.t = t; self.addr = addr
        raw = t.read(addr, 40)
        self.magic, self.flags, self.size, self.json_ptr, self.pcount, self.pad, self.pdata_ptr = struct.unpack('<QIIQIIQ', raw)
        assert self.magic == 0x0043414443434e44, hex(self.magic)
        self.json_text = t.read(self.json_ptr, self.size).decode()
        self.j = json.loads(self.json_text)
        self.pdata = list(struct.unpack('<%dQ' % self.pcount, t.read(self.pdata_ptr, 8 * self.pcount)))
        self.types = self.j['types']
    def off(self, ty, field):
        v = self.types[ty][field]
        return v[0] if isinstance(v, list) else v
    def size_of(self, ty): return self.types[ty].get('!')
    def glob(self, name):
        v = self.j['globals'][name]
        if isinstance(v, list) and len(v) == 2 and isinstance(v[1], str): v = v[0]
        if isinstance(v, list): return self.pdata[v[0]]
        if isinstance(v, str):
            try: return int(v, 0)
            except ValueError: return v
        return v
    def contracts(self): return self.j['contracts']

def u8(t, a): return t.read(a, 1)[0]
def u16(t, a): return struct.unpack('<H', t.read(a, 2))[0]
def u32(t, a): return struct.unpack('<I', t.read(a, 4))[0]
def u64(t, a): return struct.unpack('<Q', t.read(a, 8))[0]

def open_descriptor(t, libpath=None):
    base, path = t.module_base('libcoreclr.so')
    so = libpath or path
    return base, path, Descriptor(t, base + export_offset(so))

class FileBackedDescriptor(Descriptor):
    """The descriptor taken from the on-disk libcoreclr.so (relocations applied with the load base),
    for cores that lack its pages (.NET 10 minidumps and with-heap dumps)."""
    def __init__(self, t, base, sofile):
        import subprocess as sp
        sys.path.insert(0, '/work/research')
        data = open(sofile, 'rb').read()
        e_phoff, = struct.unpack_from('<Q', data, 0x20); e_phentsize, e_phnum = struct.unpack_from('<HH', data, 0x36)
        loads = []
        for i in range(e_phnum):
            p = struct.unpack_from('<IIQQQQQQ', data, e_phoff + i * e_phentsize)
            if p[0] == 1: loads.append((p[3], p[2], p[5]))
        def off(va):
            for v, o, fs in loads:
                if v <= va < v + fs: return o + va - v
            raise ValueError(hex(va))
        rel = {}
        for line in sp.run(['readelf', '-rW', sofile], capture_output=True, text=True).stdout.splitlines():
            f = line.split()
            if len(f) >= 4 and f[2] == 'R_X86_64_RELATIVE': rel[int(f[0], 16)] = int(f[3], 16)
        sym = export_offset(sofile)
        self.t = t; self.addr = base + sym
        self.magic, self.flags, self.size, _, self.pcount, self.pad, _ = struct.unpack_from('<QIIQIIQ', data, off(sym))
        json_va = rel[sym + 16]; pd_va = rel[sym + 32]
        self.json_ptr = base + json_va; self.pdata_ptr = base + pd_va
        self.json_text = data[off(json_va): off(json_va) + self.size].decode()
        self.j = json.loads(self.json_text); self.types = self.j['types']
        self.pdata = [(base + rel[pd_va + 8 * i]) if (pd_va + 8 * i) in rel else struct.unpack_from('<Q', data, off(pd_va + 8 * i))[0] for i in range(self.pcount)]

def open_descriptor(t, libpath=None):
    base, path = t.module_base('libcoreclr.so')
    so = libpath or path
    try:
        return base, path, Descriptor(t, base + export_offset(so))
    except IOError:
        print('(descriptor not in the target: read from %s with load base %#x)' % (so, base))
        return base, path, FileBackedDescriptor(t, base, so)
