#!/usr/bin/env python3
"""Fails, naming the line, when docs/library.md names a header wrongly.

    check_headers.py SOURCE_ROOT [DOC.md]   (DOC.md: docs/library.md)

Every section of docs/library.md starts with a table of the headers it
uses, a row each: `| <gdmap/...> | component | gdmap::library | what it has |`.
A row is right when the header is a public header of that library (its
include/ folder), the library belongs to that component (its
gdmap_add_library call in a CMakeLists.txt), and every name in backticks in
the last cell is declared in the header (a word of it outside comments).
Every `##` section has such a table, and every installed header is named
by one: a reader always knows what to include and what to link.
"""
import glob
import os
import re
import sys

ROW = re.compile(r"^\| `<(gdmap/[^>]+)>` \| (\w+) \| `gdmap::(\w+)` \| (.*) \|\s*$")
LIBRARY = re.compile(r"gdmap_add_library\(\s*(\w+)([^)]*)\)", re.S)
COMPONENT = re.compile(r"\bCOMPONENT\s+(\w+)")
NAME = re.compile(r"`([A-Za-z_][\w:]*)[^`]*`")
WORD = re.compile(r"[A-Za-z_]\w*")


def libraries(root):
    """{library: (component, include folder)} from every gdmap_add_library call."""
    found = {}
    for cmake in glob.glob(os.path.join(root, "**", "CMakeLists.txt"), recursive=True):
        if os.path.relpath(cmake, root).split(os.sep)[0] in ("build", "examples"):
            continue
        with open(cmake, encoding="utf-8") as f:
            for m in LIBRARY.finditer(f.read()):
                component = COMPONENT.search(m.group(2))
                found[m.group(1)] = (component.group(1) if component else m.group(1),
                                     os.path.join(os.path.dirname(cmake), "include"))
    return found


def declared_words(path):
    """The words of a header outside comments."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    return set(WORD.findall(text))


def check(root, doc):
    libs = libraries(root)
    with open(doc, encoding="utf-8") as f:
        lines = f.read().split("\n")
    name = os.path.relpath(doc, root)
    problems, named = [], set()
    section, section_line, section_rows = None, 0, 0
    in_fence = False

    def end_section():
        if section is not None and section_rows == 0:
            problems.append(f"{name}:{section_line}: section '{section}' names no header "
                            "(a `| <gdmap/...> | component | gdmap::library | what it has |` table)")

    for n, line in enumerate(lines, 1):
        if line.startswith("```"):
            in_fence = not in_fence
        if in_fence:
            continue
        if line.startswith("## "):
            end_section()
            section, section_line, section_rows = line[3:], n, 0
            continue
        row = ROW.match(line)
        if not row:
            continue
        header, component, library, has = row.groups()
        section_rows += 1
        named.add(header)
        where = f"{name}:{n}: <{header}>"
        if library not in libs:
            problems.append(f"{where}: no library gdmap::{library}")
            continue
        owner, include = libs[library]
        if owner != component:
            problems.append(f"{where}: gdmap::{library} is in component '{owner}', not '{component}'")
        path = os.path.join(include, header)
        if not os.path.isfile(path):
            problems.append(f"{where}: not a public header of gdmap::{library} ({os.path.relpath(include, root)})")
            continue
        words = declared_words(path)
        for used in NAME.findall(has):
            if used.split("::")[-1] not in words:
                problems.append(f"{where}: declares no `{used}`")
    end_section()

    installed = glob.glob(os.path.join(root, "*", "include", "gdmap", "*", "*.h*")) + \
        glob.glob(os.path.join(root, "*", "*", "include", "gdmap", "*", "*.h*"))
    for path in sorted(installed):
        if os.path.relpath(path, root).split(os.sep)[0] in ("build", "examples"):
            continue
        header = "gdmap/" + "/".join(path.split(os.sep)[-2:])
        if header not in named:
            problems.append(f"{name}: no section names <{header}> ({os.path.relpath(path, root)})")
    return problems


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    root = sys.argv[1]
    doc = sys.argv[2] if len(sys.argv) == 3 else os.path.join(root, "docs", "library.md")
    problems = check(root, doc)
    for p in problems:
        print(p)
    if problems:
        sys.exit(1)
    print(f"every section of {os.path.relpath(doc, root)} names its headers, each right")


if __name__ == "__main__":
    main()
