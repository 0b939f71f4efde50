#!/usr/bin/env python3
"""Turns every ```cpp block of a Markdown file into a compiled, run example.

    extract_examples.py DOC.md OUT.cpp [--program DIR [TARGET...]]

Convention (invisible to a reader of the rendered page):
  - every ```cpp fence is one example: the body of a function
    `int example_LINE()` that returns 0 unless the snippet returns otherwise;
    fences in other languages (cmake, c, text) are left alone;
  - an HTML comment `<!-- example-setup ... -->` right before the fence
    (blank lines allowed) is code run before the snippet: the inputs it
    assumes (`buffer`, `rva`, ...);
  - an HTML comment `<!-- example-check ... -->` right after the fence is
    code run after it: `expect(cond)` for what the text around the snippet
    says the snippet gives;
  - `<!-- example-global ... -->` anywhere: code at namespace scope, before
    every example (a class a snippet implements, a helper it calls).
`#line` directives make a compiler error or a failed expect() name the
line of DOC.md it comes from. Each example runs in the harness (harness.hpp);
the program fails when one returns non-zero or an expect() fails.

One fence is a complete program instead: ```cpp program, compiled as
written, with a ```cmake fence right before it (its CMakeLists.txt) and a
```text fence right after it (what it prints). With --program, they are
written to DIR as main.cpp, CMakeLists.txt and expected.txt, for a build
that links the TARGETs, which must be the ones the CMake lines link: the
program is built against the libraries its text names, and no others.
"""
import os
import re
import sys

FENCE = re.compile(r"^```(\S*)(?:[ \t]+(\S+))?\s*$")
COMMENT = re.compile(r"^<!--\s*example-(setup|check|global)\s*$")


def parse(lines):
    """[(kind, first_line, text)] for fences and example comments, in order."""
    items = []
    i = 0
    while i < len(lines):
        line = lines[i]
        fence = FENCE.match(line)
        comment = COMMENT.match(line)
        if fence:
            lang = fence.group(1)
            start = i + 1
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                i += 1
            if i == len(lines):
                sys.exit(f"line {start}: a ``` fence is not closed")
            if fence.group(2):
                lang += " " + fence.group(2)
            items.append(("fence:" + lang, start + 1, lines[start:i]))
        elif comment:
            start = i + 1
            i += 1
            while i < len(lines) and lines[i].strip() != "-->":
                i += 1
            if i == len(lines):
                sys.exit(f"line {start}: an example-{comment.group(1)} comment is not closed by a line '-->'")
            items.append((comment.group(1), start + 1, lines[start:i]))
        elif line.strip() and not line.lstrip().startswith("<!--"):
            items.append(("text", i + 1, None))
        i += 1
    return items


def block(first_line, body, doc):
    return f'#line {first_line} "{doc}"\n' + "".join(l + "\n" for l in body)


def write_if_changed(path, text):
    """Writes text to path unless it holds it already (no needless rebuild)."""
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except OSError:
        pass
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def linked_targets(cmake_lines):
    """The gdmap:: targets a CMakeLists.txt's target_link_libraries names."""
    text = " ".join(cmake_lines)
    return sorted(t for call in re.findall(r"target_link_libraries\(([^)]*)\)", text)
                  for t in call.split() if t.startswith("gdmap::"))


def write_program(items, doc, out_dir, targets):
    """The ```cpp program fence, its CMake lines and its output, into out_dir."""
    at = [n for n, item in enumerate(items) if item[0] == "fence:cpp program"]
    if len(at) != 1:
        sys.exit(f"{doc}: {len(at)} ```cpp program fences, not one")
    n = at[0]
    line, body = items[n][1], items[n][2]
    if n == 0 or items[n - 1][0] != "fence:cmake":
        sys.exit(f"{doc}:{line}: the program has no ```cmake fence (its CMakeLists.txt) right before it")
    if n + 1 == len(items) or items[n + 1][0] != "fence:text":
        sys.exit(f"{doc}:{line}: the program has no ```text fence (what it prints) right after it")
    cmake, expected = items[n - 1][2], items[n + 1][2]
    if targets and linked_targets(cmake) != sorted(targets):
        sys.exit(f"{doc}:{items[n - 1][1]}: the program's CMake lines link {' '.join(linked_targets(cmake))}; "
                 f"tests/docs/CMakeLists.txt builds it with {' '.join(sorted(targets))}: make them the same")
    os.makedirs(out_dir, exist_ok=True)
    write_if_changed(os.path.join(out_dir, "main.cpp"), block(line, body, doc))
    write_if_changed(os.path.join(out_dir, "CMakeLists.txt"), "".join(l + "\n" for l in cmake))
    write_if_changed(os.path.join(out_dir, "expected.txt"), "".join(l + "\n" for l in expected))


def examples_source(items, doc):
    """The harness's examples: one function per ```cpp fence, and the table of them."""
    globals_, examples = [], []
    for n, (kind, line, body) in enumerate(items):
        if kind == "global":
            globals_.append(block(line, body, doc))
        if kind != "fence:cpp":
            continue
        setup = items[n - 1] if n > 0 and items[n - 1][0] == "setup" else None
        check = items[n + 1] if n + 1 < len(items) and items[n + 1][0] == "check" else None
        examples.append((line, setup, body, check))
    for n, (kind, line, _) in enumerate(items):
        stray = kind in ("setup", "check") and not any(
            (kind == "setup" and e[1] is not None and e[1][1] == line) or
            (kind == "check" and e[3] is not None and e[3][1] == line) for e in examples)
        if stray:
            sys.exit(f"{doc}:{line}: an example-{kind} comment next to no ```cpp fence")
    if not examples:
        sys.exit(f"{doc}: no ```cpp example")
    out = ["// Generated by tests/docs/extract_examples.py from " + doc + ": do not edit.\n",
           '#include "harness.hpp"\n\n']
    out += globals_
    names = []
    for line, setup, body, check in examples:
        name = f"example_{line}"
        names.append((name, line))
        out.append(f"\nint {name}() {{\n")
        if setup:
            out.append(block(setup[1], setup[2], doc))
        out.append(block(line, body, doc))
        if check:
            out.append(block(check[1], check[2], doc))
        out.append("  return 0;\n}\n")
    out.append('#line 1 "generated"\n')
    out.append("const docs::Example docs::kExamples[] = {\n")
    out += [f'    {{{name}, "{doc}", {line}}},\n' for name, line in names]
    out.append("};\n")
    out.append(f"const std::size_t docs::kExampleCount = {len(names)};\n")
    return "".join(out)


def main():
    args = sys.argv[1:]
    if len(args) < 2 or (len(args) > 2 and (args[2] != "--program" or len(args) < 4)):
        sys.exit(__doc__)
    doc_path, out_path = args[0], args[1]
    with open(doc_path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    items = parse(lines)
    doc = doc_path.replace("\\", "/")
    write_if_changed(out_path, examples_source(items, doc))
    if len(args) > 2:
        write_program(items, doc, args[3], args[4:])


if __name__ == "__main__":
    main()
