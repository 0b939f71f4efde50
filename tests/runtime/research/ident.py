import sys, json, struct
sys.path.insert(0, '/work/research')
from clrmem import *
def utf16z(t, a, maxlen=1024):
    b = t.read(a, 2 * maxlen)
    s = b.decode('utf-16-le', 'replace'); return s.split('\0', 1)[0]
def method_identity(t, d, md):
    r = {}
    flags3 = u16(t, md + d.off('MethodDesc', 'Flags3AndTokenRemainder'))
    chunk_index = u8(t, md + d.off('MethodDesc', 'ChunkIndex'))
    flags = u16(t, md + d.off('MethodDesc', 'Flags'))
    chunk = md - chunk_index * d.glob('MethodDescAlignment') - d.size_of('MethodDescChunk')
    mt = u64(t, chunk + d.off('MethodDescChunk', 'MethodTable'))
    ftr = u16(t, chunk + d.off('MethodDescChunk', 'FlagsAndTokenRange'))
    rb = d.glob('MethodDescTokenRemainderBitCount')
    rem_mask = 0xFFFFFF >> (24 - rb); range_mask = 0xFFFFFF >> rb
    r['token'] = 0x06000000 | ((ftr & range_mask) << rb) | (flags3 & rem_mask)
    r['classification'] = flags & 7
    module = u64(t, mt + d.off('MethodTable', 'Module'))
    r['module'] = module
    p = u64(t, module + d.off('Module', 'Path'))
    r['path'] = utf16z(t, p) if p else None
    r['base'] = u64(t, module + d.off('Module', 'Base'))
    return r
if __name__ == '__main__':
    src = sys.argv[1]
    t = CoreTarget(src) if not src.isdigit() else LiveTarget(int(src))
    base, path, d = open_descriptor(t, sys.argv[3] if len(sys.argv) > 3 else None)
    meth = json.load(open(sys.argv[2]))
    for a, m in list(meth.items()):
        idn = method_identity(t, d, int(m['MethodDesc'], 16))
        print(a, m['MethodDesc'], hex(idn['token']), 'class', idn['classification'], idn['path'], hex(idn['base']))
