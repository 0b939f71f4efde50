#!/usr/bin/env python3
"""The runtime's own stack traces as the judge of `gdmap il locate`.

    judge.py GDMAP APP_DLL PROFILER_SO WORKDIR [--label TEXT] [--dotnet-root ROOT]

Runs the program of app/ (published ReadyToRun, APP_DLL) twice under the R2R
profiler of tests/r2r/profiler (PROFILER_SO):

- run A, to exit: the profiler's records give, for every method whose
  ReadyToRun code ran, the RVA of that code as the runtime itself placed it
  (GetCodeInfo4), per instantiation;
- run B, kept waiting: its frames (OUT.jsonl), a copy of its /proc/PID/maps,
  and `gdmap il locate --pid PID` answered while it lives.

Each frame of run B becomes an absolute address: the method body's code
start + GetNativeOffset(). The code start of an exception's frame is the IP
the runtime stored in Exception._stackTrace minus the native offset; of a
live frame, the image's base (run B's maps) + the RVA run A's records give
for that method and instantiation (run B's records must give the same). A
frame is judged only when its code is the ReadyToRun code the profiler saw
run (one code version, the address inside its ranges).

Which offset the runtime looked up (DebugStackTrace::Element::InitPass2,
src/coreclr/vm/debugdebugger.cpp): the native offset itself when the stored
IP was already stepped back (STEF_IP_ADJUSTED: every frame of an exception
but the one that faulted) or the offset is 0, else offset - 1 (a live
trace's frames hold return addresses; a hardware fault's frame holds the
faulting instruction and is still looked up at offset - 1). So the judge
asks gdmap `--return-addresses` for the frames the runtime stepped back
itself and exactly (no flag) for the frames whose stored IP was already
stepped back.

gdmap is asked in three ways, each answer compared: IMAGE --base BASE,
--maps MAPS (run B's maps) and --pid PID (live). For each frame: the method
(token) and the offset into it must be the frame's, "ilOffset" must be
GetILOffset(), and "source" must be GetFileName(), GetFileLineNumber() and
GetFileColumnNumber() (no file: no source). Prints one summary line per
way and every disagreement; exit 1 on any disagreement or when nothing was
compared.
"""
import argparse
import json
import os
import subprocess
import sys

PROFILER_CLSID = "{6D1B2F3A-8C4E-4E2B-9A7D-1F0C5E3B2A91}"


def fail(message):
    print("judge: " + message, file=sys.stderr)
    sys.exit(1)


def app_environment(profiler, records, dotnet_root):
    env = dict(os.environ)
    env.update({
        "CORECLR_ENABLE_PROFILING": "1",
        "CORECLR_PROFILER": PROFILER_CLSID,
        "CORECLR_PROFILER_PATH": profiler,
        "GDMAP_PROF_OUT": records,
        "DOTNET_ReadyToRun": "1",
        "DOTNET_TieredPGO": "0",
    })
    if dotnet_root:
        env["DOTNET_ROOT"] = dotnet_root
        env["DOTNET_MULTILEVEL_LOOKUP"] = "0"
    return env


def muxer(dotnet_root):
    return os.path.join(dotnet_root, "dotnet") if dotnet_root else "dotnet"


def run_to_exit(app, profiler, work, dotnet_root):
    frames, records = os.path.join(work, "frames.a.jsonl"), os.path.join(work, "records.a.jsonl")
    for path in (frames, records):
        if os.path.exists(path):
            os.remove(path)
    result = subprocess.run([muxer(dotnet_root), app, frames], stdin=subprocess.DEVNULL, capture_output=True, text=True,
                            env=app_environment(profiler, records, dotnet_root), timeout=300)
    if result.returncode != 0 or not os.path.exists(records):
        fail("run A failed (%d):\n%s%s" % (result.returncode, result.stdout, result.stderr))
    return load_jsonl(frames), load_jsonl(records)


def load_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def parse_maps(text):
    """(begin, end, perms, offset, path) of each mapping of a file."""
    out = []
    for line in text.splitlines():
        parts = line.split(None, 5)
        if len(parts) < 6 or not parts[5].startswith("/"):
            continue
        begin, end = (int(x, 16) for x in parts[0].split("-"))
        out.append((begin, end, parts[1], int(parts[2], 16), parts[5].strip()))
    return out


def image_bases(maps):
    """Where the loader mapped each image: its lowest private mapping at file
    offset 0 (the headers; the sections follow). A shared mapping of the
    whole file (r--s, the runtime's flat view of it) is not the image."""
    bases = {}
    for begin, _, perms, offset, path in maps:
        if offset == 0 and perms.endswith("p") and (path not in bases or begin < bases[path]):
            bases[path] = begin
    return bases


def type_key(t):
    """A profiler TYPE (or a hint) as a comparable key."""
    if not isinstance(t, dict):
        return str(t)
    if "array" in t:
        return ("array", t.get("rank"), type_key(t.get("of")))
    return (os.path.basename(t.get("module", "")), t.get("typeDef"), tuple(type_key(a) for a in t.get("args", [])))


class Records:
    """The profiler's R2R records, by image file name and token."""

    def __init__(self, records):
        self.by_method = {}
        self.by_rva = {}
        for r in records:
            if not r.get("r2r") or "rva" not in r:
                continue
            key = (os.path.basename(r["image"]), r["token"])
            self.by_method.setdefault(key, []).append(r)
            self.by_rva[(os.path.basename(r["image"]), int(r["rva"], 16))] = r

    def candidates(self, frame):
        key = (os.path.basename(frame["module"]), frame["token"])
        found = self.by_method.get(key, [])
        if "classHint" in frame:
            hint = tuple(type_key(t) for t in frame["classHint"])
            found = [r for r in found if tuple(type_key(a) for a in r["class"].get("args", [])) == hint]
        if "methodHint" in frame:
            hint = tuple(type_key(t) for t in frame["methodHint"])
            found = [r for r in found if tuple(type_key(a) for a in r.get("methodArgs", [])) == hint]
        return found


def inside(record, rva):
    return any(int(start, 16) <= rva < int(start, 16) + size for start, size in record["codeRanges"])


def place_frames(frames, records, bases):
    """Each frame with its absolute address and the lookup gdmap is asked for, or why it is not judged."""
    placed, skipped = [], {}

    def skip(reason):
        skipped[reason] = skipped.get(reason, 0) + 1

    for f in frames:
        if "token" not in f:
            skip("no method")
            continue
        base = bases.get(f["module"])
        if base is None:
            skip("module not mapped from a file")
            continue
        name = os.path.basename(f["module"])
        if "rawIp" in f:
            start = int(f["rawIp"], 16) - f["nativeOffset"]
            record = records.by_rva.get((name, start - base))
            if record is None:
                skip("not ReadyToRun code (exception frame)")
                continue
            if record["token"] != f["token"]:
                skip("exception frame's code is another method's")
                continue
        else:
            generic = f["typeArgs"] or f["methodArgs"]
            if generic and "classHint" not in f and "methodHint" not in f:
                # StackFrame names the generic definition: which
                # instantiation's code ran is not known.
                skip("instantiation unknown (live frame of generic code)")
                continue
            found = records.candidates(f)
            if not found:
                skip("not ReadyToRun code (live frame)")
                continue
            if len(found) > 1:
                skip("instantiation unknown (live frame of generic code)")
                continue
            record = found[0]
            start = base + int(record["rva"], 16)
        if record.get("codeVersions", 1) != 1:
            skip("method has other code versions")
            continue
        if not inside(record, start - base + f["nativeOffset"]):
            skip("offset outside the method's code")
            continue
        # The runtime's rule: no further step back when the stored IP was
        # already adjusted (STEF_IP_ADJUSTED, flag 2), else offset - 1.
        adjusted = (f.get("rawFlags", 0) & 2) != 0
        g = dict(f)
        g["address"] = start + f["nativeOffset"]
        g["lookupKind"] = "exact" if adjusted else "return"
        g["codeStart"] = start
        g["record"] = record
        placed.append(g)
    return placed, skipped


def gdmap_answers(command, frames):
    """gdmap's JSON answer for each frame, in order (two calls: exact and return addresses)."""
    answers = [None] * len(frames)
    for kind in ("exact", "return"):
        picked = [i for i, f in enumerate(frames) if f["lookupKind"] == kind]
        if not picked:
            continue
        args = command + (["--return-addresses"] if kind == "return" else []) + [hex(frames[i]["address"]) for i in picked]
        result = subprocess.run(args + ["--json"], capture_output=True, text=True, timeout=300)
        try:
            doc = json.loads(result.stdout)
        except ValueError:
            fail("%s gave no JSON (%d):\n%s" % (" ".join(args[:6]), result.returncode, result.stderr))
        addresses = doc.get("addresses", [])
        if len(addresses) != len(picked):
            fail("%s answered %d of %d addresses:\n%s" % (" ".join(args[:6]), len(addresses), len(picked), result.stderr))
        for i, a in zip(picked, addresses):
            answers[i] = a
    return answers


def il_number(value):
    """gdmap's "ilOffset" as the number a stack trace prints (prolog and no mapping: 0)."""
    if value is None:
        return None
    if isinstance(value, int):
        return value
    if value in ("prolog", "no_mapping"):
        return 0
    try:
        return int(value, 16)
    except ValueError:
        return value


def method_of(answer):
    method = answer.get("method") or {}
    return method.get("token")


def compare(frame, answer):
    """The disagreements of gdmap's answer with the runtime's frame."""
    problems = []
    if answer is None or not answer.get("method"):
        return ["in no method"]
    if method_of(answer) != frame["token"]:
        problems.append("method %s, the runtime's %s" % (method_of(answer), frame["token"]))
    if answer.get("offset") != frame["nativeOffset"]:
        problems.append("offset %s, the runtime's %d" % (answer.get("offset"), frame["nativeOffset"]))
    il = il_number(answer.get("ilOffset"))
    if il != frame["ilOffset"]:
        problems.append("IL %s (%s), the runtime's %d" % (il, answer.get("ilOffset"), frame["ilOffset"]))
    source = answer.get("source")
    if frame["file"] is None:
        if source is not None:
            problems.append("source %s, the runtime's none" % json.dumps(source))
    elif source is None:
        problems.append("no source, the runtime's %s:%d:%d" % (frame["file"], frame["line"], frame["column"]))
    elif (source.get("document"), source.get("line"), source.get("column")) != (frame["file"], frame["line"],
                                                                                   frame["column"]):
        problems.append("source %s:%s:%s, the runtime's %s:%d:%d" % (source.get("document"), source.get("line"),
                                                                     source.get("column"), frame["file"],
                                                                     frame["line"], frame["column"]))
    return problems


def describe(frame):
    inst = frame.get("classHint") or frame.get("methodHint")
    return "%s #%d %s::%s%s %s+%d (%s lookup)" % (frame["scenario"], frame["index"], frame["type"], frame["method"],
                                                  "<hint %s>" % json.dumps(inst) if inst else "",
                                                  frame["token"], frame["nativeOffset"], frame["lookupKind"])


def self_checks(frames_a, frames_b):
    """What must hold before anything is compared: both runs alike, throw lines as the source says."""
    strip = ("rawIp",)
    a = [{k: v for k, v in f.items() if k not in strip} for f in frames_a]
    b = [{k: v for k, v in f.items() if k not in strip} for f in frames_b]
    if a != b:
        fail("runs A and B captured different frames (offsets, IL offsets or lines differ)")
    for f in frames_b:
        if "expectedLine" in f and f["file"] and f["line"] != f["expectedLine"]:
            fail("the runtime's line of %s is %d, the throw is on line %d" % (f["scenario"], f["line"],
                                                                               f["expectedLine"]))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("gdmap")
    parser.add_argument("app")
    parser.add_argument("profiler")
    parser.add_argument("work")
    parser.add_argument("--label", default="")
    parser.add_argument("--dotnet-root", default="")
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)

    frames_a, records_a = run_to_exit(args.app, args.profiler, args.work, args.dotnet_root)

    frames_path, records_b_path = os.path.join(args.work, "frames.b.jsonl"), os.path.join(args.work, "records.b.jsonl")
    for path in (frames_path, records_b_path):
        if os.path.exists(path):
            os.remove(path)
    child = subprocess.Popen([muxer(args.dotnet_root), args.app, frames_path], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env=app_environment(args.profiler, records_b_path, args.dotnet_root))
    try:
        ready = child.stdout.readline().split()
        if len(ready) != 3 or ready[0] != "ready":
            fail("run B did not say ready: %r %s" % (ready, child.stderr.read()))
        pid = ready[1]
        with open("/proc/%s/maps" % pid) as f:
            maps_text = f.read()
        maps_path = os.path.join(args.work, "maps.b.txt")
        with open(maps_path, "w") as f:
            f.write(maps_text)
        maps = parse_maps(maps_text)
        bases = image_bases(maps)
        if bases.get(os.path.realpath(args.app)) != int(ready[2], 16):
            fail("the program's own base %s is not its maps' (%s)" % (ready[2], bases.get(os.path.realpath(args.app))))
        frames_b = load_jsonl(frames_path)
        self_checks(frames_a, frames_b)
        placed, skipped = place_frames(frames_b, Records(records_a), bases)
        answers = {"pid": gdmap_answers([args.gdmap, "il", "locate", "--pid", pid], placed)}
    finally:
        child.stdin.close()
        child.wait(timeout=120)
    records_b = Records(load_jsonl(records_b_path))
    for f in placed:
        again = records_b.by_rva.get((os.path.basename(f["module"]), f["codeStart"] - bases[f["module"]]))
        if again is None or again["token"] != f["token"]:
            fail("run B's profiler has no ReadyToRun code of %s at %#x" % (describe(f), f["codeStart"]))

    answers["maps"] = gdmap_answers([args.gdmap, "il", "locate", "--maps", maps_path], placed)
    by_image = {}
    for i, f in enumerate(placed):
        by_image.setdefault(f["module"], []).append(i)
    answers["base"] = [None] * len(placed)
    for image, indexes in by_image.items():
        subset = [placed[i] for i in indexes]
        got = gdmap_answers([args.gdmap, "il", "locate", image, "--base", hex(bases[image])], subset)
        for i, a in zip(indexes, got):
            answers["base"][i] = a

    with open(os.path.join(args.work, "answers.json"), "w") as f:
        json.dump([{"frame": {k: v for k, v in frame.items() if k != "record"}, "answers": {w: answers[w][i] for w in answers}}
                   for i, frame in enumerate(placed)], f, indent=1)
    status = 0
    with_source = sum(1 for f in placed if f["file"])
    for way in ("base", "maps", "pid"):
        bad = [(f, compare(f, a)) for f, a in zip(placed, answers[way])]
        bad = [(f, p) for f, p in bad if p]
        print("stacktrace %s --%s: %d frames compared (%d with source lines), %d agree, %d differ" %
              (args.label, way, len(placed), with_source, len(placed) - len(bad), len(bad)))
        for f, problems in bad:
            print("  differs: %s: %s" % (describe(f), "; ".join(problems)))
        if bad:
            status = 1
    own = [f for f in placed if f["module"] == os.path.realpath(args.app)]
    kinds = {k: sum(1 for f in own if frame_kind(f) == k) for k in ("live", "exception", "faulted")}
    print("stacktrace %s: %d frames captured, %d judged (the program's %d: %d live, %d of exceptions, %d faulted; "
          "the framework's %d); not judged: %s" %
          (args.label, len(frames_b), len(placed), len(own), kinds["live"], kinds["exception"], kinds["faulted"],
           len(placed) - len(own), ", ".join("%s %d" % kv for kv in sorted(skipped.items())) or "none"))
    # The program's own code must be judged, every kind of frame of it:
    # else its ReadyToRun code did not run (e.g. an image the runtime
    # refused) and the judge would say little.
    if len(own) < 60 or 0 in kinds.values():
        fail("too few of the program's own frames judged: %d (%s)" % (len(own), kinds))
    sys.exit(status)


def frame_kind(frame):
    if frame["kind"] == "live":
        return "live"
    return "faulted" if frame["faulted"] else "exception"


if __name__ == "__main__":
    main()
