#!/usr/bin/env python3
"""Runs the same few thousand gdmap invocations with two binaries and
compares everything they do: exit status, stdout, stderr and every file they
write. The check of a restructuring that must leave behaviour unchanged,
outputs byte for byte the same.

    tests/tools/same_outputs.py OLD_GDMAP NEW_GDMAP [--seed N] [--mutations K] [--jobs 2]

Inputs: every file of examples/ and tests/data/ (maps, map and IL
descriptions, ReadyToRun images, PDBs, perf captures), inputs derived from
them with OLD_GDMAP (the IL descriptions `il extract` writes, the blobs
`il build` writes, maps of generated descriptions), and, seeded, K
truncations and K single-byte flips of each binary input and K mutations of
each JSON description (a key deleted, a number or string changed, the syntax
broken, a value of another type).

Each invocation runs in /tmp/same_outputs/work/cNNNNN (--workdir), holding
copies of its inputs at their repository paths: first OLD_GDMAP, then the
folder is wiped and made again and NEW_GDMAP runs in the same place, so
relative and absolute paths in messages agree. Both run as `gdmap` (argv[0])
with LC_ALL=C, TZ=UTC, NO_COLOR=1, HOME and TMPDIR in the folder, stdin from
/dev/null unless the case feeds it, and a timeout (60 s; a timeout is a
difference only when one binary times out and the other does not).

Prints one line per difference (the command, what differed, the first
differing line of each side), then "N invocations, M identical, D differ"
and the counts per command family. Exit 0 only when nothing differs, 1 when
something does, 2 on a usage error. The list is the same on every run for a
seed (default 20240611) and the same OLD_GDMAP.
"""
import argparse
import concurrent.futures
import json
import os
import random
import shlex
import shutil
import signal
import struct
import subprocess
import sys
import time

DEFAULT_SEED = 20240611
FORMS = ["api", "nibble", "packed2", "packed3"]
BIG_FILE = 2 * 1024 * 1024  # inputs above this are skipped, but for a few images
BIG_IMAGES_KEPT = 2
NAMES_ASSEMBLY = "tests/data/pdb/sample.dll"  # an IL assembly, for --names
WORK_MARK = b"@WORK@"  # replaced in a templated input by the case's folder
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Type texts beyond tests/corpus/ilasm_types.txt: the ones it leaves out and
# broken ones, whose errors must be the same too.
EXTRA_TYPES = [
    "int32", "string", "object", "typedref", "void", "native int", "char&", "int32 pinned",
    "method void *(...)", "method explicit void *()", "method unmanaged void *()",
    "method generic(2) void *(!!0)", "class 0x1b000001<int32>", "valuetype 0x01000005",
    "class Sample.Helper", "valuetype Sample.Program", "class Sample.Nope",
    "__Canon", "class 0x01000012<int32", "int32[", "int32[1...0]", "bogus", "", " ",
    "class 0x00000000", "class 0x05000001", "!", "!!", "!-1", "!4294967296", "int32 modopt(",
    "method int32 *(int32", "class 0x01000012<>", "int32[,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,]",
    "string[][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][][]", "int32\tint32",
    "valuetype 0x01000020<string,int32>", "int32 modreq(0x01000001) modopt(0x01000002)",
]
EXTRA_HEX = ["08", "0e", "1d08", "1512490108", "1b00010808", "140801010500", "1e00", "1300", "1294bc",
             "119230", "", "0", "zz", "15", "1512", "15 12 49 01 08", "1D 08", "ff", "00", "41",
             "1b", "1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d08", "08 08", "0x08", "1f0108", "2008", "45"]
# The worked example of the IL format (tests/cli/il_cli.sh) in each form,
# and bytes the examples do not give: a count in two nibbles, a trailing
# byte, non-zero packed2 padding, an api array cut short.
HAND_BLOBS = {
    "worked.nibble": ("nibble", "062134620920090a95245900"),
    "worked.packed2": ("packed2", "3603424883618216d300"),
    "worked.packed3": ("packed3", "360382100d0c23a8623400"),
    "noncanonical.nibble": ("nibble", "68104223960092a05049920500"),
    "trailing.nibble": ("nibble", "062134620920090a9524590000"),
    "padding.packed2": ("packed2", "3603424883618216d380"),
    "short.api": ("api", "feffffff000000000400000000"),
}


class Case:
    """One invocation: the arguments after `gdmap`, the input files (relative
    path -> bytes; a templated one's WORK_MARK becomes the folder), stdin."""

    __slots__ = ("family", "kind", "args", "files", "templated", "stdin", "stdin_name", "env")

    def __init__(self, family, kind, args, files, stdin=None, stdin_name=None, env=None, templated=()):
        self.family, self.kind, self.args = family, kind, list(args)
        self.files, self.stdin, self.stdin_name = dict(files), stdin, stdin_name
        self.env, self.templated = dict(env or {}), frozenset(templated)

    def command(self):
        text = " ".join("%s=%s" % kv for kv in sorted(self.env.items()))
        text += (" " if text else "") + "gdmap " + shlex.join(self.args)
        if self.stdin is not None:
            text += " < " + (self.stdin_name or "(%d bytes)" % len(self.stdin))
        return text


class Repo:
    """The checked-in files, read once."""

    def __init__(self, root):
        self.root = root
        self.cache = {}

    def read(self, rel):
        if rel not in self.cache:
            with open(os.path.join(self.root, rel), "rb") as f:
                self.cache[rel] = f.read()
        return self.cache[rel]

    def files_under(self, *folders):
        found = []
        for folder in folders:
            for base, dirs, names in os.walk(os.path.join(self.root, folder)):
                dirs.sort()
                for name in names:
                    found.append(os.path.relpath(os.path.join(base, name), self.root))
        return sorted(found)


def fixed_env(folder, extra):
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LC_ALL": "C", "LANG": "C", "TZ": "UTC",
           "NO_COLOR": "1", "TERM": "dumb", "HOME": folder, "TMPDIR": os.path.join(folder, ".tmp")}
    env.update(extra)
    return env


def run_binary(binary, args, cwd, stdin=None, env=None, timeout=60):
    """(status, stdout, stderr); status is 'timeout' or the exit status
    (negative: the signal that ended it)."""
    proc = subprocess.Popen(["gdmap"] + list(args), executable=binary, cwd=cwd, env=env,
                            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = proc.communicate(stdin, timeout=timeout)
        return proc.returncode, out, err
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return "timeout", out, err


# --- derived inputs: what OLD_GDMAP writes from the checked-in ones ---------

class Prep:
    """Runs OLD_GDMAP (in the repository, writing only to stdout) to learn what
    the cases need: a map's RVAs, an image's methods, blobs, hex of types."""

    def __init__(self, binary, repo):
        self.binary, self.repo = binary, repo
        self.env = fixed_env("/tmp", {"TMPDIR": "/tmp"})

    def run(self, args, stdin=None):
        status, out, _ = run_binary(self.binary, args, self.repo.root, stdin, self.env)
        return status, out

    def json_of(self, args, stdin=None):
        status, out = self.run(args, stdin)
        try:
            return json.loads(out.decode("utf-8")) if out else None
        except ValueError:
            return None


# --- mutations ---------------------------------------------------------------

def truncations(data, k, rng):
    lengths = sorted(rng.sample(range(len(data)), min(k, len(data))))
    return [("trunc%d" % n, data[:n]) for n in lengths]


def flips(data, k, rng, head=4096):
    """K single-byte flips: half anywhere, half in the first HEAD bytes
    (headers and directories, where a flip changes what is read)."""
    found = []
    for i in range(min(k, len(data))):
        span = len(data) if i % 2 == 0 else min(len(data), head)
        pos = rng.randrange(span)
        value = data[pos] ^ rng.randrange(1, 256)
        found.append(("flip%x-%02x" % (pos, value), data[:pos] + bytes([value]) + data[pos + 1:]))
    return found


def json_nodes(node, path=()):
    yield path, node
    if isinstance(node, dict):
        for key in node:
            yield from json_nodes(node[key], path + (key,))
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from json_nodes(item, path + (i,))


def replace_at(doc, path, value):
    if not path:
        return value
    parent = doc
    for step in path[:-1]:
        parent = parent[step]
    if value is DELETE:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return doc


DELETE = object()
OTHER_VALUES = [None, True, False, 0, -1, 1.5, 4294967296, 1e300, "", "x", "0x", [], {}, [0], {"a": 1}]


def new_number(value, rng):
    if isinstance(value, str):  # "0x00001000", "0x5"
        n = int(value, 16) if value.lower().startswith("0x") else 0
        choice = rng.choice([n + 1, n - 1, n * 2, 0, 0xFFFFFFFF, 0x100000000, n + 0x10])
        return "0x%x" % choice if choice >= 0 else str(choice)
    return rng.choice([value + 1, value - 1, value * 2, 0, -1, 0xFFFFFFFF, 0x100000000, 2 ** 64, 0.5])


def new_string(value, rng):
    choices = ["", value + "x", value[:-1], value.upper(), "x" + value, value.replace("0", "g"),
               value + "<", "prolog", "epilog", "no_mapping", "int32", "0x06000001"]
    return rng.choice(choices)


def is_hex_number(node):
    return isinstance(node, str) and node.lower().startswith("0x")


def mutate_json(text, rng):
    """(name, bytes): one seeded mutation of a JSON text."""
    kind = rng.choice(["delete-key", "change-number", "change-string", "break-syntax", "swap-type"])
    try:
        doc = json.loads(text)
    except ValueError:
        kind = "break-syntax"
    if kind != "break-syntax":
        nodes = list(json_nodes(doc))
        if kind == "delete-key":
            picks = [p for p, _ in nodes if p and isinstance(p[-1], str)]
        elif kind == "change-number":
            picks = [p for p, n in nodes if (isinstance(n, (int, float)) and not isinstance(n, bool))
                     or is_hex_number(n)]
        elif kind == "change-string":
            picks = [p for p, n in nodes if isinstance(n, str)]
        else:
            picks = [p for p, _ in nodes]
        if picks:
            path = rng.choice(picks)
            node = dict(nodes)[path]
            if kind == "delete-key":
                value = DELETE
            elif kind == "change-number":
                value = new_number(node, rng)
            elif kind == "change-string":
                value = new_string(node, rng)
            else:
                value = rng.choice([v for v in OTHER_VALUES if type(v) is not type(node)])
            doc = replace_at(doc, path, value)
            where = "/".join(str(step) for step in path)
            return "%s@%s" % (kind, where.replace("/", ".") or "root"), \
                (json.dumps(doc, indent=2) + "\n").encode()
    return break_syntax(text, rng)


def break_syntax(text, rng):
    pos = rng.randrange(max(1, len(text)))
    how = rng.choice(["cut", "drop", "insert", "replace"])
    junk = rng.choice(list('{}[],:"x0-\\') + ["\x00", "\xff", "//", "\n"])
    if how == "cut":
        broken = text[:pos]
    elif how == "drop":
        broken = text[:pos] + text[pos + 1:]
    elif how == "insert":
        broken = text[:pos] + junk + text[pos:]
    else:
        broken = text[:pos] + junk + text[pos + 1:]
    return "syntax-%s%d" % (how, pos), broken.encode("utf-8", "surrogateescape")


def mutate_lines(data, k, rng):
    """K mutations of a text capture: a line dropped, doubled or cut."""
    lines = data.split(b"\n")
    found = []
    for _ in range(k):
        i = rng.randrange(len(lines))
        how = rng.choice(["drop", "double", "cut"])
        if how == "drop":
            new = lines[:i] + lines[i + 1:]
        elif how == "double":
            new = lines[:i + 1] + lines[i:]
        else:
            new = lines[:i] + [lines[i][:rng.randrange(len(lines[i]) + 1)]] + lines[i + 1:]
        found.append(("%s-line%d" % (how, i + 1), b"\n".join(new)))
    return found


def pe_sections(data):
    """[(rva, virtual size, file offset, executable)] of a PE file's sections,
    [] when its headers cannot be read."""
    try:
        pe = struct.unpack_from("<I", data, 0x3C)[0]
        if data[pe:pe + 4] != b"PE\0\0":
            return []
        count, optional = struct.unpack_from("<H12xH", data, pe + 6)
        table = pe + 24 + optional
        found = []
        for i in range(count):
            size, rva, _, offset = struct.unpack_from("<IIII", data, table + 40 * i + 8)
            flags = struct.unpack_from("<I", data, table + 40 * i + 36)[0]
            found.append((rva, size, offset, bool(flags & 0x20000000)))
        return found
    except struct.error:
        return []


def suffixed(rel, tag):
    stem, ext = os.path.splitext(rel)
    return "%s.%s%s" % (stem, tag, ext)


# --- the list of invocations -------------------------------------------------

class Plan:
    def __init__(self, repo, prep, seed, k):
        self.repo, self.prep, self.k = repo, prep, k
        self.rng = random.Random(seed)
        self.cases = []
        self.notes = []

    def add(self, family, kind, args, files, **extra):
        self.cases.append(Case(family, kind, args, files, **extra))

    def file(self, rel):
        return {rel: self.repo.read(rel)}

    def build(self):
        inputs = self.repo.files_under("examples", "tests/data")
        self.inputs = [rel for rel in inputs if not self.too_big(rel, inputs)]
        self.help_and_usage()
        self.maps()
        self.sig()
        descriptions, blobs = self.il()
        self.il_blobs(blobs)
        self.il_descriptions(descriptions, blobs)
        self.images()
        self.perf()
        return self.cases

    def too_big(self, rel, inputs):
        if os.path.getsize(os.path.join(self.repo.root, rel)) <= BIG_FILE:
            return False
        big_images = [r for r in inputs if r.endswith(".dll")
                      and os.path.getsize(os.path.join(self.repo.root, r)) > BIG_FILE]
        if rel in big_images[:BIG_IMAGES_KEPT]:
            return False
        self.notes.append("skipped (over 2 MB): " + rel)
        return True

    # help, version and usage errors
    def help_and_usage(self):
        commands = [[], ["sig", "encode"], ["sig", "decode"], ["build"], ["dump"], ["check"], ["verify"],
                    ["lookup"], ["hexdump"], ["diff"], ["il"], ["sig"]]
        commands += [["il", c] for c in ["build", "dump", "check", "verify", "convert", "lookup", "hexdump",
                                          "extract", "locate"]]
        for c in commands:
            self.add("help", "usage", c + ["--help"], {})
        desc = "examples/il/worked_example.json"
        usage = [["--version"], [], ["chek"], ["il"], ["sig"], ["check"], ["check", "--frobnicate", "x"],
                 ["lookup", "examples/maps/basic.gdmap"], ["lookup", "examples/maps/basic.gdmap", "0x1g"],
                 ["il", "build", desc, "--fromat", "api"], ["il", "build", desc, "--format", "zip"],
                 ["il", "build", desc], ["il", "build", desc, "--format", "nibble", "--method", "0x1g"],
                 ["il", "build", desc, "--format", "nibble", "--method", "4294967296"],
                 ["il", "lookup", desc, "--native", "4", "--il", "0"], ["il", "convert", "x", "--from", "api"],
                 ["check", "no-such.gdmap"], ["check", "examples"], ["check", "--max-diagnostics", "-1", "x"],
                 ["dump", "examples/maps/basic.gdmap", "--json"], ["build", "examples/maps/basic.json", "--json"],
                 ["il", "extract"], ["il", "locate"], ["il", "extract", "no-such.dll"],
                 ["il", "locate", "--base", "0x10", "--maps", "m", "x.dll", "1"], ["diff", "a"],
                 ["verify", "examples/maps/basic.json"], ["check", "-", "-"]]
        files = {}
        for rel in ["examples/maps/basic.gdmap", "examples/maps/basic.json", desc]:
            files.update(self.file(rel))
        for args in usage:
            self.add("usage", "usage", args, files)

    # dictionary maps and their descriptions
    def map_inputs(self):
        """[(map_rel, map_bytes, description_rel or None, description_bytes)]"""
        found = []
        for rel in self.inputs:
            if rel.endswith(".gdmap"):
                desc = rel[:-len(".gdmap")] + ".json"
                paired = desc if desc in self.inputs else None
                found.append((rel, self.repo.read(rel), paired, self.repo.read(paired) if paired else None))
        generator = os.path.join(self.repo.root, "tests/cli/lib/gen_description.py")
        if os.path.exists(generator):
            for seed, count, unsorted in [(self.rng.randrange(1 << 30), 40, False),
                                          (self.rng.randrange(1 << 30), 25, True)]:
                argv = [sys.executable, generator, str(seed), str(count)] + (["--unsorted"] if unsorted else [])
                text = subprocess.run(argv, capture_output=True, check=True).stdout
                status, built = self.prep.run(["build", "-"], text)
                name = "generated/maps/gen-%d%s" % (count, "-unsorted" if unsorted else "")
                if status == 0:
                    found.append((name + ".gdmap", built, name + ".json", text))
                else:
                    self.notes.append("OLD could not build %s.json (status %s)" % (name, status))
        return found

    def map_rvas(self, rel, data):
        doc = self.prep.json_of(["dump", "-"], data)
        rvas = [str(d.get("rva")) for d in (doc or {}).get("dictionaries", []) if isinstance(d, dict)]
        return [r if r.startswith("0x") else hex(int(r)) for r in rvas if r != "None"]

    def maps(self):
        names = self.file(NAMES_ASSEMBLY)
        entries = self.map_inputs()
        for rel, data, desc, text in entries:
            self.map_cases(rel, data, desc, text, names, "generated" if rel.startswith("generated/") else "input")
        # every pair of maps and descriptions: diff; every description against every map: verify
        items = [(rel, data) for rel, data, _, _ in entries] + [(d, t) for _, _, d, t in entries if d]
        for a, adata in items:
            for b, bdata in items:
                if a != b:
                    args = ["diff", a, b] + self.rng.choice([[], [], ["--json"], ["--all", "--context"]])
                    self.add("diff", "input", args, {a: adata, b: bdata})
        for rel, data, _, _ in entries:
            for _, _, desc, text in entries:
                if desc:
                    self.add("verify", "input", ["verify", desc, rel], {rel: data, desc: text})
        self.map_mutations(entries)

    def map_cases(self, rel, data, desc, text, names, kind):
        files = {rel: data}
        rvas = self.map_rvas(rel, data)
        for args in [["check", rel], ["check", "--json", rel], ["check", "--strict", rel],
                     ["check", "--strict", "--json", "--max-diagnostics", "1", rel],
                     ["dump", rel], ["dump", rel, "-o", "out.json"], ["dump", rel, "--json", "-o", "out.json"],
                     ["dump", rel, "-o", "-"], ["hexdump", rel], ["hexdump", "--json", rel]]:
            self.add(args[0], kind, args, files)
        for args in [["dump", rel, "--names", NAMES_ASSEMBLY], ["hexdump", rel, "--names", NAMES_ASSEMBLY]]:
            self.add(args[0], kind, args, {**files, **names})
        picks = rvas[:1] + self.rng.sample(rvas[1:], min(3, len(rvas[1:])))
        for rva in picks + ["0x0", "0xffffffff", "4096", "0x00001001"]:
            self.add("lookup", kind, ["lookup", rel, rva], files)
        if rvas:
            self.add("lookup", kind, ["lookup", "--json", rel, rvas[0]], files)
            self.add("lookup", kind, ["lookup", "--names", NAMES_ASSEMBLY, rel, rvas[0]], {**files, **names})
            self.add("lookup", kind, ["lookup", "-", rvas[-1]], {}, stdin=data, stdin_name=rel)
        for command in ["check", "dump", "hexdump"]:
            self.add(command, kind, [command, "-"], {}, stdin=data, stdin_name=rel)
        self.add("check", kind, ["check", "-"], {}, stdin=data, stdin_name=rel, env={"GDMAP_MAX_INPUT_SIZE": "16"})
        if not desc:
            return
        both = {rel: data, desc: text}
        for args in [["verify", "--json", desc, rel], ["verify", "--all", "--context", desc, rel]]:
            self.add("verify", kind, args, both)
        self.add("verify", kind, ["verify", "-", rel], files, stdin=text, stdin_name=desc)
        dfiles = {desc: text}
        for args in [["build", desc], ["build", desc, "-o", "out.gdmap"], ["build", desc, "--json", "-o", "out.gdmap"],
                     ["build", desc, "-o", "sub/out.gdmap"]]:
            self.add("build", kind, args, dfiles)
        self.add("build", kind, ["build", desc, "--names", NAMES_ASSEMBLY, "-o", "out.gdmap"], {**dfiles, **names})
        self.add("build", kind, ["build", "-", "-o", "out.gdmap"], {}, stdin=text, stdin_name=desc)
        self.add("dump", kind, ["dump", desc], dfiles)  # a description is no map

    def map_mutations(self, entries):
        for rel, data, desc, text in entries:
            rva = (self.map_rvas(rel, data) or ["0x1000"])[0]
            for tag, mutated in truncations(data, self.k, self.rng) + flips(data, self.k, self.rng):
                mrel = suffixed(rel, tag)
                files = {mrel: mutated}
                for args in [["check", mrel], ["check", "--json", mrel], ["dump", mrel], ["hexdump", mrel],
                             ["hexdump", "--json", mrel], ["lookup", mrel, rva]]:
                    self.add(args[0], "mutated", args, files)
                self.add("diff", "mutated", ["diff", rel, mrel], {**files, rel: data})
                if desc:
                    self.add("verify", "mutated", ["verify", desc, mrel], {**files, desc: text})
            if not desc:
                continue
            for i in range(self.k):
                tag, mutated = mutate_json(text.decode("utf-8"), self.rng)
                mrel = suffixed(desc, "m%d" % i)
                files = {mrel: mutated}
                for args in [["build", mrel, "-o", "out.gdmap"], ["build", mrel, "--json", "-o", "out.gdmap"]]:
                    self.add("build", "mutated", args, files)
                self.add("verify", "mutated", ["verify", mrel, rel], {**files, rel: data})
                self.add("diff", "mutated", ["diff", "--json", desc, mrel], {**files, desc: text})

    # sig encode / decode
    def sig(self):
        corpus = "tests/corpus/ilasm_types.txt"
        types = []
        if os.path.exists(os.path.join(self.repo.root, corpus)):
            for line in self.repo.read(corpus).decode("utf-8").splitlines():
                if line.strip() and not line.startswith(("#", "@")):
                    types.append(line)
        types += EXTRA_TYPES
        names = self.file(NAMES_ASSEMBLY)
        for t in types:
            self.add("sig encode", "input", ["sig", "encode", t], {})
        for i in range(0, len(types), 25):
            self.add("sig encode", "input", ["sig", "encode", "--json"] + types[i:i + 25], {})
        self.add("sig encode", "input", ["sig", "encode"], {}, stdin=("\n".join(types) + "\n").encode(),
                 stdin_name="(every type, one per line)")
        self.add("sig encode", "input", ["sig", "encode", "--json"], {}, stdin=("\n".join(types)).encode(),
                 stdin_name="(every type, no final newline)")
        named = [t for t in EXTRA_TYPES if "Sample." in t] + ["class 0x02000002", "int32"]
        self.add("sig encode", "input", ["sig", "encode", "--names", NAMES_ASSEMBLY] + named, names)
        self.add("sig encode", "input", ["sig", "encode", "--names", NAMES_ASSEMBLY, "--json"] + named, names)
        encoded = self.prep.json_of(["sig", "encode", "--json"] + types) or {}
        hexes = sorted({h for h in encoded.get("results", []) if h}) + EXTRA_HEX
        for h in self.rng.sample(hexes, min(120, len(hexes))) + EXTRA_HEX:
            self.add("sig decode", "input", ["sig", "decode", h], {})
        for i in range(0, len(hexes), 25):
            self.add("sig decode", "input", ["sig", "decode", "--json"] + hexes[i:i + 25], {})
        self.add("sig decode", "input", ["sig", "decode"], {}, stdin=("\n".join(hexes) + "\n").encode(),
                 stdin_name="(every hex, one per line)")
        for h in [h for h in hexes if len(h) >= 4][:20]:
            self.add("sig decode", "input", ["sig", "decode", "--names", NAMES_ASSEMBLY, h], names)
        valid = [h for h in hexes if len(h) >= 2 and all(c in "0123456789abcdef" for c in h)]
        for i in range(self.k * 8):
            h = bytes.fromhex(self.rng.choice(valid))
            tag, mutated = (truncations(h, 1, self.rng) if i % 2 else flips(h, 1, self.rng))[0]
            self.add("sig decode", "mutated", ["sig", "decode", mutated.hex()], {})

    # IL: the descriptions (checked-in and extracted) and blobs
    def il(self):
        """[(rel, bytes, doc)] of IL descriptions, [(rel, bytes, form, desc_rel, token, code_size)] of blobs."""
        descriptions = []
        for rel in self.inputs:
            if rel.startswith("examples/il/") and rel.endswith(".json"):
                descriptions.append((rel, self.repo.read(rel)))
        extra = "tests/cli/il/worked_example.json"
        if os.path.exists(os.path.join(self.repo.root, extra)):
            descriptions.append((extra, self.repo.read(extra)))
        for image in self.image_list():
            stem = os.path.splitext(image)[0].replace("tests/data/", "").replace("/", "_")
            for tag, options in [("", []), (".names", ["--names"]), (".api", ["--api", "--names"])]:
                if tag == ".api" and self.rng.random() < 0.7:
                    continue
                status, out = self.prep.run(["il", "extract", image] + options)
                if status == 0:
                    descriptions.append(("generated/il/%s%s.json" % (stem, tag), out))
        descriptions = [(rel, text, self.parse(text)) for rel, text in descriptions]
        blobs = []
        for rel, text, doc in descriptions:
            methods = self.methods_of(doc)
            small = not rel.startswith("generated/")
            if not small and (rel.endswith((".names.json", ".api.json")) or not methods):
                continue
            picks = methods if small else [self.rng.choice(methods)]
            for method in picks:
                forms = FORMS if small else self.rng.sample(FORMS, 2)
                for form in forms:
                    args = ["il", "build", "-", "--format", form] + self.method_options(method, doc)
                    status, out = self.prep.run(args, text)
                    if status == 0:
                        name = "generated/blobs/%s.%s.%s" % (os.path.basename(rel)[:-5], method["token"], form)
                        blobs.append((name, out, form, rel, method, method.get("codeSize"), small))
        for name, (form, hexa) in sorted(HAND_BLOBS.items()):
            blobs.append(("generated/blobs/" + name, bytes.fromhex(hexa), form, None, None, 40, True))
        return descriptions, blobs

    @staticmethod
    def parse(text):
        try:
            return json.loads(text)
        except ValueError:
            return None

    @staticmethod
    def methods_of(doc):
        methods = (doc or {}).get("methods", []) if isinstance(doc, dict) else []
        return [m for m in methods if isinstance(m, dict) and isinstance(m.get("token"), str)]

    @staticmethod
    def method_options(method, doc):
        """The options that choose METHOD alone in DOC."""
        same = [m for m in Plan.methods_of(doc) if m["token"] == method["token"]]
        if len(Plan.methods_of(doc)) == 1:
            return []
        if len(same) > 1 and method.get("code"):
            code = method["code"][0]
            return ["--address", code.get("rva") or code.get("address")]
        options = ["--method", method["token"]]
        if method.get("component"):
            options += ["--component", method["component"]]
        return options

    def il_blobs(self, blobs):
        for rel, data, form, _, _, code_size, small in blobs:
            files = {rel: data}
            other = self.rng.choice([f for f in FORMS if f != form])
            for args in [["il", "check", rel, "--format", form], ["il", "check", rel, "--format", form, "--strict"],
                         ["il", "check", rel, "--format", form, "--json", "--strict"],
                         ["il", "check", rel, "--format", form, "--max-diagnostics", "1"],
                         ["il", "check", rel, "--format", other, "--json"],
                         ["il", "dump", rel, "--format", form],
                         ["il", "dump", rel, "--format", form, "--token", "0x0600002a", "-o", "out.json"],
                         ["il", "dump", rel, "--format", form, "--json", "-o", "out.json"],
                         ["il", "hexdump", rel, "--format", form], ["il", "hexdump", rel, "--format", form, "--json"],
                         ["il", "hexdump", rel, "--format", other]]:
                self.add(" ".join(args[:2]), "input", args, files)
            if code_size is not None:
                self.add("il dump", "input", ["il", "dump", rel, "--format", form, "--code-size", str(code_size)],
                         files)
            for to in FORMS:
                args = ["il", "convert", rel, "--from", form, "--to", to, "-o", "out.bin"]
                if to == "api" and code_size is not None:
                    args += ["--code-size", str(code_size)]
                self.add("il convert", "input", args, files)
            self.add("il convert", "input", ["il", "convert", rel, "--from", form, "--to", other, "--json",
                                              "-o", "out.bin"], files)
            self.add("il check", "input", ["il", "check", "-", "--format", form], {}, stdin=data, stdin_name=rel)
            self.add("il dump", "input", ["il", "dump", "-", "--format", form], {}, stdin=data, stdin_name=rel)
            if not small:
                continue
            for n, (tag, mutated) in enumerate(truncations(data, self.k, self.rng) + flips(data, self.k, self.rng)):
                mrel = suffixed(rel, tag)
                mfiles = {mrel: mutated}
                mutated_args = [["il", "check", mrel, "--format", form, "--json", "--strict"],
                                ["il", "dump", mrel, "--format", form], ["il", "hexdump", mrel, "--format", form]]
                if n % 2:
                    mutated_args.append(["il", "convert", mrel, "--from", form, "--to", other, "--code-size", "64"])
                for args in mutated_args:
                    self.add(" ".join(args[:2]), "mutated", args, mfiles)

    def il_descriptions(self, descriptions, blobs):
        by_desc = {}
        for blob in blobs:
            if blob[3]:
                by_desc.setdefault(blob[3], []).append(blob)
        for rel, text, doc in descriptions:
            files = {rel: text}
            kind = "generated" if rel.startswith("generated/") else "input"
            methods = self.methods_of(doc)
            self.add("il lookup", kind, ["il", "lookup", rel], files)
            self.add("il lookup", kind, ["il", "lookup", rel, "--json"], files)
            self.add("il lookup", kind, ["il", "lookup", "-"], {}, stdin=text, stdin_name=rel)
            picks = methods if kind == "input" else methods[:1] + self.rng.sample(methods[1:], min(1, len(methods) - 1))
            extras = [[], ["--capacity", "1"], ["--capacity", "0"], ["--native", "4"], ["--il", "0"],
                      ["--il", "prolog"], ["--il", "epilog"], ["--json", "--native", "0x10"]]
            for method in picks:
                choose = self.method_options(method, doc)
                choose_token = ["--method", method["token"]]
                for extra in extras if kind == "input" else [[]] + self.rng.sample(extras[1:], 3):
                    self.add("il lookup", kind, ["il", "lookup", rel] + choose + extra, files)
                self.add("il lookup", kind, ["il", "lookup", rel] + choose_token, files)
                if method.get("name"):
                    self.add("il lookup", kind, ["il", "lookup", rel, "--method", method["name"]], files)
                if method.get("signature"):
                    self.add("il lookup", kind, ["il", "lookup", rel, "--method", method["signature"], "--json"],
                             files)
                for form in FORMS:
                    self.add("il build", kind, ["il", "build", rel, "--format", form] + choose + ["-o", "out.bin"],
                             files)
                self.add("il build", kind, ["il", "build", rel, "--format", "packed3"] + choose, files)
                self.add("il build", kind, ["il", "build", rel, "--format", "nibble", "--json"] + choose
                         + ["-o", "out.bin"], files)
                self.add("il build", kind, ["il", "build", rel, "--format", "api"] + choose_token
                         + ["-o", "out.bin"], files)
            self.add("il lookup", kind, ["il", "lookup", rel, "--method", "0x06ffffff"], files)
            self.add("il lookup", kind, ["il", "lookup", rel, "--method", "No.Such::Method"], files)
            for blob_rel, data, form, _, method, _, _ in by_desc.get(rel, []):
                choose = self.method_options(method, doc)
                both = {rel: text, blob_rel: data}
                self.add("il verify", kind, ["il", "verify", rel, blob_rel, "--format", form] + choose, both)
                self.add("il verify", kind, ["il", "verify", rel, blob_rel, "--format", form, "--json"] + choose,
                         both)
                wrong = FORMS[(FORMS.index(form) + 1) % 4]
                self.add("il verify", kind, ["il", "verify", rel, blob_rel, "--format", wrong] + choose, both)
            self.il_description_mutations(rel, text, doc, by_desc.get(rel, []))

    def il_description_mutations(self, rel, text, doc, blobs):
        if rel.startswith("generated/") and self.rng.random() < 0.75:
            return
        methods = self.methods_of(doc)
        for i in range(self.k):
            tag, mutated = mutate_json(text.decode("utf-8"), self.rng)
            mrel = suffixed(rel, "m%d" % i)
            files = {mrel: mutated}
            method = self.rng.choice(methods) if methods else {"token": "0x06000001"}
            choose = self.method_options(method, doc) if methods else []
            form = self.rng.choice(FORMS)
            self.add("il build", "mutated", ["il", "build", mrel, "--format", form] + choose + ["-o", "out.bin"], files)
            self.add("il build", "mutated", ["il", "build", mrel, "--format", form, "--json"] + choose
                     + ["-o", "out.bin"], files)
            self.add("il lookup", "mutated", ["il", "lookup", mrel], files)
            self.add("il lookup", "mutated", ["il", "lookup", mrel, "--json"] + choose, files)
            if blobs:
                blob_rel, data, bform, _, bmethod, _, _ = self.rng.choice(blobs)
                self.add("il verify", "mutated", ["il", "verify", mrel, blob_rel, "--format", bform]
                         + self.method_options(bmethod, doc), {**files, blob_rel: data})

    # ReadyToRun images, PDBs and process memory maps
    def image_list(self):
        return [rel for rel in self.inputs if rel.endswith(".dll")]

    def bundle(self, image):
        """The image and what may be read beside it (its folder's .dll and .pdb files)."""
        folder = os.path.dirname(image)
        return {rel: self.repo.read(rel) for rel in self.inputs
                if os.path.dirname(rel) == folder and rel.endswith((".dll", ".pdb"))}

    def image_rvas(self, image):
        doc = self.prep.json_of(["il", "extract", image]) or {}
        rvas = []
        for method in self.methods_of(doc):
            for code in method.get("code", []):
                start, size = int(code.get("rva", "0"), 16), code.get("size", 0)
                rvas += [start, start + 1, start + size // 2, start + size - 1, start + size]
        rvas = sorted(set(rvas))
        picked = sorted(self.rng.sample(rvas, min(10, len(rvas))))
        return ["0x%x" % r for r in picked], doc

    def images(self):
        names_doc = {}
        for image in self.image_list():
            files = self.bundle(image)
            rvas, doc = self.image_rvas(image)
            named = self.prep.json_of(["il", "extract", image, "--names"]) or {}
            names_doc[image] = named
            self.image_cases(image, files, rvas, doc, named)
            self.image_mutations(image, files, rvas)
        for rel in self.inputs:
            if rel.endswith(".target"):  # not images: located refusals
                self.add("il extract", "input", ["il", "extract", rel], self.file(rel))
                self.add("il locate", "input", ["il", "locate", rel, "0x1000"], self.file(rel))
        self.pdb_mutations()

    def pdb_for(self, image):
        stem = os.path.splitext(image)[0]
        for pdb in [stem + ".pdb", os.path.join(os.path.dirname(image), "sample.pdb")]:
            if pdb in self.inputs:
                return pdb
        return None

    def image_cases(self, image, files, rvas, doc, named):
        kind = "input"
        extract = [[], ["--json", "-o", "out.json"], ["--names"], ["--api"], ["--lines"], ["--strict"],
                   ["--names", "--api", "--lines", "-o", "out.json"], ["-o", "-"], ["--lines", "--names", "--json",
                                                                                   "-o", "sub/x.json"]]
        methods = self.methods_of(doc)
        if methods:
            extract += [["--method", methods[0]["token"]], ["--method", methods[-1]["token"], "--api"]]
        for method in self.methods_of(named)[:2]:
            extract.append(["--method", method["name"]])
            extract.append(["--method", method.get("signature", method["name"]), "--json", "-o", "o.json"])
        extract.append(["--method", "0x06ffffff"])
        pdb = self.pdb_for(image)
        if pdb:
            extract += [["--pdb", pdb], ["--pdb", pdb, "--names", "--json", "-o", "out.json"]]
        components = sorted({m.get("component") for m in methods if m.get("component")})
        for c in (components + ["1", "Nope"]) if components else []:
            extract.append(["--component", c])
        if "/composite/" in image and not image.endswith(".r2r.dll"):
            composite = os.path.join(os.path.dirname(image), "Sample.r2r.dll")
            extract += [["--composite", composite], ["--composite", image]]
        for options in extract:
            self.add("il extract", kind, ["il", "extract", image] + options, files)
        self.add("il extract", kind, ["il", "extract", "-"], {}, stdin=files[image], stdin_name=image)
        self.add("il extract", kind, ["il", "extract", "-", "--names"], files, stdin=files[image], stdin_name=image)
        addresses = rvas + ["0x0", "0x10", "0xffffffff"]
        locate = [[], ["--json"], ["--names"], ["--no-lines"], ["--return-addresses"], ["--names", "--json",
                                                                                        "--return-addresses"],
                  ["--strict"]]
        if pdb:
            locate += [["--pdb", pdb], ["--pdb", pdb, "--json"]]
        for options in locate:
            self.add("il locate", kind, ["il", "locate", image] + addresses + options, files)
        for rva in rvas[:3]:
            self.add("il locate", kind, ["il", "locate", image, rva, "--names"], files)
        self.add("il locate", kind, ["il", "locate", image, "0x1g"], files)
        self.add("il locate", kind, ["il", "locate", image], files)
        base = 0x7F0000000000
        absolute = ["0x%x" % (base + int(r, 16)) for r in addresses]
        self.add("il locate", kind, ["il", "locate", image, "--base", hex(base)] + absolute, files)
        self.add("il locate", kind, ["il", "locate", image, "--base", hex(base), "--json", "0x10"] + absolute, files)
        listing = ("\n".join(addresses) + "\n").encode()
        self.add("il locate", kind, ["il", "locate", image, "--input", "addresses.txt"],
                 {**files, "addresses.txt": listing})
        self.add("il locate", kind, ["il", "locate", image, "--input", "-", "--json"], files, stdin=listing,
                 stdin_name="(the addresses)")
        self.add("il locate", kind, ["il", "locate", image, "--names"], files, stdin=listing,
                 stdin_name="(the addresses)")
        self.add("il locate", kind, ["il", "locate", "-", rvas[0] if rvas else "0x1000"], {}, stdin=files[image],
                 stdin_name=image)
        maps = self.maps_text(image, files[image], base)
        mfiles = {**files, "proc.maps": maps}
        self.add("il locate", kind, ["il", "locate", "--maps", "proc.maps"] + absolute + ["0x7f0000900000"], mfiles,
                 templated=["proc.maps"])
        self.add("il locate", kind, ["il", "locate", "--maps", "proc.maps", "--json", "--names"] + absolute, mfiles,
                 templated=["proc.maps"])
        self.add("il locate", kind, ["il", "locate", image, "--maps", "proc.maps", "--return-addresses"] + absolute,
                 mfiles, templated=["proc.maps"])
        relative = {**files, "rel.maps": self.maps_text(image, files[image], base, absolute=False)}
        self.add("il locate", kind, ["il", "locate", "--maps", "rel.maps"] + absolute, relative)

    @staticmethod
    def maps_text(image, data, base, absolute=True):
        """/proc/PID/maps as a profiler saves it: each PE section of the image
        mapped at BASE + its RVA from its file offset, as the runtime maps a
        ReadyToRun image (the whole file from offset 0 when the headers cannot
        be read), then an anonymous mapping and the stack."""
        path = (WORK_MARK + b"/" + image.encode()) if absolute else image.encode()
        lines = [b"%x-%x r--p 00000000 fe:00 4242 %s" % (base, base + 0x1000, path)]
        sections = pe_sections(data)
        for rva, size, offset, executable in sections:
            start, end = (rva & ~0xFFF), (rva + max(size, 1) + 0xFFF) & ~0xFFF
            lines.append(b"%x-%x r%sp %08x fe:00 4242 %s" % (base + start, base + end, b"-x" if executable else b"w-",
                                                          max(0, offset - (rva - start)), path))
        if not sections:
            lines.append(b"%x-%x r-xp 00000000 fe:00 4242 %s" % (base + 0x1000, base + 0x800000, path))
        lines += [b"%x-%x rw-p 00000000 00:00 0" % (base + 0x900000, base + 0x901000),
                  b"7ffc00000000-7ffc00021000 rw-p 00000000 00:00 0 [stack]"]
        return b"\n".join(lines) + b"\n"

    def image_mutations(self, image, files, rvas):
        data = files[image]
        addresses = (rvas[:3] or ["0x1000"]) + ["0x10"]
        for tag, mutated in truncations(data, self.k, self.rng) + flips(data, self.k, self.rng):
            mrel = suffixed(image, tag)
            mfiles = {**files, mrel: mutated}
            del mfiles[image]
            self.add("il extract", "mutated", ["il", "extract", mrel], mfiles)
            self.add("il extract", "mutated", ["il", "extract", mrel, "--names", "--lines"], mfiles)
            self.add("il locate", "mutated", ["il", "locate", mrel, "--names", "--json"] + addresses, mfiles)

    def pdb_mutations(self):
        for pdb in [rel for rel in self.inputs if rel.endswith(".pdb")]:
            images = [rel for rel in self.image_list() if os.path.dirname(rel) == os.path.dirname(pdb)
                      and self.methods_of(self.prep.json_of(["il", "extract", rel]))]
            if not images:
                continue
            image = images[0]
            rvas, _ = self.image_rvas(image)
            data = self.repo.read(pdb)
            for tag, mutated in truncations(data, self.k, self.rng) + flips(data, self.k, self.rng):
                mrel = suffixed(pdb, tag)
                files = {image: self.repo.read(image), mrel: mutated}
                self.add("il extract", "mutated", ["il", "extract", image, "--pdb", mrel], files)
                self.add("il locate", "mutated", ["il", "locate", image, "--pdb", mrel, "--json"] + rvas[:4], files)

    # Linux perf captures
    def perf(self):
        for rel in [r for r in self.inputs if r.startswith("tests/data/perf/") and r.endswith(".txt")]:
            data = self.repo.read(rel)
            images = {r: self.repo.read(r) for r in self.inputs
                      if r.startswith("tests/data/perf/") and r.endswith((".dll", ".pdb"))}
            # the capture as recorded (its paths name files that are not here) and
            # with the published folder moved to where the case's copy is
            moved = data.replace(b"/tmp/st/perfpub", WORK_MARK + b"/tests/data/perf")
            mrel = suffixed(rel, "here")
            for options in [[], ["--json"], ["--names"], ["--no-lines"]]:
                self.add("il locate", "input", ["il", "locate", "--perf-script", rel] + options, {rel: data})
                self.add("il locate", "input", ["il", "locate", "--perf-script", mrel] + options,
                         {**images, mrel: moved}, templated=[mrel])
            self.add("il locate", "input", ["il", "locate", "--perf-script", "-"], images, stdin=data,
                     stdin_name=rel)
            for tag, mutated in mutate_lines(moved, self.k, self.rng) + flips(moved, self.k, self.rng):
                trel = suffixed(rel, tag)
                self.add("il locate", "mutated", ["il", "locate", "--perf-script", trel, "--names"],
                         {**images, trel: mutated}, templated=[trel])


# --- running and comparing ---------------------------------------------------

class Outcome:
    __slots__ = ("status", "stdout", "stderr", "files")


def materialize(case, folder):
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(os.path.join(folder, ".tmp"))
    written = {}
    for rel, data in case.files.items():
        if rel in case.templated:
            data = data.replace(WORK_MARK, folder.encode())
        path = os.path.join(folder, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        written[rel] = data
    return written


def written_files(folder, inputs):
    """Every file (and folder) that is not an unchanged input: path -> bytes
    with its mode, or a note."""
    found = {}
    for base, dirs, names in os.walk(folder):
        dirs.sort()
        for name in dirs:
            rel = os.path.relpath(os.path.join(base, name), folder)
            if rel != ".tmp" and not any(r.startswith(rel + "/") for r in inputs):
                found[rel + "/"] = b"(a folder)"
        for name in sorted(names):
            path = os.path.join(base, name)
            rel = os.path.relpath(path, folder)
            if os.path.islink(path):
                found[rel] = b"(a link to %s)" % os.readlink(path).encode()
                continue
            with open(path, "rb") as f:
                data = f.read()
            if inputs.get(rel) != data:
                found[rel] = b"(mode %o) " % (os.stat(path).st_mode & 0o7777) + data
    for rel in inputs:
        if not os.path.exists(os.path.join(folder, rel)):
            found[rel] = b"(deleted)"
    return found


def run_case(binary, case, folder, timeout):
    inputs = materialize(case, folder)
    outcome = Outcome()
    env = fixed_env(folder, case.env)
    outcome.status, outcome.stdout, outcome.stderr = run_binary(binary, case.args, folder, case.stdin, env, timeout)
    outcome.files = written_files(folder, inputs)
    shutil.rmtree(folder, ignore_errors=True)
    return outcome


def first_difference(a, b):
    """'line N: old: ... | new: ...' for two byte strings."""
    la, lb = a.split(b"\n"), b.split(b"\n")
    for i in range(max(len(la), len(lb))):
        x = la[i] if i < len(la) else None
        y = lb[i] if i < len(lb) else None
        if x != y:
            return "line %d: old: %s | new: %s" % (i + 1, show(x), show(y))
    return "same lines"


def show(line, limit=160):
    if line is None:
        return "(no such line)"
    text = repr(line)[2:-1]
    return text if len(text) <= limit else text[:limit] + "..."


def compare(old, new):
    """[what differed, ...]"""
    found = []
    if (old.status == "timeout") != (new.status == "timeout"):
        found.append("timeout: old %s, new %s" % (describe(old.status), describe(new.status)))
        return found
    if old.status == "timeout":
        return found
    if old.status != new.status:
        found.append("exit status: old %s | new %s" % (describe(old.status), describe(new.status)))
    for stream in ["stdout", "stderr"]:
        a, b = getattr(old, stream), getattr(new, stream)
        if a != b:
            found.append("%s %s" % (stream, first_difference(a, b)))
    for rel in sorted(set(old.files) | set(new.files)):
        a, b = old.files.get(rel), new.files.get(rel)
        if a is None or b is None:
            found.append("file %s: written only by %s" % (rel, "new" if a is None else "old"))
        elif a != b:
            found.append("file %s %s" % (rel, first_difference(a, b)))
    return found


def describe(status):
    if status == "timeout":
        return "timed out"
    return "killed by signal %d" % -status if status < 0 else "exit %d" % status


def parse_options():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old", metavar="OLD_GDMAP")
    parser.add_argument("new", metavar="NEW_GDMAP")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED,
                        help="the seed of the mutations (default %(default)s)")
    parser.add_argument("--mutations", type=int, default=6, metavar="K",
                        help="truncations, flips and JSON mutations per input (default %(default)s)")
    parser.add_argument("--jobs", type=int, default=2, help="invocations run at once (default %(default)s)")
    parser.add_argument("--timeout", type=float, default=60, help="seconds per run (default %(default)s)")
    parser.add_argument("--workdir", default="/tmp/same_outputs", help="where the cases run (default %(default)s)")
    parser.add_argument("--root", default=ROOT, help="the source tree (default: this script's)")
    parser.add_argument("--only", metavar="TEXT", help="run only the invocations whose command holds TEXT")
    parser.add_argument("--list", action="store_true", help="print the invocations, run none")
    options = parser.parse_args()
    for binary in [options.old, options.new]:
        if not os.access(binary, os.X_OK):
            parser.error("%s is not an executable" % binary)
    options.old, options.new = os.path.abspath(options.old), os.path.abspath(options.new)
    return options


def run_all(cases, options):
    """Runs [(number, case)] and prints a line per difference; returns
    {family: [count, differing, {kind: count}]}, both-timeouts, crashes."""
    work = os.path.join(options.workdir, "work")
    shutil.rmtree(work, ignore_errors=True)

    def one(item):
        i, case = item
        folder = os.path.join(work, "c%05d" % i)
        a = run_case(options.old, case, folder, options.timeout)
        b = run_case(options.new, case, folder, options.timeout)
        return compare(a, b), (a.status == "timeout" and b.status == "timeout"), \
            any(isinstance(s, int) and s < 0 for s in (a.status, b.status))

    totals, both_timeouts, crashes, differing = {}, 0, 0, 0
    with concurrent.futures.ThreadPoolExecutor(max(1, options.jobs)) as pool:
        for n, (diffs, timeout, crash) in enumerate(pool.map(one, cases)):
            i, case = cases[n]
            tally = totals.setdefault(case.family, [0, 0, {}])
            tally[0] += 1
            tally[2][case.kind] = tally[2].get(case.kind, 0) + 1
            both_timeouts += timeout
            crashes += crash
            if diffs:
                differing += 1
                tally[1] += 1
                for what in diffs:
                    print("DIFF c%05d %s: %s" % (i, case.command(), what), flush=True)
            if (n + 1) % 500 == 0:
                print("  ... %d/%d (%d differ)" % (n + 1, len(cases), differing), file=sys.stderr, flush=True)
    shutil.rmtree(work, ignore_errors=True)
    return totals, both_timeouts, crashes


def main():
    options = parse_options()
    os.umask(0o022)
    started = time.monotonic()
    repo = Repo(os.path.abspath(options.root))
    plan = Plan(repo, Prep(options.old, repo), options.seed, options.mutations)
    cases = list(enumerate(plan.build()))  # numbered before --only, so cNNNNN names one case
    if options.only:
        cases = [(i, c) for i, c in cases if options.only in c.command()]
    for note in plan.notes:
        print("note: " + note, file=sys.stderr)
    if options.list:
        for i, case in cases:
            print("c%05d [%s, %s] %s" % (i, case.family, case.kind, case.command()))
        return 0
    print("%d invocations (seed %d, %d mutations), inputs derived with %s; running..." %
          (len(cases), options.seed, options.mutations, options.old), file=sys.stderr, flush=True)
    totals, both_timeouts, crashes = run_all(cases, options)
    differing = sum(tally[1] for tally in totals.values())
    print("%d invocations, %d identical, %d differ" % (len(cases), len(cases) - differing, differing))
    for family in sorted(totals):
        count, differ, kinds = totals[family]
        detail = ", ".join("%s %d" % kv for kv in sorted(kinds.items()))
        print("  %-11s %5d invocations, %5d identical, %d differ (%s)" % (family, count, count - differ, differ,
                                                                         detail))
    if both_timeouts or crashes:
        print("  (%d timed out with both binaries; %d ended by a signal with either)" % (both_timeouts, crashes))
    print("  %.0f s, seed %d, %d mutations per input" % (time.monotonic() - started, options.seed, options.mutations))
    return 1 if differing else 0


if __name__ == "__main__":
    sys.exit(main())
