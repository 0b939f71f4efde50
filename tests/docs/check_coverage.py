#!/usr/bin/env python3
"""Fails, naming them, when a public function is used by no compiled example.

    check_coverage.py SOURCE_ROOT NM GENERATED_CPP OBJECT...

The public functions are read off the installed headers (HEADER_GLOBS) by a
small scanner: comments, strings and preprocessor lines removed, function
bodies skipped, namespaces, classes and access labels followed; every
declaration with a parameter list at namespace scope or in a public part of
a class is a function, named with its namespaces and classes
(`gdmap::MapView::open`); overloads count as one name.

"Used" is what the compiler says, not what the text seems to say: the
examples are compiled at -O0 (no inlining), so every function they call,
inline or not, is a symbol of their object files (`nm -C`). A name written in
a snippet but not called (in a comment, or another class's `open`) does not
count. Two kinds of functions leave no symbol and are matched by a call of
their name in the generated source instead: constexpr ones (folded at
compile time) and virtual ones (called through the interface).
"""
import glob
import os
import re
import subprocess
import sys

HEADER_GLOBS = [
    "schema/include/gdmap/schema/*.hpp",
    "writer/*/include/gdmap/writer/*.hpp",
    "reader/*/include/gdmap/reader/*.hpp",
    "reader/*/include/gdmap/reader/*.h",
    "reader/metadata/include/gdmap/metadata/*.hpp",
    "reader/pdb/include/gdmap/pdb/*.hpp",
    "description/*/include/gdmap/description/*.hpp",
    "io/include/gdmap/io/*.hpp",
    "symbolize/include/gdmap/symbolize/*.hpp",
    "symbolize/include/gdmap/symbolize/*.h",
]

# Not API, so not required in an example. Each entry says why.
EXCLUDED_NAMESPACES = ("detail",)  # implementation details of a header
EXCLUDED = {
    # Operators, destructors, defaulted/deleted and copy/move members are
    # filtered by the scanner; these are the rest:
}

IDENT = re.compile(r"[A-Za-z_]\w*")


def strip(text):
    """Source without comments, string/char literals and preprocessor lines."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            i = text.find("\n", i)
            i = n if i < 0 else i
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
            out.append(" ")
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "\n".join(l for l in "".join(out).split("\n") if not l.lstrip().startswith("#"))


def skip_braces(text, i):
    """Index just past the '}' matching the '{' at text[i]."""
    depth = 0
    while i < len(text):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return i


def angle_free(text):
    """`text` with template argument lists removed (`a<b<c>>::d` -> `a::d`)."""
    prev = None
    while prev != text:
        prev, text = text, re.sub(r"<[^<>()]*>", "", text)
    return text


def strip_template_arguments(text):
    """`text` without <...> lists, parentheses inside them included."""
    out, depth = [], 0
    for c in text:
        if c == "<":
            depth += 1
        elif c == ">" and depth > 0:
            depth -= 1
        elif depth == 0:
            out.append(c)
    return "".join(out)


ACCESS = re.compile(r"^\s*(public|private|protected)\s*:(?!:)")
CLASS = re.compile(r"\b(class|struct|union)\s+(?:\[\[[^\]]*\]\]\s*)?(\w+)\s*(?:final\s*)?(?::[^{]*)?$")


def function_name(stmt, scope):
    """(name, constexpr, virtual) when `stmt` declares a public function."""
    s = " ".join(stmt.split())
    if not s or "(" not in s:
        return None
    if re.match(r"(using|typedef|static_assert|_Static_assert|friend|return)\b", s):
        return None
    if re.search(r"\boperator\b", s):
        return None  # operators are not called by name
    s = strip_template_arguments(s)
    if "(" not in s:
        return None  # a member like std::function<void(int)> f
    head = s[: s.index("(")]
    if "=" in head or "~" in head:
        return None
    if re.search(r"=\s*(default|delete)\s*$", s) or re.search(r"\)\s*=\s*(default|delete)", s):
        return None
    m = re.search(r"(\w+)\s*$", head)
    if not m:
        return None
    name = m.group(1)
    before = head[: m.start()].strip()
    words = [w for w in IDENT.findall(before) if w not in ("static", "inline", "explicit", "virtual",
                                                           "constexpr", "nodiscard", "const")]
    classes = [n for kind, n, _ in scope if kind == "class"]
    is_ctor = bool(classes) and name == classes[-1] and not words
    if not words and not is_ctor:
        return None  # a call or macro-like statement, not a declaration
    if is_ctor:
        params = s[s.index("(") + 1:]
        if re.search(r"\b" + name + r"\s*&", params):
            return None  # copy or move constructor
    return name, "constexpr" in before.split(), "virtual" in before.split()


def scan(text):
    """{qualified name: (constexpr, virtual)} of the public functions in `text`."""
    text = strip(text)
    found = {}
    scope = []  # (kind, name, public?) for namespaces, classes, extern blocks
    stmt = []
    i = 0
    while i < len(text):
        c = text[i]
        if c in ";{}":
            s = "".join(stmt)
            stmt = []
            while True:  # access labels end with ':', not ';'
                m = ACCESS.match(s)
                if not m:
                    break
                if scope and scope[-1][0] == "class":
                    scope[-1] = ("class", scope[-1][1], m.group(1) == "public")
                s = s[m.end():]
            public = all(p for kind, _, p in scope if kind == "class")
            hidden = any(kind == "namespace" and set(n.split("::")) & set(EXCLUDED_NAMESPACES) for kind, n, _ in scope)
            if c == "}":
                if scope:
                    scope.pop()
                i += 1
                continue
            if c == "{":
                ns = re.search(r"\bnamespace\s+([\w:]*)\s*$", s)
                cls = CLASS.search(s)
                if ns:
                    scope.append(("namespace", ns.group(1) or "(anonymous)", True))
                    i += 1
                    continue
                if re.search(r"\bextern\s*\W*$", s) or re.search(r"\bextern\s*\"\"\s*$", s):
                    scope.append(("extern", "", True))
                    i += 1
                    continue
                if cls and not re.search(r"\benum\b", s) and "(" not in s:
                    scope.append(("class", cls.group(2), cls.group(1) != "class"))
                    i += 1
                    continue
                # a function body or a braced initializer: skip it
                if public and not hidden:
                    f = function_name(s, scope)
                    if f:
                        record(found, scope, f)
                i = skip_braces(text, i)
                continue
            if public and not hidden:
                f = function_name(s, scope)
                if f:
                    record(found, scope, f)
            i += 1
            continue
        stmt.append(c)
        i += 1
    return found


def record(found, scope, f):
    name, constexpr, virtual = f
    parts = [n for kind, n, _ in scope if kind in ("namespace", "class")] + [name]
    q = "::".join(parts)
    old = found.get(q, (False, False))
    found[q] = (old[0] or constexpr, old[1] or virtual)


def used_symbols(nm, objects):
    out = subprocess.run([nm, "-C"] + objects, check=True, capture_output=True, text=True).stdout
    used = set()
    for line in out.splitlines():
        m = re.match(r"^\s*(?:[0-9a-fA-F]+\s+)?[A-Za-z?-]\s+(.*)$", line)  # [value] type name
        if not m:
            continue
        symbol = re.sub(r"\[abi:\w+\]", "", m.group(1))
        if symbol.startswith(("vtable for", "typeinfo", "guard variable", "VTT for")):
            continue
        symbol = angle_free(symbol)
        cut = symbol.find("(")
        if cut > 0:
            symbol = symbol[:cut]
        used.add(symbol.split(" ")[-1])
    return used


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    root, nm, generated_cpp, objects = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
    declared = {}
    for pattern in HEADER_GLOBS:
        for path in sorted(glob.glob(os.path.join(root, pattern))):
            with open(path, encoding="utf-8") as f:
                for q, kinds in scan(f.read()).items():
                    declared.setdefault(q, (path, kinds))
    # A scanner that stopped seeing declarations would pass everything: it
    # must at least see these, of every kind it handles (free, static,
    # nested class, constructor, C, overloaded).
    for sentinel in ("gdmap::parseType", "gdmap::MapView::open", "gdmap::il::BoundsView::Cursor::next",
                     "gdmap::MapBuilder::MapBuilder", "gdmap_get_il_to_native_mapping",
                     "gdmap::metadata::AssemblyTypeNames::tokenOf", "gdmap::formatType"):
        if sentinel not in declared:
            sys.exit(f"check_coverage.py: the header scan no longer finds {sentinel}: fix the scanner")
    used = used_symbols(nm, objects)
    if "gdmap::parseType" not in used:
        sys.exit("check_coverage.py: no gdmap call in the symbols of " + " ".join(objects) + ": is nm working?")
    with open(generated_cpp, encoding="utf-8") as f:
        generated = f.read()
    missing = []
    for q, (path, (constexpr, virtual)) in sorted(declared.items()):
        if q in EXCLUDED or q in used:
            continue
        if (constexpr or virtual) and re.search(r"\b" + q.split("::")[-1] + r"\s*\(", generated):
            continue
        missing.append(f"{os.path.relpath(path, root)}: {q}")
    print(f"{len(declared)} public functions, {len(declared) - len(missing)} used by the examples")
    if missing:
        print("used by no compiled example of docs/library.md:")
        print("\n".join("  " + m for m in missing))
        sys.exit(1)


if __name__ == "__main__":
    main()
