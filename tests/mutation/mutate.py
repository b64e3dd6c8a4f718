#!/usr/bin/env python3
"""Mutation testing of one source file against one test binary, one mutant at a time.

Each mutant changes one operator or literal on one verdict line (>= <-> >, <= <-> <,
== <-> !=, && <-> ||, an integer literal of a comparison +1/-1, true <-> false), rebuilds the
test target, runs the test binary and records whether a test failed (killed) or none did
(survived). A mutant that does not compile is "stillborn" and not scored (the mutant turns off
-Wparentheses and -Wtype-limits, so that "a || b && c" and "unsigned >= 0" are tested, not
stopped by -Werror).

The tree is shared with other builds, so each cycle (write the mutant, build, test, restore)
holds /tmp/ssdk-build.lock: no other build ever compiles a mutated file. The original is
restored after every cycle, on any exception, on SIGINT/SIGTERM and at exit, and checked with
`git diff --quiet` at the end. A copy of the original is kept at
/tmp/<name>.mutation-backup-<pid> until the run ends, for recovery after a SIGKILL.

Run from anywhere (one to three minutes per mutant: each rebuilds a unity batch of
core/smart, and waits for the lock while other builds run):

    tests/mutation/mutate.py                     # core/smart/health_rules.cpp, test_smart
    tests/mutation/mutate.py --list              # only print the mutants
    tests/mutation/mutate.py --only 3,7          # just mutants 3 and 7

Not a CTest test: too slow for every build.
"""
import argparse
import atexit
import fcntl
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOCK = "/tmp/ssdk-build.lock"

# Verdict lines of core/smart/health_rules.cpp: the comparisons every health finding hangs on
# (text matched, not line numbers, so edits above them do not shift the selection).
HEALTH_RULES_VERDICTS = [
    "rawCount(*attribute) & 0xffff'ffffu; count > 0",
    "before != nullptr && count > rawCount(*before)",
    "if (count > 0) {",
    "(report.nvme->criticalWarning & bit.mask) != 0",
    "bit.mask == kNvmeTemperatureWarningBit ?",
    "report.nvme && report.nvme->mediaErrors && *report.nvme->mediaErrors > UInt128(0)",
    "report.scsiGrownDefects && *report.scsiGrownDefects > 0",
    "if (used >= 100)",
    "if (used >= options.thresholds.wearCautionPercentUsed)",
    "if (spare < threshold)",
    "if (spare <= threshold + options.thresholds.spareCautionMarginPercent)",
    "errors.known && before.known && errors.count > before.count",
    "if (errors.known && errors.count > 0)",
    "report.temperatureCriticalC && now >= *report.temperatureCriticalC",
    "report.temperatureWarningC && now >= *report.temperatureWarningC",
    "(report.smartctlExitStatus.value_or(0) & 0x80) != 0",
    "report.selfTest && !report.selfTest->log.empty() && !report.selfTest->log.front().passed",
    "if (logHasErrors || newestFailed)",
]

# -Werror would make a mutant like "a || b && c" or "unsigned >= 0" not compile: let it.
PRAGMAS = ('#pragma GCC diagnostic ignored "-Wparentheses"\n'
           '#pragma GCC diagnostic ignored "-Wtype-limits"\n')

SWAPS = {">=": ">", ">": ">=", "<=": "<", "<": "<=", "==": "!=", "!=": "==", "&&": "||",
         "||": "&&", "true": "false", "false": "true"}
# Operators as tokens: not the > of ->, not shifts, not template brackets of casts.
OPERATOR = re.compile(r"(?<![-<>=!])(>=|<=|==|!=|&&|\|\||(?<!\w)true(?!\w)|(?<!\w)false(?!\w)"
                      r"|>(?![>=])|<(?![<=]))(?![>=<])")
LITERAL = re.compile(r"(?<![\w'])(0x[0-9a-fA-F']+|\d+)(u|U|ull|ULL)?(?![\w'])")


def literal_mutants(text):
    """+1/-1 of each integer literal on the line (never below 0)."""
    for match in LITERAL.finditer(text):
        digits, suffix = match.group(1), match.group(2) or ""
        value = int(digits.replace("'", ""), 0)
        for delta in (+1, -1):
            if value + delta < 0:
                continue
            new = (hex(value + delta) if digits.startswith("0x") else str(value + delta)) + suffix
            yield match.start(), match.end(), new, f"{match.group(0)} -> {new}"


def operator_mutants(text):
    for match in OPERATOR.finditer(text):
        op = match.group(1)
        rest = text[match.end():].lstrip()
        before = text[:match.start()].rstrip()
        if rest.startswith("nullptr") or before.endswith("nullptr"):
            continue  # null guards: a crash, not a verdict
        if op in ("<", ">") and (before.endswith("cast") or re.search(r"\w$", before) is None
                                 and op == "<"):
            continue
        yield match.start(), match.end(), SWAPS[op], f"{op} -> {SWAPS[op]}"


def make_mutants(source, verdicts):
    lines = source.split("\n")
    mutants = []
    for wanted in verdicts:
        found = [i for i, line in enumerate(lines) if wanted in line]
        if len(found) != 1:
            sys.exit(f"verdict line {wanted!r} found {len(found)} times")
        index = found[0]
        line = lines[index]
        start = line.index(wanted)
        segment = line[start:start + len(wanted)]
        for generator in (operator_mutants, literal_mutants):
            for begin, end, new, what in generator(segment):
                mutated = line[:start + begin] + new + line[start + end:]
                text = PRAGMAS + "\n".join(lines[:index] + [mutated] + lines[index + 1:])
                mutants.append({"line": index + 1, "what": what, "text": text,
                                "mutated": mutated.strip()})
    return mutants


class Restorer:
    """Puts the original bytes back: after each cycle, on exceptions, signals and exit."""

    def __init__(self, path, original):
        self.path, self.original = path, original
        self.backup = Path("/tmp") / (path.name + f".mutation-backup-{os.getpid()}")
        self.backup.write_bytes(original)
        atexit.register(self.restore)
        for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, self._on_signal)

    def _on_signal(self, signum, _frame):
        stop_children()
        self.done()
        sys.exit(128 + signum)

    def restore(self):
        if self.path.read_bytes() != self.original:
            # A fresh mtime, so the next build recompiles the original over the mutant's object.
            self.path.write_bytes(self.original)

    def done(self):
        self.restore()
        self.backup.unlink(missing_ok=True)


CHILDREN = []  # the build or test running now, each in its own process group


def stop_children():
    """Stops a build or test of a mutant that is still running (on a signal)."""
    for child in CHILDREN:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGTERM)
            child.wait()


def run_child(argv, timeout):
    """(exit code, output); a timeout counts as exit code -1."""
    child = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             start_new_session=True)
    CHILDREN.append(child)
    try:
        output, _ = child.communicate(timeout=timeout)
        return child.returncode, output
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGTERM)
        output, _ = child.communicate()
        return -1, output
    finally:
        CHILDREN.remove(child)


def build(args):
    return run_child(["cmake", "--build", str(args.build_dir), "--target", args.target], 1800)


def run_tests(args):
    code, _ = run_child([str(args.build_dir / "bin" / args.target)] + args.test_args, 300)
    return code  # a hang (-1) counts as killed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", default="core/smart/health_rules.cpp")
    parser.add_argument("--target", default="test_smart")
    parser.add_argument("--build-dir", type=Path, default=ROOT / "build" / "release")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--only", default="")
    parser.add_argument("--max", type=int, default=45)
    parser.add_argument("test_args", nargs="*")
    args = parser.parse_args()

    path = ROOT / args.file
    original = path.read_bytes()
    if args.file != "core/smart/health_rules.cpp":
        sys.exit("only core/smart/health_rules.cpp has its verdict lines listed here")
    mutants = make_mutants(original.decode(), HEALTH_RULES_VERDICTS)[:args.max]
    if args.only:
        chosen = {int(n) for n in args.only.split(",")}
        mutants = [m | {"number": n} for n, m in enumerate(mutants, 1) if n in chosen]
    else:
        mutants = [m | {"number": n} for n, m in enumerate(mutants, 1)]
    if args.list:
        for m in mutants:
            print(f"{m['number']:3} line {m['line']:4} {m['what']:22} {m['mutated']}")
        return 0

    restorer = Restorer(path, original)
    results = {"killed": [], "survived": [], "stillborn": [], "unbuildable": []}
    with open(LOCK, "a") as lock:
        for m in mutants:
            started = time.monotonic()
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                path.write_text(m["text"])
                code, output = build(args)
                if code != 0:
                    mine = args.file in output
                    outcome = "stillborn" if mine else "unbuildable"
                else:
                    outcome = "killed" if run_tests(args) != 0 else "survived"
            finally:
                restorer.restore()
                fcntl.flock(lock, fcntl.LOCK_UN)
            results[outcome].append(m)
            print(f"{m['number']:3} line {m['line']:4} {m['what']:22} {outcome:10} "
                  f"{time.monotonic() - started:5.0f} s  {m['mutated']}", flush=True)
            time.sleep(2)  # let waiting builds take the lock between cycles
    restorer.done()
    clean = subprocess.run(["git", "-C", str(ROOT), "diff", "--quiet", "--", args.file])
    scored = len(results["killed"]) + len(results["survived"])
    print(f"\n{len(mutants)} mutants: {len(results['killed'])} killed, "
          f"{len(results['survived'])} survived, {len(results['stillborn'])} stillborn, "
          f"{len(results['unbuildable'])} unbuildable (another file failed); "
          f"score {len(results['killed'])}/{scored}")
    for m in results["survived"]:
        print(f"SURVIVED {m['number']}: line {m['line']} {m['what']}: {m['mutated']}")
    if clean.returncode != 0:
        print(f"ERROR: {args.file} differs from git after the run", file=sys.stderr)
        return 2
    return 1 if results["survived"] else 0


if __name__ == "__main__":
    sys.exit(main())
