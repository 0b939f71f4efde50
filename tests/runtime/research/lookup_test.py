import sys, json, struct
sys.path.insert(0, '/work/research')
from clrmem import *
from walk import walk_rsm, heap_nodes
def find_start(t, node, pc):
    mb, hm = node['MapBase'], node['HeaderMap']
    if pc < node['StartAddress'] or pc > node['EndAddress']: return None
    rel = pc - mb; idx = rel >> 5; off = ((rel & 31) >> 2) + 1   # bucket index, nibble value the pc would have
    w = u32(t, hm + 4 * (idx >> 3))
    if (w & 0xF) > 8: return mb + (w & ~0xF) + (((w & 0xF) - 9) << 2)
    # nibbles of this DWORD at or before idx, nearest first
    for j in range(idx & 7, -1, -1):
        nib = (w >> (28 - 4 * j)) & 0xF
        if nib and (j < (idx & 7) or nib <= off):
            return mb + ((((idx >> 3) << 3) + j) << 5) + ((nib - 1) << 2)
    if (idx >> 3) == 0: return None
    w = u32(t, hm + 4 * ((idx >> 3) - 1))
    if w == 0: return None
    if (w & 0xF) > 8: return mb + (w & ~0xF) + (((w & 0xF) - 9) << 2)
    for j in range(7, -1, -1):
        nib = (w >> (28 - 4 * j)) & 0xF
        if nib: return mb + (((((idx >> 3) - 1) << 3) + j) << 5) + ((nib - 1) << 2)
    return None
pid = int(sys.argv[1]); t = LiveTarget(pid); b, p, d = open_descriptor(t)
secs, _ = walk_rsm(t, d); node = heap_nodes(t, d, [s['HeapList'] for s in secs if s['HeapList']][0])[0]
meth = json.load(open('/tmp/methods-%d.json' % pid)); ok = bad = 0
for a, m in meth.items():
    s = int(a, 16); uw = m['unwind']; size = max(u[1] for u in uw) - uw[0][0]
    for pc in range(s, s + size):
        r = find_start(t, node, pc)
        if r == s: ok += 1
        else:
            bad += 1
            if bad < 5: print('miss', hex(pc), 'method', a, 'got', hex(r) if r else None)
print(pid, 'addresses inside JIT code that map back to their method start:', ok, 'wrong:', bad)
