#!/usr/bin/env python3
"""Hold `gdmap il lookup` to the running runtime's own answer.

    profiler_compare.py GDMAP RECORDS.jsonl [--work DIR] [--show N] [--asks ASKS.jsonl]
    profiler_compare.py --reference RECORDS.jsonl [--show N] [--asks ASKS.jsonl]

RECORDS.jsonl is what tests/r2r/profiler/r2r_map_profiler.so wrote: one line
per method whose ReadyToRun code ran, with the image, the token, the code's
RVA and the array GetILToNativeMapping3 returned for that code. For every
image named, `gdmap il extract IMAGE` runs once; each recorded method is found
among the extracted bodies by its code RVA (the body's first runtime
function), and `gdmap il lookup --method TOKEN [--instantiation TEXT] --json`
must give the identical array, order included.

Finding a body by RVA: when the extracted methods carry an "rva" key it is
used; otherwise the image's entry points (sections 103 and 109) and runtime
functions (102) are walked here with the reference reader's primitives
(tests/r2r/r2r_reference.py) and lined up with the extracted list, which is in
runtime-function order, by token and code size.

Result classes: agree (identical arrays); tie-order (the same entries, in an
order that differs only among entries with the same IL offset and native
start: FORMAT.md section 3.2, the runtime's sort is not stable); differ;
and, not compared: no-code (the runtime had no code version inside the image),
not-extracted (gdmap il extract refused the image), no-body (no extracted body
at that RVA: e.g. a body without bounds, which gdmap skips). Exit status 1 when
any method differs or could not be compared for a reason other than those.

--asks: the profiler's answers to GDMAP_PROF_ASK (run.sh appends them to
RECORDS.ask.jsonl): for every asked address whose code the runtime had
prepared, the body the runtime says owns it (GetFunctionFromIP3, and the
code version whose GetCodeInfo4 ranges hold the address) must be the body
whose "code" ranges hold it in the description, e.g. a resumption stub's
bytes (.NET 11 runtime async) belong to the stub's own body, a funclet's to
its method's. Addresses whose code never ran are counted apart ("not
prepared": the runtime's lookup then names an earlier method).

--reference leaves gdmap out: each body's bounds come from the reference
reader (r2r_reference.py) and become the API array by FORMAT.md section 3.2
done here in Python. It checks the rule set itself against the runtime, and
works on images gdmap cannot read yet. Standard library only.
"""
import collections
import json
import os
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import r2r_reference as ref  # noqa: E402

SPECIAL = {"prolog": -2, "epilog": -3, "no_mapping": -1}


def image_bodies(path):
    """The image's bodies as the reference reader lists them (runtime-function
    order), each with "rva", the begin of its first runtime function."""
    with open(path, "rb") as f:
        r2r = ref.R2R(f.read())
    rfs = r2r.runtime_functions()
    methods = r2r.methods()
    for m in methods:
        m["rva"] = rfs[m["runtimeFunction"]][0]
    return methods


def instantiation_text(inst):
    """The --instantiation argument for an extracted body's instantiation."""
    text = ""
    if inst.get("type"):
        text += "<" + ", ".join(inst["type"]) + ">"
    if inst.get("method"):
        text += "::<" + ", ".join(inst["method"]) + ">"
    for key, word in (("unboxingStub", "unboxing"), ("asyncVariant", "async"), ("resumptionStub", "resumption")):
        if inst.get(key):
            text += (" " if text else "") + word
    return text


def body_rva(m):
    """An extracted body's first runtime function: its "rva", or the first of
    its "code" ranges; None when the description has neither."""
    if "rva" in m:
        return int(str(m["rva"]), 0)
    if m.get("code"):
        return int(str(m["code"][0]["rva"]), 0)
    return None


def rva_index(methods, image):
    """{rva: index into methods}."""
    if methods and all(body_rva(m) is not None for m in methods):
        return {body_rva(m): i for i, m in enumerate(methods)}
    bodies = image_bodies(image)
    index, j = {}, 0
    for i, m in enumerate(methods):
        token = int(m["token"], 16)
        while j < len(bodies) and not (int(bodies[j]["token"], 16) == token and
                                       bodies[j]["codeSize"] == m["codeSize"]):
            j += 1
        if j == len(bodies):
            raise SystemExit("%s: extracted method %d (%s) not found among the image's entry points" %
                             (image, i, m["token"]))
        index.setdefault(bodies[j]["rva"], i)
        j += 1
    return index


CALL_INSTRUCTION, NATIVE_END_UNKNOWN = 0x10, 0x08


def api_from_bounds(bounds, code_size):
    """FORMAT.md section 3.2 in a few lines: the array GetILToNativeMapping
    gives for (native, il, source) bounds. Only for --reference: an
    independent check of the rule set, not of gdmap."""
    kept = []  # [il, start, end, source]
    for native, il, source in bounds:
        call = source & CALL_INSTRUCTION
        if not call and kept:
            # "Previous": one entry back, or two when that one is a
            # call_instruction entry.
            prev = kept[-1]
            if prev[3] & CALL_INSTRUCTION and len(kept) >= 2:
                prev = kept[-2]
            if not prev[3] & CALL_INSTRUCTION and prev[0] == il:
                continue
        kept.append([il, native, None, source])
    for i, k in enumerate(kept):
        later = [n for n in kept[i + 1:] if not n[3] & CALL_INSTRUCTION]
        k[2] = later[0][1] if later else kept[-1][1]
        if i == len(kept) - 1 or k[3] & NATIVE_END_UNKNOWN:
            k[2] = code_size

    def group(k):
        il = k[0] - (1 << 32) if k[0] >= 0x80000000 else k[0]
        if k[3] & CALL_INSTRUCTION:
            return (4, il, k[1])
        return {-2: (0, 0, k[1]), -3: (2, 0, k[1]), -1: (3, 0, k[1])}.get(il, (1, il, k[1]))
    kept.sort(key=group)
    while kept and kept[-1][3] & CALL_INSTRUCTION:
        kept.pop()
    return [[k[0] - (1 << 32) if k[0] >= 0x80000000 else k[0], k[1], k[2]] for k in kept]


def lookup(gdmap, desc, method, shared_token=False):
    """shared_token: other bodies of the description have the method's token
    (e.g. a Task-returning method and its async variant, .NET 11), so a body
    without an instantiation is chosen as "(none)"."""
    cmd = [gdmap, "il", "lookup", desc, "--method", method["token"], "--json"]
    if "instantiation" in method:
        cmd += ["--instantiation", instantiation_text(method["instantiation"])]
    elif shared_token:
        cmd += ["--instantiation", "(none)"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    try:
        out = json.loads(p.stdout)
    except ValueError:
        return None, "gdmap il lookup exited %d: %s" % (p.returncode, p.stderr.strip()[:300])
    if out.get("hr") != "S_OK":
        return None, "hr %s" % out.get("hr")
    return [[SPECIAL.get(e["il"], e["il"]), e["nativeStart"], e["nativeEnd"]] for e in out["entries"]], None


def record_key(r):
    """Records naming the same thing: one body and its answer (two runs, or
    two FunctionIDs sharing shared-generic code), or, without code, one
    method and instantiation."""
    if r.get("r2r") and "map" in r:
        return (r["image"], r["rva"], json.dumps(r["map"]))
    return (r.get("image"), r.get("token"), json.dumps(r.get("class")), json.dumps(r.get("methodArgs")))


def classify(runtime, gdmap_map):
    if runtime == gdmap_map:
        return "agree"
    if len(runtime) == len(gdmap_map) and sorted(runtime) == sorted(gdmap_map) and \
            [e[:2] for e in runtime] == [e[:2] for e in gdmap_map]:
        return "tie-order"
    return "differ"


def code_ranges(m):
    """[(begin RVA, size)] of a body: gdmap's "code" ({"rva", "size"} each)
    or the reference reader's ([begin, size] each)."""
    out = []
    for c in m.get("code") or []:
        if isinstance(c, dict):
            out.append((int(str(c["rva"]), 0), c["size"]))
        else:
            out.append((c[0], c[1]))
    return out


def runtime_owner(answer, address):
    """The code start (RVA) of the code version the runtime's answer places
    the address in, and the function described; (None, function) when none
    of its code ranges holds the address (the runtime's lookup walks back to
    the nearest method whose code it has prepared: for code that never ran,
    an earlier method)."""
    functions = answer.get("functions") or []
    fn3 = answer.get("fromIP3", {}).get("fn")
    functions = sorted(functions, key=lambda f: f.get("fn") != fn3)
    for f in functions:
        for cs in f.get("codeStarts") or []:
            if not cs.get("inImage") or not isinstance(cs.get("codeInfo4"), list):
                continue
            for start, size in cs["codeInfo4"]:
                if int(start, 16) <= address < int(start, 16) + size:
                    return int(cs["start"], 16), f
    return None, (functions[0] if functions else None)


def check_asks(asks_path, bodies_of, counts, details):
    """The profiler's ask answers (GDMAP_PROF_ASK): for every asked address,
    the body the runtime says owns it (GetFunctionFromIP3, then the code
    version whose GetCodeInfo4 ranges hold it) against the body whose code
    ranges hold it in the description (bodies_of(image) -> methods)."""
    # One answer per address (several runs): one whose code was prepared
    # when there is one.
    answers = {}
    for line in open(asks_path):
        if not line.strip():
            continue
        a = json.loads(line)
        if not a.get("loaded"):
            continue
        ask = a["ask"]
        key = (ask["image"], ask["rva"], ask["label"])
        address = int(ask["rva"], 16)
        start, f = runtime_owner(a, address)
        if key not in answers or (answers[key][1] is None and start is not None):
            answers[key] = (a, start, f)
    for key, (a, start, f) in answers.items():
        ask = a["ask"]
        address = int(ask["rva"], 16)
        what = "%s %s (%s)" % (ask["image"], ask["rva"], ask["label"])
        if start is None:
            counts["ask-not-prepared"] += 1
            named = "%s %s" % (f.get("token"), f.get("dynamicName", "")) if f else "nothing"
            details["ask-not-prepared"].append("%s: the runtime names %s, whose code does not hold it" % (what, named))
            continue
        methods = bodies_of(a["image"])
        owner = None
        for m in methods or []:
            if any(b <= address < b + n for b, n in code_ranges(m)):
                owner = m
                break
        runtime_text = "%s%s at 0x%x" % (f.get("token"), " " + f["dynamicName"] if f.get("dynamicName") else "", start)
        if owner is None:
            counts["ask-no-body"] += 1
            details["ask-no-body"].append("%s: runtime %s; no body holds it" % (what, runtime_text))
        elif code_ranges(owner)[0][0] == start:
            counts["ask-agree"] += 1
        else:
            counts["ask-differ"] += 1
            details["ask-differ"].append("%s: runtime %s; description %s %s at 0x%x" % (
                what, runtime_text, owner["token"], instantiation_text(owner.get("instantiation", {})),
                code_ranges(owner)[0][0]))


def main(argv):
    args = argv[1:]
    work, show, asks = None, 10, None
    while "--work" in args:
        i = args.index("--work")
        work = args[i + 1]
        del args[i:i + 2]
    while "--asks" in args:
        i = args.index("--asks")
        asks = args[i + 1]
        del args[i:i + 2]
    reference = "--reference" in args
    if reference:
        args.remove("--reference")
        args.insert(0, "-")
    while "--show" in args:
        i = args.index("--show")
        show = int(args[i + 1])
        del args[i:i + 2]
    if len(args) != 2:
        sys.stderr.write(__doc__)
        return 2
    gdmap, records_path = args
    work = work or tempfile.mkdtemp(prefix="gdmap-prof-")
    os.makedirs(work, exist_ok=True)

    records = [json.loads(line) for line in open(records_path) if line.strip()]
    by_image = collections.defaultdict(list)
    for r in records:
        by_image[r.get("image", "?")].append(r)

    counts = collections.Counter()
    details = collections.defaultdict(list)
    per_image = {}
    seen = set()
    for image, recs in sorted(by_image.items()):
        base = os.path.basename(image)
        desc = os.path.join(work, base + ".json")
        if reference:
            stats = collections.Counter()
            bodies = {b["rva"]: b for b in image_bodies(image)}
            for r in recs:
                key = record_key(r)
                if key in seen:
                    counts["duplicate"] += 1
                    continue
                seen.add(key)
                b = bodies.get(int(r["rva"], 16)) if r.get("r2r") and "map" in r else None
                if not r.get("r2r") or "map" not in r:
                    cls = "no-code"
                    details[cls].append("%s %s: no code version inside the image" % (base, r["token"]))
                elif b is None or b["bounds"] is None:
                    cls = "no-body"
                    details[cls].append("%s %s at RVA %s: no body with bounds" % (base, r["token"], r["rva"]))
                else:
                    got = api_from_bounds(b["bounds"], b["codeSize"])
                    cls = classify(r["map"], got)
                    if cls != "agree":
                        details[cls].append("%s %s (RVA %s):\n  runtime   %s\n  reference %s" %
                                            (base, r["token"], r["rva"], r["map"], got))
                counts[cls] += 1
                stats[cls] += 1
            per_image[base] = dict(stats)
            continue
        if not os.path.exists(desc):
            p = subprocess.run([gdmap, "il", "extract", image, "-o", desc], capture_output=True, text=True)
            if p.returncode != 0:
                msg = p.stderr.strip().splitlines()[-1] if p.stderr.strip() else "exit %d" % p.returncode
                for r in recs:
                    counts["not-extracted"] += 1
                    details["not-extracted"].append("%s %s: %s" % (base, r["token"], msg))
                continue
        methods = json.load(open(desc))["methods"]
        index = rva_index(methods, image)
        # A small description holding only the bodies the runtime ran, so
        # each lookup reads a few KB, not the whole image's description.
        wanted = sorted({index[int(r["rva"], 16)] for r in recs
                         if r.get("r2r") and "map" in r and int(r["rva"], 16) in index})
        subset = os.path.join(work, base + ".ran.json")
        with open(subset, "w") as f:
            json.dump({"methods": [methods[i] for i in wanted]}, f)
        tokens = collections.Counter(methods[i]["token"] for i in wanted)
        stats = collections.Counter()
        for r in recs:
            key = record_key(r)
            if key in seen:
                counts["duplicate"] += 1
                continue
            seen.add(key)
            if not r.get("r2r") or "map" not in r:
                cls = "no-code"
                details[cls].append("%s %s: %d code versions, none inside the image%s" %
                                    (base, r["token"], r.get("codeVersions", 0),
                                     " (mapError %s)" % r["mapError"] if "mapError" in r else ""))
            elif int(r["rva"], 16) not in index:
                cls = "no-body"
                details[cls].append("%s %s at RVA %s: no extracted body" % (base, r["token"], r["rva"]))
            else:
                m = methods[index[int(r["rva"], 16)]]
                got, err = lookup(gdmap, subset, m, tokens[m["token"]] > 1)
                if err:
                    cls = "lookup-failed"
                    details[cls].append("%s %s %s: %s" % (base, m["token"], instantiation_text(m.get("instantiation", {})), err))
                else:
                    cls = classify(r["map"], got)
                    if cls != "agree":
                        details[cls].append("%s %s %s (RVA %s, codeSize %s/%s):\n  runtime %s\n  gdmap   %s" %
                                            (base, m["token"], instantiation_text(m.get("instantiation", {})),
                                             r["rva"], r.get("codeSize"), m["codeSize"], r["map"], got))
                    if r.get("codeSize") is not None and r["codeSize"] != m["codeSize"]:
                        counts["codeSize-differs"] += 1
                        details["codeSize-differs"].append("%s %s RVA %s: runtime %s, gdmap %s" %
                                                           (base, m["token"], r["rva"], r["codeSize"], m["codeSize"]))
            counts[cls] += 1
            stats[cls] += 1
        per_image[base] = dict(stats)

    if asks:
        described = {}

        def bodies_of(image):
            if image not in described:
                if reference:
                    described[image] = image_bodies(image)
                else:
                    desc = os.path.join(work, os.path.basename(image) + ".json")
                    if not os.path.exists(desc):
                        subprocess.run([gdmap, "il", "extract", image, "-o", desc], capture_output=True)
                    described[image] = json.load(open(desc))["methods"] if os.path.exists(desc) else None
            return described[image]
        check_asks(asks, bodies_of, counts, details)

    compared = counts["agree"] + counts["tie-order"] + counts["differ"]
    print("records %d (%d images); compared %d: agree %d, tie-order %d, differ %d; "
          "not compared: no-code %d, no-body %d, not-extracted %d, lookup-failed %d; duplicates %d; "
          "code size differs %d" %
          (len(records), len(by_image), compared, counts["agree"], counts["tie-order"], counts["differ"],
           counts["no-code"], counts["no-body"], counts["not-extracted"], counts["lookup-failed"],
           counts["duplicate"], counts["codeSize-differs"]))
    if asks:
        print("asked addresses %d: owner agrees %d, differs %d; not compared: not prepared %d, no body %d" %
              (sum(counts[k] for k in ("ask-agree", "ask-differ", "ask-not-prepared", "ask-no-body")),
               counts["ask-agree"], counts["ask-differ"], counts["ask-not-prepared"], counts["ask-no-body"]))
    for base, stats in sorted(per_image.items()):
        print("  %-45s %s" % (base, " ".join("%s=%d" % kv for kv in sorted(stats.items()))))
    for cls in ("differ", "tie-order", "lookup-failed", "no-body", "no-code", "not-extracted", "codeSize-differs",
                "ask-differ", "ask-no-body", "ask-not-prepared"):
        for line in details[cls][:show]:
            print("%s: %s" % (cls, line))
        if len(details[cls]) > show:
            print("%s: ... %d more" % (cls, len(details[cls]) - show))
    bad = counts["differ"] + counts["lookup-failed"] + counts["not-extracted"] + counts["ask-differ"] + \
        counts["ask-no-body"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
