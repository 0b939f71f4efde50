#!/usr/bin/env python3
"""Write a GDMAP_PROF_ASK file (see r2r_map_profiler.cpp) for the runtime-async
code of an R2R image (R2R 26, .NET 11): the addresses whose owner the running
runtime is asked for.

    async_asks.py IMAGE [--reader PATH] > asks.txt

For every async variant (an instance entry point whose method signature has
flag 0x100), one line per address:
  variant TOKEN entry / body+1      its first runtime function, and one byte in
  funclet TOKEN start / start+1     a later runtime function without debug info
  stub TOKEN start / start+1        a later runtime function with its own debug
                                    info: the resumption stub, which no entry
                                    point lists (crossgen2 puts it right after
                                    the variant's funclets)
  thunk TOKEN entry                 the MethodDef entry point of the same token
                                    (the Task-returning method), when there is one
"Later" means up to the next runtime function that an entry point names.
The image is read with the reference reader's primitives
(tests/r2r/r2r_reference.py, or --reader PATH for another copy of it); an
image that is not ReadyToRun gets a comment line only.
Standard library only.
"""
import importlib.util
import os
import sys

ASYNC_VARIANT = 0x100  # READYTORUN_METHOD_SIG_AsyncVariant


def load_reader(path):
    spec = importlib.util.spec_from_file_location("r2r_reference", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main(argv):
    args = argv[1:]
    reader = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "r2r_reference.py")
    if "--reader" in args:
        i = args.index("--reader")
        reader = args[i + 1]
        del args[i:i + 2]
    if len(args) != 1:
        sys.stderr.write(__doc__)
        return 2
    ref = load_reader(reader)
    image = args[0]
    data = open(image, "rb").read()
    name = os.path.basename(image)
    try:
        r2r = ref.R2R(data)
    except ref.BadImage as e:  # IL-only facades, reference assemblies
        print("# %s: not read (%s)" % (name, e))
        return 0
    rfs = r2r.runtime_functions()

    # Every entry point: (first runtime function, token, signature flags).
    entries = []
    defs = ref.NativeArray(r2r.reader, r2r.sections[103][0])
    for rid0 in range(defs.count):
        at = defs.get(rid0)
        if at is not None:
            entries.append((r2r.entry_id(at), 0x06000000 | (rid0 + 1), None))
    if 109 in r2r.sections:
        for entry in ref.hashtable_entries(r2r.reader, r2r.sections[109][0]):
            off = r2r.image.offset(entry)
            flags = ref.compressed(data, off)[0]
            first, after = ref.read_instance_sig(data, off)
            # The token, or a dict holding it (the reader's newer form).
            token = first["token"] if isinstance(first, dict) else first
            entries.append((r2r.entry_id(entry + (after - off)), token, flags))
    starts = sorted({e[0] for e in entries})
    following = {s: (starts[i + 1] if i + 1 < len(starts) else len(rfs)) for i, s in enumerate(starts)}
    debug = ref.NativeArray(r2r.reader, r2r.sections[105][0])
    thunks = {token: first for first, token, flags in entries if flags is None}

    out = []
    variants = stubs = 0
    for first, token, flags in sorted(entries):
        if flags is None or not flags & ASYNC_VARIANT:
            continue
        variants += 1
        rva = rfs[first][0]
        out.append("%s %x variant 0x%08X entry" % (name, rva, token))
        out.append("%s %x variant 0x%08X body+1" % (name, rva + 1, token))
        for i in range(first + 1, following[first]):
            kind = "stub" if debug.get(i) is not None else "funclet"
            stubs += kind == "stub"
            out.append("%s %x %s 0x%08X start" % (name, rfs[i][0], kind, token))
            out.append("%s %x %s 0x%08X start+1" % (name, rfs[i][0] + 1, kind, token))
        if token in thunks:
            out.append("%s %x thunk 0x%08X entry" % (name, rfs[thunks[token]][0], token))
    print("# %s: %d async variants, %d resumption stubs" % (name, variants, stubs))
    if out:
        print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
