import sys, json
sys.path.insert(0, '/work/research')
from clrmem import *
pid = int(sys.argv[1]); out = sys.argv[2]
t = LiveTarget(pid)
base, path, d = open_descriptor(t)
print('libcoreclr', path, 'load base %#x' % base)
print('descriptor at %#x: magic %#x flags %#x size %d json at %#x pointer_data_count %d pad %d pointer_data at %#x'
      % (d.addr, d.magic, d.flags, d.size, d.json_ptr, d.pcount, d.pad, d.pdata_ptr))
print('json at base+%#x, pointer data at base+%#x' % (d.json_ptr - base, d.pdata_ptr - base))
open(out, 'w').write(d.json_text)
print('pointer data (value - base):', [hex(v - base) if v else '0' for v in d.pdata])
