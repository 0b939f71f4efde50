"""For each dump kind: which of the structures a reader needs are in the core file (addresses gathered from the live process)."""
import sys, json, struct, collections, glob, os
sys.path.insert(0, '/work/research')
from clrmem import *
from walk import walk_rsm, heap_nodes, method_starts, code_header
from ident import method_identity, utf16z
pid = int(sys.argv[1]); prefix = sys.argv[2]
t = LiveTarget(pid); base, path, d = open_descriptor(t)
items = collections.defaultdict(list)   # category -> list of (addr, len)
items['descriptor struct (libcoreclr .data)'].append((d.addr, 40))
items['descriptor JSON (libcoreclr .rodata)'].append((d.json_ptr, d.size))
items['pointer data array (libcoreclr .data.rel.ro)'].append((d.pdata_ptr, 8 * d.pcount))
rsm = d.glob('ExecutionManagerCodeRangeMapAddress')
items['RangeSectionMap top level (libcoreclr .bss)'].append((rsm, 256 * 8))
secs, _ = walk_rsm(t, d)
for s in secs: items['RangeSection (malloc)'].append((s['addr'], 72))
hl = [s['HeapList'] for s in secs if s['HeapList']]
nodes = heap_nodes(t, d, hl[0])
for n in nodes:
    items['HeapList node (malloc)'].append((n['addr'], 48))
    items['nibble map, used part'].append((n['HeaderMap'] + 4 * ((n['StartAddress'] - n['MapBase']) >> 8), 4 * (((n['EndAddress'] - n['StartAddress']) >> 8) + 1)))
    items['code heap bytes, used part'].append((n['StartAddress'], n['EndAddress'] - n['StartAddress']))
st = collections.Counter(); starts = []
for n in nodes: starts += method_starts(t, d, n, st)
for s in starts:
    h = code_header(t, d, s)
    if 'stub_kind' in h: continue
    items['RealCodeHeader'].append((h['rch'], 48))
    items['JIT code bytes of each method'].append((s, 1))
    if h['DebugInfo']: items['debug info blob (first 16 bytes)'].append((h['DebugInfo'], 16))
    md = h['MethodDesc']; items['MethodDesc'].append((md, 16))
    idn = method_identity(t, d, md)
    items['Module'].append((idn['module'], 256))
    p = u64(t, idn['module'] + d.off('Module', 'Path'))
    if p: items['Module path string'].append((p, 8))
    cd = u64(t, md + d.off('MethodDesc', 'CodeData'))
    if cd:
        items['MethodDescCodeData'].append((cd, 16))
        vs = u64(t, cd + d.off('MethodDescCodeData', 'VersioningState'))
        if vs:
            nodep = u64(t, vs + d.off('MethodDescVersioningState', 'NativeCodeVersionNode'))
            if nodep: items['NativeCodeVersionNode'].append((nodep, 56))
rows = []
for core in sorted(glob.glob(prefix + '*.core')):
    c = CoreTarget(core)
    row = {}
    for cat, lst in items.items():
        ok = 0
        for a, n in lst:
            try: c.read(a, n); ok += 1
            except IOError: pass
        row[cat] = '%d/%d' % (ok, len(lst))
    nload = len(c.loads); nfile = len(c.files)
    print('==', os.path.basename(core), os.path.getsize(core), 'bytes;', nload, 'PT_LOAD;', nfile, 'NT_FILE entries')
    for cat, v in row.items(): print('   %-48s %s' % (cat, v))
