#!/usr/bin/env python3
"""Runs the command examples of the documentation and compares what they print.

    run_doc_examples.py GDMAP SOURCE_ROOT DOC [DOC ...]

A session is a fenced block of a Markdown file (or an .EX/.EE block of a
man page) whose lines start with `$ `: each such line is a command, run by
bash with the built `gdmap` first on PATH, and the lines after it, up to the
next `$ ` line or the end of the block, are what it must print (stdout and
stderr as one stream, as a terminal shows them). In the expected output:
  - a line `...` (indented or not) stands for any number of lines, none
    included;
  - a last line `[N]` is the exit status the command must end with; where
    none is shown, the status is not checked.
The commands of one document run in order in one scratch folder, in which
the source tree's examples/, tests/, schema/ and docs/ are visible, so that
a file one example writes is there for the next.

Markers, HTML comments (`.\\" doc-test: ...` lines in a man page) right
before a block, say what the reader needs to know to run it, visibly in the
document's source rather than hidden in this test:
  <!-- doc-test: skip REASON -->       the block is not run (REASON: why)
  <!-- doc-test: file NAME -->         the block is the content of NAME,
                                       written to the scratch folder
  <!-- doc-test: setup                 shell commands run (they must
  cp examples/maps/basic.gdmap map.gdmap   succeed; their output is not
  -->                                  compared) before the next block,
                                       wherever the comment stands
  <!-- doc-test: terminal -->          the session's commands write to a
                                       terminal, not a pipe
  <!-- doc-test: only-if COMMAND -->   the block is run only where COMMAND
                                       succeeds (a sanitizer build cannot
                                       start under `ulimit -v`, say)
  <!-- doc-test: replace REGEX TEXT --> what legitimately varies: REGEX
                                       (Python) in the output becomes TEXT
                                       before the comparison
A failure names the document and the line of the command, with a diff.
"""
import difflib
import os
import pty
import re
import select
import shlex
import shutil
import subprocess
import sys
import tempfile

TIMEOUT_SECONDS = 120
FENCE = re.compile(r"^(\s*)```(\S*)(?:\s+[^`\s][^`]*)?\s*$")  # ```cpp program: a language, then words
MARKER = re.compile(r"^\s*<!--\s*doc-test:\s*([\w-]+)\s*(.*?)\s*(-->)?\s*$")
ROFF_MARKER = re.compile(r'^\.\\"\s*doc-test:\s*([\w-]+)\s*(.*?)\s*$')
STATUS = re.compile(r"^\[(\d+)\]$")
SHARED_FOLDERS = ("examples", "tests", "schema", "docs")


class Block:
    def __init__(self, line, lines, markers):
        self.line = line  # 1-based line of the block's first content line
        self.lines = lines
        self.markers = markers  # [(kind, argument, line)]


def markdown_blocks(text):
    """Every fenced block of a Markdown document, with the markers before it."""
    lines = text.split("\n")
    blocks = []
    pending = []
    i = 0
    while i < len(lines):
        line = lines[i]
        marker = MARKER.match(line)
        fence = FENCE.match(line)
        if marker:
            kind, argument, closed = marker.group(1), marker.group(2), marker.group(3)
            start = i + 1
            if not closed:  # a multi-line marker: its body runs to a line '-->'
                body = [argument] if argument else []
                i += 1
                while i < len(lines) and lines[i].strip() != "-->":
                    body.append(lines[i])
                    i += 1
                if i == len(lines):
                    raise SystemExit(f"line {start}: a doc-test comment is not closed by a line '-->'")
                argument = "\n".join(body)
            pending.append((kind, argument, start))
        elif fence:
            indent = len(fence.group(1))
            start = i + 1
            i += 1
            body = []
            while i < len(lines) and not FENCE.match(lines[i]):
                body.append(lines[i][indent:] if lines[i][:indent].isspace() else lines[i])
                i += 1
            if i == len(lines):
                raise SystemExit(f"line {start}: a ``` fence is not closed")
            blocks.append(Block(start + 1, body, pending))
            pending = []
        elif line.strip() and any(kind != "setup" for kind, _, _ in pending):
            raise SystemExit(f"line {pending[0][2]}: a doc-test comment is followed by text, not a ``` block")
        i += 1
    if pending:
        raise SystemExit(f"line {pending[0][2]}: a doc-test comment is followed by no ``` block")
    return blocks


def unroff(line):
    """A line of an .EX block as a reader of the page sees it."""
    for escape, plain in (("\\-", "-"), ("\\(aq", "'"), ("\\(dq", '"'), ("\\e", "\\"), ("\\&", ""),
                          ("\\fB", ""), ("\\fI", ""), ("\\fR", ""), ("\\fP", ""), ("\\(em", "\u2014")):
        line = line.replace(escape, plain)
    return line


def roff_blocks(text):
    """Every .EX/.EE block of a man page, with the markers before it."""
    lines = text.split("\n")
    blocks = []
    pending = []
    i = 0
    while i < len(lines):
        marker = ROFF_MARKER.match(lines[i])
        if marker:
            pending.append((marker.group(1), marker.group(2), i + 1))
        elif lines[i].strip() == ".EX":
            start = i + 1
            i += 1
            body = []
            while i < len(lines) and lines[i].strip() != ".EE":
                body.append(unroff(lines[i]))
                i += 1
            if i == len(lines):
                raise SystemExit(f"line {start}: an .EX block is not closed by .EE")
            blocks.append(Block(start + 1, body, pending))
            pending = []
        i += 1
    return blocks


class Command:
    def __init__(self, line, text):
        self.line = line
        self.text = text
        self.expected = []
        self.status = None


def commands_of(block):
    """The `$ ` commands of a block with what each must print; [] when none."""
    commands = []
    for offset, line in enumerate(block.lines):
        if line.startswith("$ "):
            commands.append(Command(block.line + offset, line[2:]))
        elif commands:
            commands[-1].expected.append(line)
    for command in commands:
        while command.expected and not command.expected[-1].strip():
            command.expected.pop()
        if command.expected:
            status = STATUS.match(command.expected[-1])
            if status:
                command.status = int(status.group(1))
                command.expected.pop()
    return commands


def matches(expected, actual):
    """Whether the lines match, a line '...' standing for any lines."""
    if not expected:
        return not actual
    if expected[0].strip() == "...":
        return any(matches(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    return bool(actual) and expected[0] == actual[0] and matches(expected[1:], actual[1:])


def run(command, folder, environment, terminal):
    """(status, output lines) of one command."""
    if not terminal:
        try:
            done = subprocess.run(["bash", "-c", command], cwd=folder, env=environment, stdin=subprocess.DEVNULL,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired:
            return None, [f"(no end after {TIMEOUT_SECONDS} s)"]
        return done.returncode, done.stdout.decode("utf-8", "replace").split("\n")
    controller, device = pty.openpty()
    process = subprocess.Popen(["bash", "-c", command], cwd=folder, env=environment, stdin=subprocess.DEVNULL,
                               stdout=device, stderr=device)
    os.close(device)
    output = b""
    while True:
        ready, _, _ = select.select([controller], [], [], TIMEOUT_SECONDS)
        if not ready:
            process.kill()
            break
        try:
            chunk = os.read(controller, 65536)
        except OSError:  # the terminal closed with the last writer
            break
        if not chunk:
            break
        output += chunk
    os.close(controller)
    status = process.wait(timeout=TIMEOUT_SECONDS)
    return status, output.decode("utf-8", "replace").replace("\r\n", "\n").split("\n")


def check_document(path, gdmap, root, counted):
    """The failures of one document, each a message naming its line."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    blocks = roff_blocks(text) if path.endswith(".1") else markdown_blocks(text)
    shown = os.path.relpath(path, root)
    failures = []
    folder = tempfile.mkdtemp(prefix="gdmap-doc-")
    try:
        for name in SHARED_FOLDERS:
            os.symlink(os.path.join(root, name), os.path.join(folder, name))
        environment = dict(os.environ, LC_ALL="C.UTF-8", COLUMNS="100",
                           PATH=os.path.dirname(os.path.abspath(gdmap)) + os.pathsep + os.environ["PATH"])
        for block in blocks:
            kinds = {kind for kind, _, _ in block.markers}
            if "skip" in kinds:
                continue
            if any(kind == "only-if" and subprocess.run(["bash", "-c", argument], cwd=folder, env=environment,
                                                        stdin=subprocess.DEVNULL, capture_output=True,
                                                        timeout=TIMEOUT_SECONDS).returncode != 0
                   for kind, argument, _ in block.markers):
                continue
            for kind, argument, line in block.markers:
                if kind == "file":
                    with open(os.path.join(folder, argument), "w", encoding="utf-8") as f:
                        f.write("\n".join(block.lines) + "\n")
                elif kind == "setup":
                    done = subprocess.run(["bash", "-ec", argument], cwd=folder, env=environment,
                                          stdin=subprocess.DEVNULL, capture_output=True, timeout=TIMEOUT_SECONDS)
                    if done.returncode != 0:
                        failures.append(f"{shown}:{line}: the setup failed with status {done.returncode}:\n"
                                        + done.stdout.decode(errors="replace") + done.stderr.decode(errors="replace"))
                elif kind not in ("replace", "terminal", "only-if"):
                    failures.append(f"{shown}:{line}: unknown doc-test marker '{kind}'")
            if "file" in kinds:
                continue
            replacements = [shlex.split(argument) for kind, argument, _ in block.markers if kind == "replace"]
            for command in commands_of(block):
                counted[0] += 1
                status, actual = run(command.text, folder, environment, "terminal" in kinds)
                while actual and not actual[-1].strip():
                    actual.pop()
                for pattern, replacement in replacements:
                    actual = [re.sub(pattern, replacement, line) for line in actual]
                if not matches(command.expected, actual):
                    diff = "\n".join(difflib.unified_diff(command.expected, actual, "documented", "printed",
                                                          lineterm=""))
                    failures.append(f"{shown}:{command.line}: `{command.text}` prints something else:\n{diff}")
                elif command.status is not None and status != command.status:
                    failures.append(f"{shown}:{command.line}: `{command.text}` exits {status}, "
                                    f"the document says [{command.status}]")
    finally:
        shutil.rmtree(folder)
    return failures


def main():
    if len(sys.argv) < 4:
        raise SystemExit(__doc__)
    gdmap, root = sys.argv[1], os.path.abspath(sys.argv[2])
    failures = []
    counted = [0]
    for path in sys.argv[3:]:
        failures += check_document(os.path.abspath(path), gdmap, root, counted)
    for failure in failures:
        print(failure + "\n", file=sys.stderr)
    if failures:
        print(f"{len(failures)} of {counted[0]} example(s) differ from what gdmap prints", file=sys.stderr)
        return 1
    print(f"{counted[0]} examples of {len(sys.argv) - 3} documents print what the documents say")
    return 0


if __name__ == "__main__":
    sys.exit(main())
