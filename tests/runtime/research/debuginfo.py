"""Research decoder for in-memory JIT debug info (scratch)."""
import sys, json, struct, collections
sys.path.insert(0, '/work/research')
from clrmem import *

class Nib:
    def __init__(self, buf): self.b = buf; self.pos = 0  # pos in nibbles
    def nib(self):
        byte = self.b[self.pos >> 1]; v = (byte >> 4) if (self.pos & 1) else (byte & 0xF); self.pos += 1; return v
    def u32(self):
        v = 0
        for _ in range(12):
            n = self.nib(); v = (v << 3) | (n & 7)
            if not (n & 8): return v
        raise ValueError('varint too long')
    def next_byte(self): return (self.pos + 1) >> 1

def bounds(buf, srcbits):
    r = Nib(buf); count = r.u32(); nb = r.u32() + 1; ib = r.u32() + 1
    pos = r.next_byte(); per = srcbits + nb + ib
    acc = 0; have = 0; nat = 0; out = []
    while len(out) < count:
        acc |= buf[pos] << have; pos += 1; have += 8
        while have >= per and len(out) < count:
            e = acc & ((1 << per) - 1); acc >>= per; have -= per
            src = e & ((1 << srcbits) - 1); e >>= srcbits
            nat += e & ((1 << nb) - 1); e >>= nb
            il = (e - 3) & 0xFFFFFFFF
            out.append((nat, il, src))
    return out, pos

def decode_v1(t, p, pp_base=40, pp_count_off=16):
    """.NET 10 form: flag byte, [PatchpointInfo], [rich: u32 size + bytes], nibble header, bounds (2 source bits)."""
    info = {}
    flag = u8(t, p); p += 1; info['flag'] = flag
    if flag & 1:
        n = u32(t, p + pp_count_off); info['patchpoint_locals'] = n; p += pp_base + 4 * n
    if flag & 2:
        sz = u32(t, p); info['rich'] = sz; p += 4 + sz
    hdr = t.read(p, 24); r = Nib(hdr)
    cb = r.u32(); cbu = 0
    if cb == 0xFFFFFFFF: cb = r.u32(); cbu = r.u32(); info['instrumented'] = True
    cbv = r.u32(); b0 = p + r.next_byte()
    info.update(cbBounds=cb, cbVars=cbv, cbUninstrumented=cbu, header_bytes=r.next_byte())
    if cb:
        bb = t.read(b0, cb); info['bounds'], used = bounds(bb, 2); info['bounds_bytes_used'] = used
    else: info['bounds'] = []
    return info

def decode_v2(t, p):
    """.NET 11 form: no flag byte; nibble header, compact (cbBounds, cbVars) or fat (0 then six sizes); bounds with 3 source bits."""
    info = {}
    hdr = t.read(p, 48); r = Nib(hdr)
    first = r.u32()
    if first == 0:
        sizes = [r.u32() for _ in range(6)]; info['fat'] = True
    else:
        sizes = [first, r.u32(), 0, 0, 0, 0]; info['fat'] = False
    names = ['cbBounds', 'cbVars', 'cbUninstrumented', 'cbPatchpoint', 'cbRich', 'cbAsync']
    info.update(dict(zip(names, sizes))); info['header_bytes'] = r.next_byte()
    b0 = p + r.next_byte()
    if sizes[0]:
        bb = t.read(b0, sizes[0]); info['bounds'], used = bounds(bb, 3); info['bounds_bytes_used'] = used
    else: info['bounds'] = []
    if sizes[3]:
        pp = b0 + sizes[0] + sizes[1] + sizes[2]; info['patchpoint_locals'] = u32(t, pp + 16)
    return info

if __name__ == '__main__':
    src = sys.argv[1]; mj = sys.argv[2]; form = sys.argv[3]
    t = CoreTarget(src) if not src.isdigit() else LiveTarget(int(src))
    meth = json.load(open(mj))
    st = collections.Counter(); out = {}
    for a, m in meth.items():
        di = int(m['DebugInfo'], 16)
        if di == 0: st['no_debuginfo'] += 1; continue
        size = sum(0 for _ in ())
        uw = m['unwind']; code_size = max(u[1] for u in uw) - uw[0][0]
        try:
            info = decode_v1(t, di) if form == '1' else decode_v2(t, di)
        except Exception as e:
            st['decode_error'] += 1; print('ERR', a, e); continue
        ok = all(n <= code_size for n, il, s in info['bounds'])
        ok = ok and info.get('bounds_bytes_used', 0) <= info['cbBounds']
        ok = ok and all(il < 0x10000 or il in (0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFD) for n, il, s in info['bounds'])
        st['ok' if ok else 'implausible'] += 1
        if info.get('fat'): st['fat'] += 1
        if info.get('flag'): st['flag_%d' % info['flag']] += 1
        if info.get('patchpoint_locals') is not None: st['with_patchpoint'] += 1
        st['bounds_total'] += len(info['bounds'])
        st['trailing_bytes_blobs'] += info.get('bounds_bytes_used', 0) < info['cbBounds']
        out[a] = info
    print(dict(st))
    json.dump(out, open(mj.replace('methods-', 'bounds-'), 'w'))
