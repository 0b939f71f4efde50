import sys, json
meth = json.load(open(sys.argv[1])); pm = sys.argv[2]; rangebegin = None
perf = {}
for line in open(pm):
    parts = line.rstrip('\n').split(' ', 2)
    if len(parts) < 3: continue
    a, s, name = parts
    if name.startswith('stub '): continue
    perf[int(a, 16)] = (int(s, 16), name)
mine = {int(k, 16): v for k, v in meth.items()}
print('perf map JIT entries', len(perf), 'walked methods', len(mine))
print('in perf map, not walked:', [hex(a) for a in perf if a not in mine][:10])
print('walked, not in perf map:', [hex(a) for a in mine if a not in perf][:10])
ok = bad = 0
for a, (size, name) in perf.items():
    if a not in mine: continue
    uw = mine[a]['unwind']
    b0 = uw[0][0]; e_last = max(u[1] for u in uw)
    if False: print('unwind begin mismatch', hex(a), hex(rangebegin + b0)); bad += 1; continue
    usize = e_last - b0
    if usize == size: ok += 1
    else:
        bad += 1
        if bad < 8: print('size mismatch', hex(a), 'perf', hex(size), 'unwind', hex(usize), [tuple(hex(x) for x in u) for u in uw], name[:80])
print('unwind-derived size == perf map size:', ok, 'differ:', bad)
