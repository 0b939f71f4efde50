import sys, json, collections
sys.path.insert(0, '/work/research')
from clrmem import *
from ident import method_identity
def nodes_of(t, d, md):
    cd = u64(t, md + d.off('MethodDesc', 'CodeData'))
    if not cd: return None, []
    vs = u64(t, cd + d.off('MethodDescCodeData', 'VersioningState'))
    extra = {}
    if 'OptimizationTier' in d.types['MethodDescCodeData']:
        extra['md_tier'] = u32(t, cd + d.off('MethodDescCodeData', 'OptimizationTier'))
    if not vs: return extra, []
    extra['vs_flags'] = u8(t, vs + d.off('MethodDescVersioningState', 'Flags'))
    out = []; p = u64(t, vs + d.off('MethodDescVersioningState', 'NativeCodeVersionNode')); seen = set()
    while p and p not in seen:
        seen.add(p)
        n = {'node': p, 'NativeCode': u64(t, p + d.off('NativeCodeVersionNode', 'NativeCode')),
             'MethodDesc': u64(t, p + d.off('NativeCodeVersionNode', 'MethodDesc')),
             'ILVersionId': u64(t, p + d.off('NativeCodeVersionNode', 'ILVersionId')),
             'Flags': u32(t, p + d.off('NativeCodeVersionNode', 'Flags')),
             'tier@36': u32(t, p + 36)}
        out.append(n); p = u64(t, p + d.off('NativeCodeVersionNode', 'Next'))
    return extra, out
src = sys.argv[1]; t = CoreTarget(src) if not src.isdigit() else LiveTarget(int(src))
base, path, d = open_descriptor(t, sys.argv[3] if len(sys.argv) > 3 else None)
meth = json.load(open(sys.argv[2])); names = {}
if len(sys.argv) > 4:
    for line in open(sys.argv[4]):
        a, s, nm = line.rstrip().split(' ', 2); names[int(a, 16)] = nm
st = collections.Counter()
for a, m in sorted(meth.items()):
    md = int(m['MethodDesc'], 16); start = int(a, 16)
    extra, nodes = nodes_of(t, d, md)
    hit = [n for n in nodes if n['NativeCode'] == start]
    st['explicit' if hit else 'not_in_node_list'] += 1
    nm = names.get(start, '?')
    if 'sleeper' in nm or len(sys.argv) > 5:
        print(a, nm[-60:], 'md', hex(md), extra, 'nodes:', [(hex(n['NativeCode']), 'flags', n['Flags'], 'ilv', n['ILVersionId'], 'tier@36', n['tier@36']) for n in nodes])
print(dict(st))
