#!/usr/bin/env python3
"""Checks that the synopses of the documentation are the commands gdmap has.

    check_synopses.py GDMAP SOURCE_ROOT

The commands and options are read from the built CLI's own --help. Each
synopsis block must name every command of its scope, each once, with exactly
the options that command takes (--help aside):
  - docs/cli.md, its first ``` block: every command;
  - docs/il-map.md, the ``` block under "## gdmap il": every `il` command;
  - docs/gdmap.1, SYNOPSIS: every top-level command with its options, and
    the `gdmap il` line listing every il command;
  - README.md, the block under "## The CLI in one screen": no option a
    command does not take (it shows the main ones only).
A failure names the document, the command and what is missing or extra.
"""
import os
import re
import subprocess
import sys

OPTION = re.compile(r"(?<![\w-])(--?[A-Za-z][\w-]*)")


def help_text(gdmap, words):
    done = subprocess.run([gdmap, *words, "--help"], capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"`gdmap {' '.join(words)} --help` failed: {done.stderr}")
    return done.stdout


def section(text, heading):
    """The indented lines of a CLI11 help text under `heading` (SUBCOMMANDS, OPTIONS)."""
    lines = []
    inside = False
    for line in text.split("\n"):
        if line.upper().startswith(heading):
            inside = True
        elif inside and line and not line.startswith(" "):
            inside = False
        elif inside and line.strip():
            lines.append(line)
    return lines


def subcommands(text):
    """The subcommand names a help text lists."""
    return [line.split()[0] for line in section(text, "SUBCOMMANDS") if re.match(r"^  \S", line)]


def options(text):
    """Each option of a help text as the set of its spellings, --help aside."""
    found = []
    for line in section(text, "OPTIONS"):
        if re.match(r"^  +-", line):
            spellings = set(OPTION.findall(line.strip().split("  ")[0]))
            if "--help" not in spellings:
                found.append(spellings)
    return found


def commands(gdmap):
    """{'build': [{'-o', '--output'}, ...], 'il build': [...], ...}"""
    table = {}
    for name in subcommands(help_text(gdmap, [])):
        inner = subcommands(help_text(gdmap, [name]))
        if inner:
            for sub in inner:
                table[f"{name} {sub}"] = options(help_text(gdmap, [name, sub]))
        else:
            table[name] = options(help_text(gdmap, [name]))
    return table


def compare(where, command, mentioned, taken, complete, failures):
    spellings = set().union(*taken) if taken else set()
    for option in sorted(mentioned - spellings):
        failures.append(f"{where}: `gdmap {command}` has no option {option}")
    if complete:
        for option in taken:
            if not option & mentioned:
                failures.append(f"{where}: `gdmap {command}` takes {'/'.join(sorted(option))}, not shown")


def block_after(lines, heading):
    """The lines of the first ``` block after `heading` (the first block when None)."""
    start = 0 if heading is None else lines.index(heading)
    first = next(i for i in range(start, len(lines)) if lines[i].startswith("```"))
    last = next(i for i in range(first + 1, len(lines)) if lines[i].startswith("```"))
    return lines[first + 1:last]


def check_block(where, block, table, scope, complete, failures):
    seen = set()
    for line in block:
        words = line.split()
        if len(words) < 2 or words[0] != "gdmap":
            continue
        command = " ".join(words[1:3]) if " ".join(words[1:3]) in table else words[1]
        if command not in table:
            failures.append(f"{where}: `gdmap {command}` is no command of gdmap")
            continue
        if command in seen and complete:
            failures.append(f"{where}: `gdmap {command}` is shown twice")
        seen.add(command)
        synopsis = line.split("   ")[0]  # what follows three spaces is a comment
        compare(where, command, set(OPTION.findall(synopsis)), table[command], complete, failures)
    if complete:
        for command in sorted(c for c in table if scope(c) and c not in seen):
            failures.append(f"{where}: `gdmap {command}` is not shown")


def check_man_page(path, table, failures):
    text = open(path, encoding="utf-8").read()
    synopsis = text.split(".SH SYNOPSIS", 1)[1].split(".SH ", 1)[0]
    entries = synopsis.split(".br")
    seen = set()
    for entry in entries:
        entry = entry.replace("\\-", "-")
        head = re.search(r"^\.B gdmap (.+)$", entry, re.M)
        if not head:
            continue
        command = head.group(1).strip()
        if command == "il":
            listed = re.search(r"\{(.*)\}", entry)
            names = {n.strip() for n in listed.group(1).split("|")} if listed else set()
            wanted = {c.split(" ", 1)[1] for c in table if c.startswith("il ")}
            for name in sorted(wanted - names):
                failures.append(f"docs/gdmap.1: SYNOPSIS: `gdmap il` does not list {name}")
            for name in sorted(names - wanted):
                failures.append(f"docs/gdmap.1: SYNOPSIS: `gdmap il {name}` is no command of gdmap")
            seen.update(c for c in table if c.startswith("il "))
            continue
        if command not in table:
            failures.append(f"docs/gdmap.1: SYNOPSIS: `gdmap {command}` is no command of gdmap")
            continue
        seen.add(command)
        compare(f"docs/gdmap.1: SYNOPSIS", command, set(OPTION.findall(entry.split("\n", 2)[-1])),
                table[command], True, failures)
    for command in sorted(c for c in table if c not in seen):
        failures.append(f"docs/gdmap.1: SYNOPSIS: `gdmap {command}` is not shown")


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    gdmap, root = sys.argv[1], sys.argv[2]
    table = commands(gdmap)
    failures = []

    def lines(name):
        return open(os.path.join(root, name), encoding="utf-8").read().split("\n")

    check_block("docs/cli.md: synopsis", block_after(lines("docs/cli.md"), None), table, lambda c: True, True,
                failures)
    check_block("docs/il-map.md: ## gdmap il", block_after(lines("docs/il-map.md"), "## gdmap il"), table,
                lambda c: c.startswith("il "), True, failures)
    check_block("README.md: ## The CLI in one screen", block_after(lines("README.md"), "## The CLI in one screen"),
                table, lambda c: True, False, failures)
    check_man_page(os.path.join(root, "docs/gdmap.1"), table, failures)
    for failure in failures:
        print(failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
