#!/usr/bin/env python3
"""ClrMD's view of a core dump against gdmap's (tests/runtime/clrmd/README.md).

    clrmd_compare.py CLRMD.jsonl GDMAP.json [GDMAP_BOUNDS.json] [--show N]

CLRMD.jsonl: tests/runtime/clrmd's clrmd_peer output (one method a line,
ilOffsetMap at absolute addresses). GDMAP.json: `gdmap il extract CORE --api
--jit-only` (each body's `map`, the profiling API's array). GDMAP_BOUNDS.json,
optional: the same without --api (each body's stored `bounds`), to check
ClrMD's entries against the stored bounds themselves.

Methods are matched by code start: ClrMD's `start` (ClrMethod.NativeCode)
against gdmap's `code[0].address`. ClrMD sees one code version per method
(the current one), gdmap every version: gdmap's bodies ClrMD has not got are
counted apart by why (another code version of a MethodDesc ClrMD has,
another instantiation of a method ClrMD has, a method ClrMD's type walk does
not reach). For each matched pair: token, module, methodDesc, code size and
the IL map.

What ClrMD's ILOffsetMap is (ClrMD 4.2, DacTypeHelpers.GetILMap): for every
method instance the DAC finds at the address
(IXCLRDataProcess::EnumMethodInstancesByAddress), the DAC's
GetILAddressMap, appended one after another; the DAC's map is the stored
bounds in stored order, each entry ending where the next starts; an entry
whose start is past its end (the last, which the DAC ends at the code start)
is ended by ClrMD at the end of the queried method's hot code when it lies
there, else 0x20 bytes past its start (FindEnd's fallback), or one byte
before the next start (any other entry). The instances found by address
include other instantiations whose code is elsewhere: their maps (at their
own addresses) are appended too. So it is expected to be the stored bounds
(`raw`: il, native, next native or code size), repeated once per method
instance sharing the code; the profiling API's array (`map`) is the same
bounds sorted and with adjacent entries of one IL offset merged, so it
differs from ClrMD's where the stored bounds are out of IL order or have
such neighbours.

Exit status: 0 when every difference is of an explained kind, 1 otherwise,
2 usage or unreadable input.
"""
import argparse
import bisect
import collections
import json
import sys

IL_NAMES = {"no_mapping": -1, "prolog": -2, "epilog": -3}


def il_value(x):
    return IL_NAMES[x] if isinstance(x, str) else x


def load_jsonl(path):
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if line:
                try:
                    out.append(json.loads(line))
                except ValueError as e:
                    raise SystemExit(f"{path}:{n}: {e}")
    return out


def load_gdmap(path):
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    by_start = {}
    for m in doc.get("methods", []):
        if not m.get("code"):
            continue
        by_start[int(m["code"][0]["address"], 16)] = m
    return by_start


def raw_from_bounds(bounds, code_size):
    """The stored bounds as (il, start, end): each ends where the next starts, the last at the code's end."""
    out = []
    for i, b in enumerate(bounds):
        end = bounds[i + 1]["native"] if i + 1 < len(bounds) else code_size
        out.append((il_value(b["il"]), b["native"], end))
    return out


def split_repeats(entries):
    """(period, copies) when entries are one block repeated copies times; else (entries, 1)."""
    n = len(entries)
    for k in range(1, n + 1):
        if n % k == 0 and entries[:k] * (n // k) == entries:
            return entries[:k], n // k
    return entries, 1


def merge_adjacent(entries):
    """Merge neighbours (in native order) of one IL offset where one ends where the next starts."""
    out = []
    for e in sorted(entries, key=lambda e: (e[1], e[2])):
        if out and out[-1][0] == e[0] and out[-1][2] == e[1]:
            out[-1] = (e[0], out[-1][1], e[2])
        else:
            out.append(e)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("clrmd")
    ap.add_argument("gdmap")
    ap.add_argument("bounds", nargs="?")
    ap.add_argument("--show", type=int, default=3, help="examples to print of each kind (default 3)")
    a = ap.parse_args()
    try:
        clrmd = load_jsonl(a.clrmd)
        gd = load_gdmap(a.gdmap)
        gb = load_gdmap(a.bounds) if a.bounds else None
    except (OSError, ValueError) as e:
        print(f"clrmd_compare.py: {e}", file=sys.stderr)
        return 2
    if gd and "map" not in next(iter(gd.values())):
        print(f"clrmd_compare.py: {a.gdmap} has no `map` (run gdmap il extract with --api)", file=sys.stderr)
        return 2

    counts = collections.Counter()
    examples = collections.defaultdict(list)
    unexplained = set()

    def note(kind, text, explained=True):
        counts[kind] += 1
        if len(examples[kind]) < a.show:
            examples[kind].append(text)
        if not explained:
            unexplained.add(kind)

    starts = sorted(gd)
    ends = [gd[x]["codeSize"] + x for x in starts]

    def body_at(addr):
        k = bisect.bisect_right(starts, addr) - 1
        return starts[k] if k >= 0 and addr < ends[k] else None

    jit = [r for r in clrmd if r.get("compilationType", "Jit") == "Jit"]
    counts["clrmd: not JIT (ReadyToRun), not compared"] = len(clrmd) - len(jit)
    matched = set()
    md_seen = set()
    method_seen = set()
    for r in jit:
        md_seen.add(int(r["methodDesc"], 16))
        method_seen.add((r.get("module", ""), r["token"]))
    for r in jit:
        s = int(r["start"], 16)
        g = gd.get(s)
        name = r.get("name", r["token"])
        if g is None:
            if not r["ilOffsetMap"]:
                note("clrmd only: no IL map (gdmap leaves out bodies without debug info)", f"{name} {r['start']}")
            elif not r.get("module"):
                note("clrmd only: module without a path (gdmap leaves the body out when the module's path is not in the dump)",
                     f"{name} {r['start']}")
            else:
                note("clrmd only: not in gdmap (UNEXPLAINED)", f"{name} {r['start']} {r.get('module')}", False)
            continue
        matched.add(s)
        counts["compared"] += 1
        ok = True
        if r["token"] != g["token"]:
            ok = False
            note("token differs (UNEXPLAINED)", f"{name}: clrmd {r['token']} gdmap {g['token']}", False)
        gmod = g.get("module", "")
        if r.get("module", "") != gmod:
            ok = False
            note("module differs (UNEXPLAINED)", f"{name}: clrmd {r.get('module')!r} gdmap {gmod!r}", False)
        elif not gmod:
            note("module: neither has a path (a module loaded from bytes)", name)
        if r.get("walkedModule") not in (None, r.get("module")):
            note("clrmd: found through a derived type of another module (ClrMethod.Type is the type walked; module taken from GetMethodByHandle)",
                 f"{name}: walked {r['walkedModule']}, own {r.get('module')}")
        if r["methodDesc"] != g["methodDesc"]:
            ok = False
            note("methodDesc differs (UNEXPLAINED)", f"{name}: clrmd {r['methodDesc']} gdmap {g['methodDesc']}", False)
        if r["size"] != g["codeSize"]:
            ok = False
            note("code size differs (UNEXPLAINED)", f"{name}: clrmd {r['size']} gdmap {g['codeSize']}", False)

        # --- the IL map ---
        cmabs = [tuple(e) for e in r["ilOffsetMap"]]  # ClrMD's addresses are absolute
        gm = [(il_value(e["il"]), e["nativeStart"], e["nativeEnd"]) for e in g["map"]]
        if gb is not None and s in gb:
            # Cut ClrMD's concatenation into the method instances' maps: each
            # must be the stored bounds of this body or of the body (another
            # instantiation with code of its own) its first entry lies in.
            raw = raw_from_bounds(gb[s]["bounds"], g["codeSize"])
            own = [(il, s + a, s + b) for il, a, b in raw]
            i, copies, others, bad = 0, 0, 0, None
            while i < len(cmabs):
                if own and cmabs[i:i + len(own)] == own:
                    copies += 1
                    i += len(own)
                    continue
                at = body_at(cmabs[i][1])
                if at is not None and at != s and at in gb:
                    o = raw_from_bounds(gb[at]["bounds"], gd[at]["codeSize"])
                    oabs = [(il, at + a, at + b) for il, a, b in o]
                    if oabs:  # ClrMD's FindEnd: outside the queried body's code, the last entry ends 0x20 after its start
                        oabs[-1] = (oabs[-1][0], oabs[-1][1], oabs[-1][1] + 0x20)
                    if oabs and cmabs[i:i + len(oabs)] == oabs:
                        others += 1
                        i += len(oabs)
                        continue
                bad = i
                break
            block = raw if copies else [(e[0], e[1] - s, e[2] - s) for e in cmabs]
            if bad is not None or (cmabs and not copies):
                ok = False
                rel = [(e[0], e[1] - s, e[2] - s) for e in cmabs]
                note("map: clrmd != stored bounds (UNEXPLAINED)",
                     f"{name}: clrmd {rel[:12]} (from entry {bad}) bounds {raw[:12]}", False)
            else:
                counts["map: clrmd == stored bounds (in order)"] += 1
                if copies > 1:
                    note("clrmd map repeated: one copy per method instance sharing this code (ClrMD appends every instance's map)",
                         f"{name}: {len(raw)} entries x {copies}")
                if others:
                    note("clrmd map includes other instantiations' maps: their own code elsewhere, each equal to gdmap's stored bounds of that body (its last entry ended 0x20 past its start: ClrMD's FindEnd fallback)",
                         f"{name}: {copies} copies of its own, {others} of other bodies")
        else:
            if gb is not None:
                note("gdmap bounds run lacks the body (UNEXPLAINED)", name, False)
            cm = [(e[0], e[1] - s, e[2] - s) for e in cmabs]
            block, copies = split_repeats(cm)
            if copies > 1:
                note("clrmd map repeated (one copy per method instance sharing the code; the first copy compared)",
                     f"{name}: {len(block)} entries x {copies}")
        if block == gm:
            counts["map: clrmd == api map, in order"] += 1
        elif sorted(block) == sorted(gm):
            note("map: clrmd == api map as multisets, other order (the API array is sorted, ClrMD keeps stored order)",
                 f"{name}: clrmd {block[:8]} api {gm[:8]}")
        elif sorted(merge_adjacent(block)) == sorted(merge_adjacent(gm)):
            note("map: clrmd == api map once adjacent entries of one IL offset are merged (the API merges them, ClrMD does not)",
                 f"{name}: clrmd {block[:10]} api {gm[:10]}")
        else:
            ok = False
            note("map: clrmd vs api map, other difference (UNEXPLAINED)", f"{name}: clrmd {block[:12]} api {gm[:12]}", False)
        if ok:
            counts["agree: token, module, methodDesc, size, and map as the rules above explain"] += 1

    # --- gdmap's bodies ClrMD has not got ---
    for s, g in gd.items():
        if s in matched:
            continue
        md = int(g["methodDesc"], 16)
        tier = g.get("codeVersion", {}).get("tier", "?")
        if g.get("dynamic"):
            kind = "gdmap only: dynamic method (no type ClrMD walks)"
        elif md in md_seen:
            kind = "gdmap only: another code version of a MethodDesc ClrMD has (ClrMD sees the current one)"
        elif (g.get("module", ""), g["token"]) in method_seen:
            kind = "gdmap only: another instantiation of a method ClrMD has (its MethodDesc is in no type ClrMD walked)"
        else:
            kind = "gdmap only: a method ClrMD's type walk does not reach (generic instantiations, types without a TypeDef map entry)"
        note(kind, f"{g['token']} {g['methodDesc']} {tier} {g.get('module', '')}")
    counts["gdmap bodies"] = len(gd)
    counts["clrmd methods (JIT)"] = len(jit)

    width = max(len(k) for k in counts) if counts else 0
    order = ["gdmap bodies", "clrmd methods (JIT)", "compared"]
    for k in order + sorted(k for k in counts if k not in order):
        print(f"{counts[k]:8d}  {k}")
        for ex in examples.get(k, []):
            print(f"{'':10}e.g. {ex}")
    del width
    if unexplained:
        print(f"UNEXPLAINED: {', '.join(sorted(unexplained))}")
        return 1
    print("every difference is of an explained kind")
    return 0


if __name__ == "__main__":
    sys.exit(main())
