#!/usr/bin/env python3
"""Research walk: range section map -> range sections -> code heaps -> nibble map -> code headers.
Compares with the runtime's perf map (DOTNET_PerfMapEnabled=1) when given."""
import sys, struct, json, collections
sys.path.insert(0, '/work/research')
from clrmem import *

def walk_rsm(t, d):
    rsm = d.glob('ExecutionManagerCodeRangeMapAddress')
    top = rsm + d.off('RangeSectionMap', 'TopLevelData')
    sections = {}
    stats = collections.Counter()
    def rec(level_addr, level):
        raw = t.read(level_addr, 256 * 8)
        for i, v in enumerate(struct.unpack('<256Q', raw)):
            if v == 0: continue
            if v & 1: stats['collectible_bit_level%d' % level] += 1
            p = v & ~1
            if level > 1:
                stats['level%d_entries' % level] += 1
                rec(p, level - 1)
            else:
                stats['leaf_entries'] += 1
                frag = p
                n = 0
                while frag:
                    n += 1
                    rb = u64(t, frag + d.off('RangeSectionFragment', 'RangeBegin'))
                    re_ = u64(t, frag + d.off('RangeSectionFragment', 'RangeEndOpen'))
                    rs = u64(t, frag + d.off('RangeSectionFragment', 'RangeSection'))
                    nxt = u64(t, frag + d.off('RangeSectionFragment', 'Next'))
                    if nxt & 1: stats['fragment_next_collectible_bit'] += 1
                    sections[rs] = (rb, re_)
                    frag = nxt & ~1
                stats['max_fragments_in_chunk'] = max(stats['max_fragments_in_chunk'], n)
    rec(top, 5)
    out = []
    for rs in sorted(sections, key=lambda a: sections[a][0]):
        f = {k: (u64 if k not in ('Flags',) else u32)(t, rs + d.off('RangeSection', k)) for k in
             ('RangeBegin', 'RangeEndOpen', 'NextForDelete', 'JitManager', 'Flags', 'HeapList', 'R2RModule')}
        if 'RangeList' in d.types['RangeSection']: f['RangeList'] = u64(t, rs + d.off('RangeSection', 'RangeList'))
        f['addr'] = rs
        out.append(f)
    return out, stats

def heap_nodes(t, d, first):
    nodes = []; seen = set(); p = first
    while p and p not in seen:
        seen.add(p)
        n = {k: u64(t, p + d.off('CodeHeapListNode', k)) for k in ('Next', 'StartAddress', 'EndAddress', 'MapBase', 'HeaderMap')}
        n['addr'] = p
        nodes.append(n); p = n['Next']
    return nodes

def method_starts(t, d, node, stats):
    """Walk the nibble map from StartAddress to EndAddress. DWORDs whose low nibble > 8 are relative
    pointers (constant-lookup map); others hold 8 nibbles, most significant first."""
    mb, hm = node['MapBase'], node['HeaderMap']
    first = (node['StartAddress'] - mb) >> 8
    last = (node['EndAddress'] - mb) >> 8
    raw = t.read(hm + 4 * first, 4 * (last - first + 1))
    starts = []
    for k, w in enumerate(struct.unpack('<%dI' % (last - first + 1), raw)):
        i = first + k
        if w == 0: stats['dword_empty'] += 1; continue
        if (w & 0xF) > 8:
            stats['dword_pointer'] += 1
            rel = (w & ~0xF) + (((w & 0xF) - 9) << 2)
            stats['pointer_targets'] += 0
            starts_ptr = mb + rel
            stats.setdefault('ptrs', set()).add(starts_ptr)
            continue
        stats['dword_nibbles'] += 1
        for j in range(8):
            nib = (w >> (28 - 4 * j)) & 0xF
            if nib:
                starts.append(mb + ((i * 8 + j) << 5) + ((nib - 1) << 2))
    return starts

def code_header(t, d, start):
    hdr = u64(t, start - 8)
    if hdr <= d.glob('StubCodeBlockLast'): return {'stub_kind': hdr}
    dbg_off = d.off('RealCodeHeader', 'DebugInfo') if 'DebugInfo' in d.types['RealCodeHeader'] else 0
    r = {'rch': hdr,
         'MethodDesc': u64(t, hdr + d.off('RealCodeHeader', 'MethodDesc')),
         'DebugInfo': u64(t, hdr + dbg_off),
         'GCInfo': u64(t, hdr + d.off('RealCodeHeader', 'GCInfo')),
         'NumUnwindInfos': u32(t, hdr + d.off('RealCodeHeader', 'NumUnwindInfos'))}
    ui = hdr + d.off('RealCodeHeader', 'UnwindInfos')
    r['unwind'] = [struct.unpack('<III', t.read(ui + 12 * k, 12)) for k in range(min(r['NumUnwindInfos'], 64))]
    return r

if __name__ == '__main__':
    src = sys.argv[1]
    t = CoreTarget(src) if not src.isdigit() else LiveTarget(int(src))
    lib = sys.argv[2] if len(sys.argv) > 2 and not sys.argv[2].endswith('.map') else None
    base, path, d = open_descriptor(t, lib)
    print('runtime', path, 'contracts EM', d.contracts().get('ExecutionManager'))
    secs, st = walk_rsm(t, d)
    print('rsm stats', dict(st))
    for s in secs:
        print('  RS %#x [%#x,%#x) size %#x flags %#x jitmgr %#x heaplist %#x r2rmodule %#x nextfordelete %#x%s' % (
            s['addr'], s['RangeBegin'], s['RangeEndOpen'], s['RangeEndOpen'] - s['RangeBegin'], s['Flags'], s['JitManager'], s['HeapList'], s['R2RModule'], s['NextForDelete'],
            (' rangelist %#x' % s['RangeList']) if 'RangeList' in s else ''))
    hl = [s['HeapList'] for s in secs if s['HeapList']]
    nodes = []; seen = set()
    for h in hl:
        chain = heap_nodes(t, d, h)
        print('  chain from RS heaplist %#x: %s' % (h, [hex(n['addr']) for n in chain]))
        for n in chain:
            if n['addr'] not in seen: seen.add(n['addr']); nodes.append(n)
    if 'EEJitManagerAddress' in d.j['globals']:
        head = u64(t, u64(t, d.glob('EEJitManagerAddress')) + d.off('EEJitManager', 'AllCodeHeaps'))
        print('  EEJitManager.AllCodeHeaps chain:', [hex(n['addr']) for n in heap_nodes(t, d, head)])
    print('heap nodes (union of chains from every code-heap RangeSection): %d' % len(nodes))
    for n in nodes:
        print('  HeapList %#x next %#x start %#x end %#x mapbase %#x hdrmap %#x' % (n['addr'], n['Next'], n['StartAddress'], n['EndAddress'], n['MapBase'], n['HeaderMap']))
    st2 = collections.Counter()
    allstarts = []
    for n in nodes: allstarts += method_starts(t, d, n, st2)
    ptrs = st2.pop('ptrs', set())
    print('nibble stats', dict(st2), 'distinct pointer targets', len(ptrs), 'all pointer targets are method starts:', ptrs <= set(allstarts))
    methods = {}; kinds = collections.Counter()
    for s in allstarts:
        h = code_header(t, d, s)
        if 'stub_kind' in h: kinds[h['stub_kind']] += 1; continue
        methods[s] = h
    print('code starts %d, stubs by kind %s, methods %d' % (len(allstarts), dict(kinds), len(methods)))
    json.dump({hex(k): {kk: (hex(vv) if isinstance(vv, int) else vv) for kk, vv in v.items()} for k, v in methods.items()}, open('/tmp/methods-%s.json' % os.path.basename(src), 'w'))
