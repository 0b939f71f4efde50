#!/usr/bin/env python3
"""Research script: read DotNetRuntimeContractDescriptor statically from a libcoreclr.so file.
Resolves the R_X86_64_RELATIVE relocations (as given by `readelf -rW`) that fill its pointers.
Usage: static_desc.py LIBCORECLR OUT_JSON OUT_POINTERS"""
import struct, sys, json, subprocess, re
path, out_json, out_ptrs = sys.argv[1:4]
data = open(path, 'rb').read()
# program headers -> vaddr to file offset
e_phoff, = struct.unpack_from('<Q', data, 0x20)
e_phentsize, e_phnum = struct.unpack_from('<HH', data, 0x36)
loads = []
for i in range(e_phnum):
    p_type, p_flags, p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_align = struct.unpack_from('<IIQQQQQQ', data, e_phoff + i*e_phentsize)
    if p_type == 1: loads.append((p_vaddr, p_offset, p_filesz, p_memsz))
def off(va):
    for v, o, fs, ms in loads:
        if v <= va < v + fs: return o + (va - v)
    raise ValueError('not in file: %x' % va)
syms = subprocess.run(['readelf', '-Ws', '--dyn-syms', path], capture_output=True, text=True).stdout
m = re.search(r'^\s*\d+: ([0-9a-f]+)\s+(\d+) OBJECT\s+GLOBAL\s+\S+\s+\S+ DotNetRuntimeContractDescriptor', syms, re.M)
sym_va, sym_size = int(m.group(1), 16), int(m.group(2))
rel = {}
for line in subprocess.run(['readelf', '-rW', path], capture_output=True, text=True).stdout.splitlines():
    f = line.split()
    if len(f) >= 4 and f[2] == 'R_X86_64_RELATIVE': rel[int(f[0], 16)] = int(f[3], 16)
    elif len(f) >= 5 and f[2] in ('R_X86_64_64', 'R_X86_64_GLOB_DAT'): rel[int(f[0], 16)] = ('sym', f[4], f[-1])
def ptr(va):
    if va in rel: return rel[va]
    return struct.unpack_from('<Q', data, off(va))[0]  # not relocated: raw value
o = off(sym_va)
magic, flags, dsize = struct.unpack_from('<QII', data, o)
dptr = ptr(sym_va + 16)
pcount, pad = struct.unpack_from('<II', data, o + 24)
pptr = ptr(sym_va + 32)
raw_d = struct.unpack_from('<Q', data, o + 16)[0]; raw_p = struct.unpack_from('<Q', data, o + 32)[0]
print('symbol va=%#x size=%d' % (sym_va, sym_size))
print('magic=%#018x (%r) flags=%#x descriptor_size=%d descriptor=%#x (raw in file %#x) pointer_data_count=%d pad=%d pointer_data=%#x (raw in file %#x)'
      % (magic, struct.pack('<Q', magic), flags, dsize, dptr, raw_d, pcount, pad, pptr, raw_p))
js = data[off(dptr): off(dptr) + dsize]
print('descriptor bytes: last byte=%r, NUL inside=%s' % (js[-1:], b'\0' in js))
text = js.rstrip(b'\0').decode()
open(out_json, 'w').write(text)
ptrs = []
for i in range(pcount):
    va = pptr + 8*i
    v = ptr(va)
    ptrs.append({'index': i, 'slot_va': hex(va), 'value': hex(v) if isinstance(v, int) else v, 'relocated': va in rel})
json.dump(ptrs, open(out_ptrs, 'w'), indent=1)
print('pointer data: %d slots, %d relocated' % (pcount, sum(p['relocated'] for p in ptrs)))
