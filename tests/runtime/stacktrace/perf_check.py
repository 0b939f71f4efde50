#!/usr/bin/env python3
"""Checks `gdmap il locate --perf-script` on a real profile of perf_app.

    perf_check.py SCRIPT ANNOTATED PROGRAM_CS

SCRIPT is `perf script --show-mmap-events` text of perf_app (hot loops in
Hot::SumSquares, Hot::Hash and Hot::Harmonic, each on the one line marked
"// HOT NAME" in PROGRAM_CS; Hot::Round calls the three on one line, Main
calls Round on the line holding "Hot.Round("); ANNOTATED is gdmap's output
for it. Checks: every input line comes back, unchanged up to its
annotation; no frame outside a .dll is annotated; every frame in perf_app.dll is annotated with a method of
perf_app and a line of PROGRAM_CS inside that method; a sample's leaf in a hot method is on
that method's HOT line (at least 95% of them: a sample may fall in the
loop's set-up or the return); every frame of Round is on Round's line
and every frame of Main that calls Round on the call's line. Prints the figures; exit 1 on a failure.
"""
import re
import sys

ANNOTATION = re.compile(r" => (0x[0-9a-f]{8}) (.+?) \+0x[0-9a-f]+, (IL [^ ]+(?: \w+)?|no IL offset)(?: at (.*):(\d+):(\d+))?$")


def fail(message):
    print("perf_check: " + message, file=sys.stderr)
    sys.exit(1)


def method_key(sos_name):
    """"Hot.SumSquares(Int32)", as gdmap names it, as "Hot::SumSquares"."""
    name = sos_name.split("(")[0]
    owner, _, method = name.rpartition(".")
    return owner + "::" + method


def source_lines(program):
    """The HOT line of each hot method, Round's line, Main's call's line, and each method's line range."""
    text = open(program).read().split("\n")
    hot, ranges, current, depth = {}, {}, None, 0
    round_line = main_line = None
    for number, line in enumerate(text, 1):
        m = re.search(r"// HOT (\w+)", line)
        if m:
            hot["Hot::" + m.group(1)] = number
        m = re.search(r"static \w+ (\w+)\(", line)
        if m:
            current, depth = m.group(1), 0
            ranges[current] = [number, number]
        if current:  # the method ends where its braces close (or on its line, => body)
            code = line.split("//")[0]
            depth += code.count("{") - code.count("}")
            ranges[current][1] = number
            if depth == 0 and ("}" in code or "=>" in code):
                current = None
        if "SumSquares(n) + Hash(n)" in line:
            round_line = number
        if "Hot.Round(" in line:
            main_line = number
    if len(hot) != 3 or round_line is None or main_line is None:
        fail("%s does not mark its hot lines, Round and Main's call" % program)
    named = {("Program::" if k == "Main" else "Hot::") + k: v for k, v in ranges.items()}
    return hot, named, round_line, main_line


def main():
    script, annotated, program = sys.argv[1:4]
    hot, ranges, round_line, main_line = source_lines(program)
    inputs = open(script, errors="surrogateescape").read().split("\n")
    outputs = open(annotated, errors="surrogateescape").read().split("\n")
    if len(inputs) != len(outputs):
        fail("%d lines in, %d out" % (len(inputs), len(outputs)))
    leaves = {name: [0, 0] for name in hot}  # on the HOT line, elsewhere in the method
    frames = annotated_frames = callers = framework = 0
    leaf_next = False
    previous = None  # the method of the frame before, in this sample
    for i, (line, out) in enumerate(zip(inputs, outputs)):
        if not out.startswith(line):
            fail("line %d changed:\n  %s\n  %s" % (i + 1, line, out))
        note = out[len(line):]
        if line and not line.startswith("\t") and not line.startswith(" \t") and "PERF_RECORD" not in line:
            leaf_next, previous = True, None  # a sample's first line: its leaf comes next
            continue
        if not line.startswith("\t"):
            continue
        leaf, leaf_next = leaf_next, False
        callee, previous = previous, None
        if not line.endswith("/perf_app.dll)"):
            if note and not line.endswith(".dll)"):  # the framework's images are ReadyToRun too
                fail("line %d annotated outside a .NET image: %s" % (i + 1, out))
            framework += 1 if note else 0
            continue
        frames += 1
        m = ANNOTATION.match(note)
        if not m or m.group(4) is None or not m.group(4).endswith("Program.cs"):
            fail("line %d not annotated with a method and a line of Program.cs: %r" % (i + 1, out))
        annotated_frames += 1
        name, number = method_key(m.group(2)), int(m.group(5))
        previous = name
        first, last = ranges.get(name, (0, 0))
        if not first <= number <= last:
            fail("line %d: %s on line %d, outside the method (%d-%d)" % (i + 1, name, number, first, last))
        if leaf and name in hot:
            leaves[name][0 if number == hot[name] else 1] += 1
        elif not leaf and (name == "Hot::Round" or callee == "Hot::Round"):
            # Round's frames call a hot method, on Round's one line; Main's
            # frames below Round call it, on the line of the call.
            callers += 1
            want = round_line if name == "Hot::Round" else main_line
            if number != want:
                fail("line %d: a return address in %s on line %d, its call is on line %d" % (i + 1, name, number,
                                                                                             want))
    total = sum(a + b for a, b in leaves.values())
    on_hot = sum(a for a, _ in leaves.values())
    print("perf_check: %d frames in perf_app.dll, %d annotated; %d leaf samples in the hot methods, %d on their "
          "HOT line (%s); %d caller frames on their call's line; %d frames in the framework's images annotated" %
          (frames, annotated_frames, total, on_hot,
           ", ".join("%s %d/%d" % (k, a, a + b) for k, (a, b) in sorted(leaves.items())), callers, framework))
    if min(a + b for a, b in leaves.values()) < 20:
        fail("too few samples in a hot method to judge (perf took %s)" % leaves)
    if on_hot < 0.95 * total:
        fail("only %d of %d leaf samples on the HOT lines" % (on_hot, total))


if __name__ == "__main__":
    main()
