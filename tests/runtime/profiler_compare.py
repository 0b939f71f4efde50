#!/usr/bin/env python3
"""Hold gdmap's view of JIT-compiled code to the running runtime's own answers.

    profiler_compare.py RECORDS.jsonl DOC.json [--perfmap FILE] [--show N] [--label TEXT]
    profiler_compare.py RECORDS.jsonl --check CONFIG [--perfmap FILE]

RECORDS.jsonl is what tests/runtime/profiler/jit_map_profiler.so wrote on
the workload's snapshot: one line per code version the runtime had compiled
(GetNativeCodeStartAddresses), with its GetCodeInfo4 ranges, its
GetILToNativeMapping3 array ("map", IL offsets signed: -1 NO_MAPPING,
-2 PROLOG, -3 EPILOG), module path, token and IsFunctionDynamic, and a last
{"summary": ...} line. DOC.json is `gdmap il extract --pid PID --api
--jit-only` (or the same on the process's core): {"methods": [...]}, one
element per native code version, with "code" ([{"address", "size"}...]),
"map" ([{"il", "nativeStart", "nativeEnd"}...], il an integer or "prolog",
"epilog", "no_mapping"), "module", "token", "dynamic" and "codeVersion"
({"kind", "tier", ...}).

Each recorded JIT-compiled version (records with "r2r": true, ReadyToRun
bodies, are skipped as --jit-only skips them) is matched with gdmap's method
whose first code range starts at the recorded start, and compared on:
  ranges   GetCodeInfo4's ranges vs gdmap's "code". Ranges that touch are
           joined on both sides first (the runtime answers one range for a
           JIT-compiled body with its funclets; a reader may list the body and
           each funclet); a version whose ranges agree only once joined counts
           as agreeing and is counted under "ranges joined".
  map      the API array, order included. An order difference only among
           entries with the same IL offset and native start is "tie-order"
           (the runtime's sort is not stable; tests/r2r/profiler_compare.py
           and FORMAT.md section 3.2), not a difference. Where the runtime
           refused (GetILToNativeMapping3 failed: dynamic methods, whose code
           has no debug info), gdmap must have no entries.
  identity module path, token (integers compared) and dynamic.
  tier     with --perfmap: the runtime's perf-map label of the start
           (/tmp/perf-PID.map with DOTNET_PerfMapEnabled=1) against gdmap's
           codeVersion.tier. Known labels: QuickJitted tier0, OptimizedTier1
           tier1, OptimizedTier1OSR tier1-osr, Optimized optimized,
           InstrumentedTier tier0-instrumented, InstrumentedTierOptimized
           tier1-instrumented; a known label with another tier is a
           difference; unknown labels and a missing tier only go to the table
           of label -> tier counts.
A recorded version absent from gdmap's document is "missing". gdmap's
versions that the profiler did not record are counted apart ("gdmap only"):
the profiler sees only what was compiled after it was loaded, and tiering
may add versions after the snapshot (they are looked up in the perf map).
Exit status 1 when any recorded version differs or is missing.

--check CONFIG looks at the records alone (and the perf map): the snapshot is
complete and error-free, every JIT-compiled start is in the perf map with the
same size, and the run looks like CONFIG (default: tier-0 and tier-1 and OSR
versions; notiering: one version per method, no tier-0 code; osr: the
workload's Program::Osr has an OSR version; nor2r: thousands of versions,
none ReadyToRun). It prints the counts per label. Exit status 1 when an
expectation fails. Standard library only.
"""
import collections
import json
import re
import sys

SPECIAL = {"prolog": -2, "epilog": -3, "no_mapping": -1}
TIERS = {
    "QuickJitted": "tier0",
    "OptimizedTier1": "tier1",
    "OptimizedTier1OSR": "tier1-osr",
    "Optimized": "optimized",
    "InstrumentedTier": "tier0-instrumented",
    "InstrumentedTierOptimized": "tier1-instrumented",
}
DIFFERENCES = ["missing", "ranges-differ", "map-differs", "map-only-gdmap", "module-differs", "token-differs",
               "dynamic-differs", "tier-differs"]


def num(v):
    if isinstance(v, int):
        return v
    return int(str(v), 0)


def load_records(path):
    records, summary = [], None
    for line in open(path):
        line = line.strip()
        if not line:
            continue
        r = json.loads(line)
        if "summary" in r:
            summary = r["summary"]
        else:
            records.append(r)
    return records, summary


def load_perfmap(path):
    """{start: (size, name, label or None)}"""
    out = {}
    if not path:
        return out
    for line in open(path, errors="replace"):
        parts = line.rstrip("\n").split(" ", 2)
        if len(parts) < 3:
            continue
        try:
            start, size = int(parts[0], 16), int(parts[1], 16)
        except ValueError:
            continue
        m = re.search(r"\[([A-Za-z0-9]+)\]$", parts[2])
        out[start] = (size, parts[2], m.group(1) if m else None)
    return out


def joined(ranges):
    """[(start, size)] with touching ranges joined."""
    out = []
    for s, n in sorted(ranges):
        if out and out[-1][0] + out[-1][1] == s:
            out[-1] = (out[-1][0], out[-1][1] + n)
        else:
            out.append((s, n))
    return out


def record_ranges(r):
    return [(num(s), n) for s, n in r.get("ranges") or []]


def doc_ranges(m):
    return [(num(c["address"]), c["size"]) for c in m.get("code") or []]


def doc_map(m):
    out = []
    for e in m.get("map") or []:
        il = e["il"]
        il = SPECIAL.get(il, il) if isinstance(il, str) else il
        out.append([il, e["nativeStart"], e["nativeEnd"]])
    return out


def classify_map(runtime, got):
    if runtime == got:
        return "agree"
    if len(runtime) == len(got) and sorted(runtime) == sorted(got) and \
            [e[:2] for e in runtime] == [e[:2] for e in got]:
        return "tie-order"
    return "differ"


def name_of(r, perf):
    p = perf.get(num(r["start"])) if "start" in r else None
    if p:
        return p[1]
    if r.get("dynamicName"):
        return "dynamic " + r["dynamicName"]
    return "%s %s" % (str(r.get("module", "?")).rsplit("/", 1)[-1], r.get("token"))


def compare(args):
    records, summary = load_records(args.records)
    doc = json.load(open(args.doc))
    methods = doc.get("methods", [])
    perf = load_perfmap(args.perfmap)
    by_start = {}
    dup_starts = 0
    for m in methods:
        rs = doc_ranges(m)
        if not rs:
            continue
        if rs[0][0] in by_start:
            dup_starts += 1
            continue
        by_start[rs[0][0]] = m

    counts = collections.Counter()
    details = collections.defaultdict(list)
    tiers = collections.Counter()
    matched = set()
    jit = [r for r in records if "start" in r and not r.get("r2r")]
    counts["r2r-skipped"] = sum(1 for r in records if r.get("r2r"))
    counts["codeStartsError"] = sum(1 for r in records if "codeStartsError" in r)
    for r in jit:
        start = num(r["start"])
        name = name_of(r, perf)
        m = by_start.get(start)
        if m is None:
            counts["missing"] += 1
            if "mapError" in r:
                counts["missing-no-map"] += 1
            details["missing"].append("0x%x %s (version %s of %s, %s%s)" % (
                start, name, r.get("version"), r.get("versions"), r.get("how"),
                "; the runtime has no map for it: %s" % r["mapError"] if "mapError" in r else ""))
            continue
        matched.add(start)
        kinds = []
        # ranges
        if "ranges" in r:
            a, b = record_ranges(r), doc_ranges(m)
            if a != b:
                if joined(a) == joined(b):
                    counts["ranges-joined"] += 1
                else:
                    kinds.append(("ranges-differ", "runtime %s, gdmap %s" % (
                        [(hex(s), n) for s, n in a], [(hex(s), n) for s, n in b])))
        # map
        got = doc_map(m)
        if "map" in r:
            cls = classify_map(r["map"], got)
            if cls == "tie-order":
                counts["tie-order"] += 1
            elif cls == "differ":
                kinds.append(("map-differs", "\n    runtime %s\n    gdmap   %s" % (r["map"], got)))
        else:
            counts["runtime-refused-map"] += 1
            if got:
                kinds.append(("map-only-gdmap", "runtime %s (%s), gdmap %d entries: %s" % (
                    r.get("mapError"), "dynamic" if r.get("dynamic") else "not dynamic", len(got), got[:6])))
        # identity
        if "module" in r and r["module"] != m.get("module"):
            kinds.append(("module-differs", "runtime %s, gdmap %s" % (r["module"], m.get("module"))))
        if "token" in r and ("token" not in m or num(r["token"]) != num(m["token"])):
            kinds.append(("token-differs", "runtime %s, gdmap %s" % (r["token"], m.get("token"))))
        if "dynamic" in r and bool(r["dynamic"]) != bool(m.get("dynamic", False)):
            kinds.append(("dynamic-differs", "runtime %s, gdmap %s" % (r["dynamic"], m.get("dynamic", False))))
        # tier
        tier = (m.get("codeVersion") or {}).get("tier")
        if perf:
            p = perf.get(start)
            label = p[2] if p else None
            tiers[(label or "(not in perf map)", tier or "(none)")] += 1
            if label in TIERS and tier is not None and TIERS[label] != tier:
                kinds.append(("tier-differs", "perf map [%s], gdmap %s" % (label, tier)))
        if kinds:
            counts["differ"] += 1
            for k, text in kinds:
                counts[k] += 1
                details[k].append("0x%x %s: %s" % (start, name, text))
        else:
            counts["agree"] += 1

    # gdmap's versions the profiler did not record.
    extra = collections.Counter()
    extra_examples = []
    for s, m in by_start.items():
        if s in matched:
            continue
        cv = m.get("codeVersion") or {}
        p = perf.get(s)
        what = "dynamic" if m.get("dynamic") else (cv.get("tier") or "(no tier)")
        where = "in perf map" if p else "not in perf map"
        extra[(what, where)] += 1
        if len(extra_examples) < args.show:
            extra_examples.append("0x%x %s %s %s" % (s, p[1] if p else "", m.get("module", "").rsplit("/", 1)[-1],
                                                     m.get("token")))

    label = args.label + ": " if args.label else ""
    compared = len(jit) - counts["missing"]
    print("%srecords %d (%d JIT-compiled, %d ReadyToRun skipped); gdmap versions %d; compared %d: agree %d, differ %d, "
          "missing %d%s" % (label, len(records), len(jit), counts["r2r-skipped"], len(methods), compared,
                            counts["agree"], counts["differ"], counts["missing"],
                            "" if compared or not jit else " (nothing compared)"))
    print("  agreeing with notes: tie-order %d, ranges joined %d, runtime refused the map (and gdmap has none) %d" %
          (counts["tie-order"], counts["ranges-joined"], counts["runtime-refused-map"] - counts["map-only-gdmap"]))
    print("  differences: " + ", ".join("%s %d" % (k, counts[k]) for k in DIFFERENCES))
    if counts["missing-no-map"]:
        print("  of the missing, %d are versions the runtime keeps no map for (GetILToNativeMapping3 failed: "
              "no debug info; a reader that lists only bodies with debug info skips them)" % counts["missing-no-map"])
    if dup_starts:
        print("  gdmap's document has %d methods whose first range starts where another's does" % dup_starts)
    print("  gdmap only (not recorded): %d%s" % (sum(extra.values()), "".join(
        "; %s %s: %d" % (w, p, n) for (w, p), n in sorted(extra.items()))))
    if perf:
        print("  perf-map label -> gdmap tier (compared versions):")
        for (lab, t), n in sorted(tiers.items()):
            known = TIERS.get(lab)
            mark = "" if known is None or t == "(none)" else (" ok" if known == t else " DIFFERS (expected %s)" % known)
            print("    %-28s %-20s %6d%s" % (lab, t, n, mark))
    for k in DIFFERENCES:
        if details[k]:
            print("  %s (%d), the first %d:" % (k, len(details[k]), min(args.show, len(details[k]))))
            for d in details[k][:args.show]:
                print("    " + d)
    if extra_examples and args.show:
        print("  gdmap only, the first %d:" % len(extra_examples))
        for e in extra_examples:
            print("    " + e)
    failed = counts["differ"] + counts["missing"]
    if not jit:
        print("  no JIT-compiled version recorded: nothing was compared")
        failed += 1
    return 1 if failed else 0


def check(args):
    records, summary = load_records(args.records)
    perf = load_perfmap(args.perfmap)
    problems = []
    if summary is None:
        problems.append("no summary line: the snapshot did not finish")
        summary = {}
    jit = [r for r in records if "start" in r and not r.get("r2r")]
    r2r = [r for r in records if r.get("r2r")]
    dyn = [r for r in jit if r.get("dynamic")]
    errors = collections.Counter()
    for r in records:
        for k in r:
            if k.endswith("Error"):
                errors[(k, r[k], "dynamic" if r.get("dynamic") else "not dynamic")] += 1
    for (k, v, d), n in errors.items():
        if d == "not dynamic" or k != "mapError":
            problems.append("%d %s records with %s %s" % (n, d, k, v))
    versions = collections.Counter()
    fns = {}
    for r in records:
        if "start" in r:
            fns[(r["fn"], r.get("rejitId", 0))] = r.get("versions", 1)
    for v in fns.values():
        versions[v] += 1
    labels = collections.Counter()
    in_perf = size_agree = 0
    by_name = collections.defaultdict(list)
    for r in jit:
        p = perf.get(num(r["start"]))
        if p:
            in_perf += 1
            if p[0] == r.get("codeSize"):
                size_agree += 1
            labels[p[2] or "(no label)"] += 1
            by_name[re.sub(r"\[[A-Za-z0-9]+\]$", "", p[1])].append((r, p[2]))
        else:
            labels["(not in perf map)"] += 1
    label_version = collections.Counter()
    for r in jit:
        p = perf.get(num(r["start"]))
        label_version[((p[2] if p else None) or "-", r.get("version"), r.get("versions"))] += 1
    print("%s: %d code versions recorded (%d JIT-compiled, %d of them dynamic; %d ReadyToRun), %d functions, "
          "versions per function %s; %d compilations reported; in the perf map %d of %d (size agrees %d)" %
          (args.check, len(records), len(jit), len(dyn), len(r2r), len(fns),
           dict(sorted(versions.items())), summary.get("compilations", 0), in_perf, len(jit), size_agree))
    print("  perf-map labels of the JIT-compiled versions: " +
          ", ".join("%s %d" % (k, n) for k, n in sorted(labels.items())))
    print("  (label, version index, versions): " +
          ", ".join("%s %s/%s: %d" % (k[0], k[1], k[2], n) for k, n in sorted(label_version.items(), key=str)))
    if errors:
        print("  API errors: " + ", ".join("%s %s (%s) %d" % (k, v, d, n) for (k, v, d), n in sorted(errors.items())))

    def method(name):
        return [(r, lab) for key, lst in by_name.items() if name in key for r, lab in lst]

    if not jit:
        problems.append("no JIT-compiled version recorded")
    if perf and in_perf < len(jit) - len(dyn):
        problems.append("%d non-dynamic JIT-compiled versions are not in the perf map" % (len(jit) - len(dyn) - in_perf))
    osr = method("Program::Osr(")
    osr_labels = sorted({lab for _, lab in osr})
    if args.check in ("default", "osr", "nor2r"):
        if "OptimizedTier1OSR" not in osr_labels or not any(r.get("versions", 1) >= 2 for r, _ in osr):
            problems.append("Program::Osr has no OSR version (labels %s)" % osr_labels)
        hot = sorted({lab for _, lab in method("Program::Hot(")})
        if "OptimizedTier1" not in hot:
            problems.append("Program::Hot did not reach tier 1 (labels %s)" % hot)
        if not labels.get("QuickJitted"):
            problems.append("no tier-0 code: is tiered compilation off?")
    if args.check == "notiering":
        if labels.get("QuickJitted") or labels.get("OptimizedTier1OSR"):
            problems.append("tier-0 or OSR code with tiered compilation off")
        if any(v > 1 for v in fns.values()):
            problems.append("a function has several code versions with tiered compilation off")
    if args.check == "osr" and labels.get("OptimizedTier1OSR", 0) < 3:
        problems.append("only %d OSR versions" % labels.get("OptimizedTier1OSR", 0))
    if args.check == "nor2r":
        if len(jit) < 2000:
            problems.append("only %d JIT-compiled versions (expected thousands)" % len(jit))
        if r2r:
            problems.append("%d ReadyToRun versions with DOTNET_ReadyToRun=0" % len(r2r))
    print("  Program::Osr: %s" % ", ".join("%s (version %s of %s)" % (lab, r.get("version"), r.get("versions"))
                                           for r, lab in osr))
    for p in problems:
        print("  PROBLEM: " + p)
    return 1 if problems else 0


def main(argv):
    class A:
        pass
    args = A()
    args.perfmap, args.show, args.label, args.check = None, 10, "", None
    rest = []
    i = 1
    while i < len(argv):
        a = argv[i]
        if a in ("--perfmap", "--show", "--label", "--check") and i + 1 < len(argv):
            setattr(args, a[2:], int(argv[i + 1]) if a == "--show" else argv[i + 1])
            i += 2
        elif a in ("-h", "--help"):
            sys.stdout.write(__doc__)
            return 0
        else:
            rest.append(a)
            i += 1
    if args.check:
        if len(rest) != 1:
            sys.stderr.write(__doc__)
            return 2
        args.records = rest[0]
        return check(args)
    if len(rest) != 2:
        sys.stderr.write(__doc__)
        return 2
    args.records, args.doc = rest
    return compare(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
