#!/usr/bin/env python3
"""The tree is the dependency graph (docs/architecture.md): checks it.

    check_layering.py SOURCE_ROOT

Reads every library folder's CMakeLists.txt (its gdmap_add_library call:
NAME, DEPENDS, PRIVATE_DEPENDS) and every #include of the folder's sources,
and fails, naming file and line, when
- a library includes a public header of a library it does not depend on
  (directly or through the libraries it depends on);
- a quoted include names a header that is not beside the including file
  (a private header of another folder, or a path that climbs with ".."),
  or, in tools/gdmap, not at that path from tools/gdmap;
- nlohmann/json is included outside description/ and tools/, or CLI11
  outside tools/gdmap, or CLI11 by more than one translation unit;
- a pair of libraries that must stay apart is joined (the IL descriptions
  never use the map descriptions, the JSON machinery neither format).
"""
import os
import re
import sys

LIBRARY_CALL = re.compile(r"gdmap_add_library\(\s*(\w+)([^)]*)\)", re.S)
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)


def libraries(root):
    """{name: (folder, set of direct dependency names)} from the CMakeLists."""
    found = {}
    for folder, _, files in os.walk(root):
        rel = os.path.relpath(folder, root)
        if rel.split(os.sep)[0] in ("build", "tests", "fuzz", "bench", "examples", ".git"):
            continue
        if "CMakeLists.txt" not in files:
            continue
        with open(os.path.join(folder, "CMakeLists.txt"), encoding="utf-8") as f:
            text = re.sub(r"#[^\n]*", "", f.read())
        for m in LIBRARY_CALL.finditer(text):
            deps = set(re.findall(r"gdmap::(\w+)", m.group(2)))
            found[m.group(1)] = (rel, deps)
    return found


# Libraries that must never use one another, even when each is allowed the
# layer below: (user, used, why).
APART = [
    ("description_il", "description_map", "the IL descriptions never use the map descriptions"),
    ("description_json", "description_map", "the JSON machinery knows no description format"),
    ("description_json", "description_il", "the JSON machinery knows no description format"),
]


def closure(libs, name, seen=None):
    seen = set() if seen is None else seen
    for dep in libs[name][1]:
        if dep in libs and dep not in seen:
            seen.add(dep)
            closure(libs, dep, seen)
    # An aggregate component (gdmap::reader, gdmap::writer) stands for every
    # library of its layer.
    for dep in list(libs[name][1]):
        if dep not in libs:
            for other, (folder, _) in libs.items():
                if folder.split(os.sep)[0] == dep and other not in seen:
                    seen.add(other)
                    closure(libs, other, seen)
    return seen


def public_headers(root, libs):
    """{'gdmap/reader/map_view.hpp': library name}."""
    owner = {}
    for name, (folder, _) in libs.items():
        for sub in ("include", "internal"):
            base = os.path.join(root, folder, sub)
            for d, _, files in os.walk(base):
                for f in files:
                    owner[os.path.relpath(os.path.join(d, f), base)] = name
    return owner


def sources(root, folder):
    base = os.path.join(root, folder)
    for d, subdirs, files in os.walk(base):
        # A nested library folder is checked as its own library.
        if d != base and os.path.exists(os.path.join(d, "CMakeLists.txt")):
            subdirs[:] = []
            continue
        for f in files:
            if f.endswith((".cpp", ".hpp", ".h", ".c")):
                yield os.path.join(d, f)


def main():
    root = os.path.abspath(sys.argv[1])
    libs = libraries(root)
    owner = public_headers(root, libs)
    problems = []
    cli_units = []

    cli_root = os.path.join(root, "tools", "gdmap")

    def check(path, allowed_libs, layer):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for m in INCLUDE.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            where = f"{os.path.relpath(path, root)}:{line}"
            kind, header = m.group(1), m.group(2)
            if kind == '"':
                # The CLI's folders include each other's headers by their
                # path from tools/gdmap; a library only its own, beside it.
                base = cli_root if layer == "tools" else os.path.dirname(path)
                if ".." in header.split("/") or not os.path.exists(os.path.join(base, header)):
                    problems.append(f"{where}: \"{header}\" is not a header of this folder")
                continue
            if header.startswith("nlohmann/") and layer not in ("description", "tools"):
                problems.append(f"{where}: <{header}> outside description/ and tools/")
            if header.startswith("CLI/"):
                if layer != "tools":
                    problems.append(f"{where}: <{header}> outside tools/gdmap")
                elif path.endswith(".cpp"):
                    cli_units.append(where)
                else:
                    problems.append(f"{where}: <{header}> in a header reaches every file that includes it")
            lib = owner.get(header)
            if lib is not None and allowed_libs is not None and lib not in allowed_libs:
                problems.append(f"{where}: <{header}> belongs to gdmap::{lib}, which this library does not use")

    for user, used, why in APART:
        if user not in libs or used not in libs:
            problems.append(f"gdmap::{user} or gdmap::{used} is gone: update APART in {os.path.basename(__file__)}")
        elif used in closure(libs, user):
            problems.append(f"{libs[user][0]}/CMakeLists.txt: gdmap::{user} uses gdmap::{used}: {why}")
    for name, (folder, _) in sorted(libs.items()):
        allowed = closure(libs, name) | {name}
        for path in sources(root, folder):
            check(path, allowed, folder.split(os.sep)[0])
    for path in sources(root, os.path.join("tools", "gdmap")):
        check(path, None, "tools")

    if len(cli_units) > 1:
        problems.append("CLI11 is compiled in more than one translation unit: " + ", ".join(cli_units))
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} layering problem(s); docs/architecture.md says what goes where")
        return 1
    print(f"layering: {len(libs)} libraries, every include goes down the graph")
    return 0


if __name__ == "__main__":
    sys.exit(main())
