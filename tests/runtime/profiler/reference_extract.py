#!/usr/bin/env python3
"""A stand-in for `gdmap il extract --pid PID --api --jit-only` built from the
research scripts of tests/runtime/research (docs/runtime-contracts.md
sections 2-4) and the FORMAT.md 3.2 rules of tests/r2r/profiler_compare.py.

    reference_extract.py PID|CORE [-o OUT.json]

Writes {"methods": [...]} in the document format profiler_compare.py reads
(module, token, methodDesc, dynamic, codeVersion {kind, tier, ilVersion,
active}, codeSize, code [{address, size}] one per RuntimeFunction, map).
It lets run.sh (GDMAP_JIT_REFERENCE=1) check the comparison and the research
itself against the runtime before gdmap reads processes, and afterwards
gives a second opinion when gdmap and the runtime disagree. Not a product:
no bounds checks beyond what the research scripts do, x64 only. Tier of a
version in no NativeCodeVersionNode (the synthetic one): tier0 when the
method is eligible for tiering (Flags3AndTokenRemainder bit 0x8000), else
optimized (docs/runtime-contracts.md 4.2: an inference).
"""
import collections
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "research"))
sys.path.insert(0, os.path.join(here, "..", "..", "r2r"))
import importlib.util  # noqa: E402
from clrmem import CoreTarget, LiveTarget, open_descriptor, u8, u16, u32, u64  # noqa: E402
import walk  # noqa: E402
import debuginfo  # noqa: E402
from ident import method_identity  # noqa: E402
from r2r_reference import PACKED_SOURCE_BITS  # noqa: E402

# tests/r2r/profiler_compare.py (not tests/runtime's, same file name): the
# FORMAT.md 3.2 rules in Python.
_spec = importlib.util.spec_from_file_location(
    "r2r_profiler_compare", os.path.join(here, "..", "..", "r2r", "profiler_compare.py"))
_r2r_compare = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_r2r_compare)
api_from_bounds = _r2r_compare.api_from_bounds

TIER = {0: "tier0", 1: "tier1", 2: "tier1-osr", 3: "optimized", 4: "tier0-instrumented", 5: "tier1-instrumented"}
IL_NAMES = {0xFFFFFFFF: "no_mapping", 0xFFFFFFFE: "prolog", 0xFFFFFFFD: "epilog"}


def versions_of(t, d, md):
    """The method's explicit NativeCodeVersionNodes: [(NativeCode, tier, ilVersion, active)]."""
    cd = u64(t, md + d.off("MethodDesc", "CodeData"))
    if not cd:
        return [], False
    vs = u64(t, cd + d.off("MethodDescCodeData", "VersioningState"))
    if not vs:
        return [], False
    default_active = bool(u8(t, vs + d.off("MethodDescVersioningState", "Flags")) & 4)
    node_t = d.types["NativeCodeVersionNode"]
    tier_off = d.off("NativeCodeVersionNode", "OptimizationTier") if "OptimizationTier" in node_t else 36
    out, seen = [], set()
    p = u64(t, vs + d.off("MethodDescVersioningState", "NativeCodeVersionNode"))
    while p and p not in seen:
        seen.add(p)
        out.append((u64(t, p + d.off("NativeCodeVersionNode", "NativeCode")), u32(t, p + tier_off),
                    u64(t, p + d.off("NativeCodeVersionNode", "ILVersionId")),
                    bool(u32(t, p + d.off("NativeCodeVersionNode", "Flags")) & 1)))
        p = u64(t, p + d.off("NativeCodeVersionNode", "Next"))
    return out, default_active


def main(argv):
    args = argv[1:]
    out = "-"
    if "-o" in args:
        i = args.index("-o")
        out = args[i + 1]
        del args[i:i + 2]
    if len(args) != 1:
        sys.stderr.write(__doc__)
        return 2
    src = args[0]
    t = LiveTarget(int(src)) if src.isdigit() else CoreTarget(src)
    base, path, d = open_descriptor(t)
    # .NET 11's RealCodeHeader publishes EHInfo, 10's does not; their debug
    # info forms differ (docs/runtime-contracts.md 3.1, 3.2).
    form = "2" if "EHInfo" in d.types.get("RealCodeHeader", {}) else "1"
    sections, _ = walk.walk_rsm(t, d)
    nodes, seen = [], set()
    for s in sections:
        if s["HeapList"]:
            for n in walk.heap_nodes(t, d, s["HeapList"]):
                if n["addr"] not in seen:
                    seen.add(n["addr"])
                    nodes.append(n)
    stats = collections.Counter()
    starts = []
    for n in nodes:
        starts += walk.method_starts(t, d, n, stats)
    methods = []
    for start in sorted(set(starts)):
        h = walk.code_header(t, d, start)
        if "stub_kind" in h:
            continue
        sec = next((s for s in sections if s["RangeBegin"] <= start < s["RangeEndOpen"] and s["HeapList"]), None)
        if sec is None:
            continue
        rb = sec["RangeBegin"]
        uw = h["unwind"]
        code = [{"address": hex(rb + b), "size": e - b} for b, e, _ in uw]
        code_size = uw[-1][1] - uw[0][0] if uw else 0
        md = h["MethodDesc"]
        ident = method_identity(t, d, md)
        m = {"module": ident["path"], "token": "0x%08x" % ident["token"], "methodDesc": hex(md)}
        if ident["classification"] == 7:
            m["dynamic"] = True
        nodes_md, default_active = versions_of(t, d, md)
        hit = [v for v in nodes_md if v[0] == start]
        if hit:
            _, tier, ilv, active = hit[0]
            cv = {"kind": "jit", "ilVersion": ilv, "active": active}
            if tier in TIER:
                cv["tier"] = TIER[tier]
        else:
            eligible = bool(u16(t, md + d.off("MethodDesc", "Flags3AndTokenRemainder")) & 0x8000)
            tier = "tier0" if eligible else "optimized"
            # .NET 11 publishes the default version's tier once the runtime
            # knows it (0xFFFFFFFF before): e.g. 3 when the JIT switched a
            # tier-0 compilation to optimized.
            cd = u64(t, md + d.off("MethodDesc", "CodeData"))
            if cd and "OptimizationTier" in d.types["MethodDescCodeData"]:
                known = u32(t, cd + d.off("MethodDescCodeData", "OptimizationTier"))
                if known in TIER:
                    tier = TIER[known]
            cv = {"kind": "jit", "ilVersion": 0, "active": default_active or not nodes_md, "tier": tier}
        m["codeVersion"] = cv
        m["codeSize"] = code_size
        m["code"] = code
        if h["DebugInfo"]:
            info = debuginfo.decode_v1(t, h["DebugInfo"]) if form == "1" else debuginfo.decode_v2(t, h["DebugInfo"])
            srcbits = 2 if form == "1" else 3
            bounds = []
            for native, il, bits in info["bounds"]:
                source = 0
                for bit, flag in PACKED_SOURCE_BITS[:srcbits]:
                    if bits & bit:
                        source |= flag
                bounds.append((native, il, source))
            api = api_from_bounds(bounds, code_size) if bounds else []
            m["map"] = [{"il": IL_NAMES.get(il & 0xFFFFFFFF, il), "nativeStart": a, "nativeEnd": b} for il, a, b in api]
        else:
            m["map"] = []
        methods.append(m)
    text = json.dumps({"methods": methods}, indent=1)
    if out == "-":
        sys.stdout.write(text + "\n")
    else:
        with open(out, "w") as f:
            f.write(text + "\n")
    sys.stderr.write("reference_extract: %d JIT-compiled code versions (%s form debug info)\n" %
                     (len(methods), "10" if form == "1" else "11"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
