#!/usr/bin/env python3
"""Mutation testing of the verdict lines of a table of source files, one mutant at a time.

Each mutant changes one operator or literal on one verdict line (>= <-> >, <= <-> <,
== <-> !=, && <-> ||, a unary ! dropped, an integer literal +1/-1, a decimal literal +/- one unit
of its last digit (0.20 -> 0.21, 0.19), true <-> false; a plain "if (flag)" with none of those
is negated), rebuilds the file's test target, runs only the tests about that file and records
whether a test failed (killed) or none did (survived). A mutant that does not compile is
"stillborn" and not scored (the mutant turns off -Wparentheses and -Wtype-limits, so that
"a || b && c" and "unsigned >= 0" are tested, not stopped by -Werror).

The tree is shared with other builds, so each cycle (write the mutant, build, test, restore)
holds /tmp/ssdk-build.lock: no other build ever compiles a mutated file. The original is
restored after every cycle, on any exception, on SIGINT/SIGTERM/SIGHUP and at exit, and checked
against the bytes read at the start and with `git diff --quiet` at the end of each file. A copy
of the original is kept at /tmp/<name>.mutation-backup-<pid> until that file's run ends, for
recovery after a SIGKILL.

--private builds each mutant outside the tree instead (PrivateBuild): it writes neither the tree
nor the build directory, needs no lock, and takes 2-30 s a mutant instead of a minute or more
(waiting for the lock). Run from anywhere:

    tests/mutation/mutate.py --all --private               # every file, a score per file
    tests/mutation/mutate.py core/perf/analysis.cpp --private   # or --target-file ...
    tests/mutation/mutate.py                               # health_rules.cpp, in the tree
    tests/mutation/mutate.py --targets                     # the table: files, binaries, tests
    tests/mutation/mutate.py helper/validation.cpp --list  # only print the mutants
    tests/mutation/mutate.py helper/validation.cpp --private --only 3,7
    tests/mutation/mutate.py eraser.cpp --private --tests 'verification fails*'

Scores and the equivalent mutants are in tests/mutation/README.md. Not a CTest test: too slow
for every build.
"""
import argparse
import atexit
import fcntl
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import tempfile
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOCK = "/tmp/ssdk-build.lock"


@dataclass(frozen=True)
class Target:
    """A file, its verdict lines (text matched, not line numbers, so edits above them do not
    shift the selection), the test binary that judges them and the Catch test specs (any of
    them; no commas inside one) that select only the tests about that file, which keeps each
    cycle short."""
    file: str
    verdicts: tuple
    binary: str
    tests: tuple = ()


TARGETS = [
    # The comparisons every health finding hangs on.
    Target("core/smart/health_rules.cpp", (
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
    ), "test_smart"),
    # verify TRIM's decide(): reached, not reached or inconclusive from the blocks read back.
    Target("core/maintenance/trim/verify.cpp", (
        "if (after.zeros == gone) {",
        "} else if (after.ones == gone) {",
        "if (total == 0) {",
        "if (after.markers == 0) {",
        "if (after.markers == total) {",
        "if (refused) {",
        "if (deterministic) {",
    ), "test_maintenance", ("verify decision*",)),
    # Quick format + verify: the outcome from the sampled blocks read back (decideFormat).
    Target("core/maintenance/trim/format_verify.cpp", (
        "if (result.sampled == 0 || judged == 0) {",
        "} else if (result.counts.kept == 0) {",
        "} else if (result.counts.discarded == 0) {",
    ), "test_maintenance", ("[format-verify]",)),
    # The erase verification: judge() over the blocks sampled before and after.
    Target("core/maintenance/erase/eraser.cpp", (
        "if (after[i].checksum == zeroSum) {",
        "} else if (after[i].checksum == onesSum) {",
        "i < before.size() && !before[i].empty && before[i].checksum == after[i].checksum",
        "if (v.unchangedData > 0) {",
        "} else if (expectsZeros(method) && v.zeros != v.samples) {",
    ), "test_maintenance", ("verification fails*", "[erase-verify]")),
    # What must hold before a whole device is erased.
    Target("core/maintenance/erase/guards.cpp", (
        "if (device.holdsRootFilesystem()) {",
        "if (!mounted.empty()) {",
        "if (!held.empty()) {",
        "if (device.readOnly) {",
        "if (typedConfirmation != confirmationWord(device)) {",
    ), "test_maintenance", ("erase guards*", "a device without a model*")),
    # SNIA steady state and the SLC cache cliff.
    Target("core/perf/analysis.cpp", (
        "check.rangeOk = check.range <= 0.20 * std::abs(check.mean);",
        "check.slopeOk = check.slopeExcursion <= 0.10 * std::abs(check.mean);",
        "if (window < 2 || rounds.size() < window) {",
        "if (check.rangeOk && check.slopeOk && !state.firstSteadyRound) {",
        "state.reached = last.rangeOk && last.slopeOk;",
        "const std::size_t head = std::max<std::size_t>(3, samples.size() / 4);",
        "const double threshold = 0.7 * burst;",
        "if (samples[i].bytesPerS >= threshold) {",
        "if (median(rest) < threshold) {",
    ), "test_perf", ("SNIA steady state*", "SLC *", "[perf-boundaries]")),
    # A device path from an unprivileged caller.
    Target("helper/validation.cpp", (
        "if (given.empty() || given.size() > kMaxPathLength) {",
        "if (!given.starts_with(\"/dev/\")) {",
        "if (!real.starts_with(\"/dev/\") || real.find('/', 5) != std::string::npos) {",
        "if (::stat(real.c_str(), &info) != 0) {",
        "if (!S_ISBLK(info.st_mode)) {",
        "if (!sysDevno || *sysDevno != devno) {",
        "if (!rules.allowSystemDisk && device->holdsRootFilesystem()) {",
        "if (!rules.allowMounted && device->inUse()) {",
    ), "test_helper", ("[validation]",)),
]

# -Werror would make a mutant like "a || b && c" or "unsigned >= 0" not compile: let it.
PRAGMAS = ('#pragma GCC diagnostic ignored "-Wparentheses"\n'
           '#pragma GCC diagnostic ignored "-Wtype-limits"\n')

SWAPS = {">=": ">", ">": ">=", "<=": "<", "<": "<=", "==": "!=", "!=": "==", "&&": "||",
         "||": "&&", "true": "false", "false": "true"}
# Operators as tokens: not the > of ->, not shifts.
OPERATOR = re.compile(r"(?<![-<>=!])(>=|<=|==|!=|&&|\|\||(?<!\w)true(?!\w)|(?<!\w)false(?!\w)"
                      r"|>(?![>=])|<(?![<=]))(?![>=<])")
# A unary "not": not the ! of !=.
NOT = re.compile(r"!(?!=)")
INTEGER = re.compile(r"(?<![\w'.])(0x[0-9a-fA-F']+|\d+)(u|U|ull|ULL)?(?![\w'.])")
DECIMAL = re.compile(r"(?<![\w'.])(\d+)\.(\d+)(?![\w'.])")
PLAIN_IF = re.compile(r"^((?:\} else )?if \()(.*)(\) \{)$")


def literal_mutants(text):
    """+1/-1 of each integer literal on the line, +/- one unit of a decimal's last digit (never
    below 0)."""
    for match in INTEGER.finditer(text):
        digits, suffix = match.group(1), match.group(2) or ""
        value = int(digits.replace("'", ""), 0)
        for delta in (+1, -1):
            if value + delta < 0:
                continue
            new = (hex(value + delta) if digits.startswith("0x") else str(value + delta)) + suffix
            yield match.start(), match.end(), new, f"{match.group(0)} -> {new}"
    for match in DECIMAL.finditer(text):
        places = len(match.group(2))
        units = int(match.group(1) + match.group(2))
        for delta in (+1, -1):
            if units + delta < 0:
                continue
            new = f"{(units + delta) / 10 ** places:.{places}f}"
            yield match.start(), match.end(), new, f"{match.group(0)} -> {new}"


def operator_mutants(text):
    for match in OPERATOR.finditer(text):
        op = match.group(1)
        rest = text[match.end():].lstrip()
        before = text[:match.start()].rstrip()
        if rest.startswith("nullptr") or before.endswith("nullptr"):
            continue  # null guards: a crash, not a verdict
        # clang-format puts spaces around a comparison and none inside max<std::size_t>.
        if op in ("<", ">") and not (text[match.start() - 1:match.start()] == " " and
                                     text[match.end():match.end() + 1] == " "):
            continue
        yield match.start(), match.end(), SWAPS[op], f"{op} -> {SWAPS[op]}"
    for match in NOT.finditer(text):
        yield match.start(), match.end(), "", "drop !"


def negation_mutants(text):
    """An "if (flag) {" whose condition has no operator to swap: "if (!(flag)) {"."""
    match = PLAIN_IF.match(text)
    if match and not any(operator_mutants(match.group(2))):
        yield (match.start(2), match.end(2), f"!({match.group(2)})",
               f"negate {match.group(2)}")


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
        for generator in (operator_mutants, literal_mutants, negation_mutants):
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
        ACTIVE.append(self)

    def restore(self):
        if self.path.read_bytes() != self.original:
            # A fresh mtime, so the next build recompiles the original over the mutant's object.
            self.path.write_bytes(self.original)

    def done(self):
        self.restore()
        self.backup.unlink(missing_ok=True)
        atexit.unregister(self.restore)
        ACTIVE.remove(self)


ACTIVE = []  # the Restorer of the file being mutated now
CHILDREN = []  # the build or test running now, each in its own process group


def on_signal(signum, _frame):
    stop_children()
    for restorer in list(ACTIVE):
        restorer.done()
    sys.exit(128 + signum)


def stop_children():
    """Stops a build or test of a mutant that is still running (on a signal)."""
    for child in CHILDREN:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGTERM)
            child.wait()


def run_child(argv, timeout, cwd=None):
    """(exit code, output); a timeout counts as exit code -1."""
    child = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                             start_new_session=True, cwd=cwd)
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


def build(build_dir, target):
    return run_child(["cmake", "--build", str(build_dir), "--target", target.binary], 1800)


def test_spec(target):
    """Catch v2 ANDs its positional arguments and ORs the parts of one split by commas."""
    return [",".join(target.tests)] if target.tests else []


def run_tests(binary, target):
    """(failed, the test files whose assertions failed, or "timeout"); a hang counts as
    killed."""
    code, output = run_child([str(binary), *test_spec(target)], 300)
    if code == -1:
        return True, "timeout"
    files = sorted({Path(f).name for f in re.findall(r"^(\S+\.cpp):\d+: FAILED:", output, re.M)})
    return code != 0, ",".join(files)


class PrivateBuild:
    """--private: builds a mutant without writing the tree or the build directory, so without
    the lock. The file's unity batch is split once into the rest of the batch (one object) and
    the file alone; each mutant is compiled alone from a copy in a work directory, put with the
    rest into a copy of the library archive, and the test binary is relinked from the build
    directory's objects into the work directory. Reads the build directory only; a read while
    another build rewrites an object shows as "unbuildable" and is retried."""

    def __init__(self, build_dir, target, work):
        self.build_dir, self.target, self.work = build_dir, target, work
        source = ROOT / target.file
        include = f'#include "{source}"'
        commands = json.loads((build_dir / "compile_commands.json").read_text())
        link = self._link_command()
        for entry in commands:
            unity = Path(entry["file"])
            if "/Unity/" not in entry["file"] or include not in unity.read_text():
                continue
            library_dir = unity.parents[3]  # <dir>/CMakeFiles/<lib>.dir/Unity/unity_N_cxx.cxx
            archive = library_dir / ("lib" + unity.parents[1].name.removesuffix(".dir") + ".a")
            relative = str(archive.relative_to(build_dir))
            if relative in link:
                break
        else:
            sys.exit(f"no unity batch of {target.binary}'s libraries includes {target.file}")
        self.entry, self.unity, self.member = entry, unity, unity.name + ".o"
        self.link = [str(work / "lib.a") if arg == relative else arg for arg in link]
        output = self.link.index("-o") + 1
        self.link[output] = str(work / target.binary)
        rest = work / "rest.cxx"
        rest.write_text("\n".join(line for line in unity.read_text().split("\n")
                                  if line != include))
        self.rest_archive = (archive, rest)

    def _link_command(self):
        code, output = run_child(["ninja", "-C", str(self.build_dir), "-t", "commands",
                                  self.target.binary], 60)
        if code != 0:
            sys.exit(f"ninja -t commands {self.target.binary} failed:\n{output[-2000:]}")
        line = output.strip().split("\n")[-1]
        return shlex.split(line.split(" && ")[1])  # ": && c++ ... && cd ... CatchAddTests"

    def _compile(self, source, obj):
        argv = shlex.split(self.entry["command"])
        argv[argv.index("-o") + 1] = str(obj)
        argv[argv.index("-c") + 1] = str(source)
        return run_child(argv, 1800, cwd=self.entry["directory"])

    def prepare(self):
        """The archive without the file: (exit code, output)."""
        archive, rest = self.rest_archive
        code, output = self._compile(rest, self.work / "rest.o")
        if code != 0:
            return code, output
        base = self.work / "base.a"
        shutil.copyfile(archive, base)
        for argv in (["ar", "d", str(base), self.member], ["ar", "r", str(base),
                                                           str(self.work / "rest.o")]):
            code, output = run_child(argv, 120)
            if code != 0:
                return code, output
        return 0, ""

    def build(self, text):
        mutant = self.work / Path(self.target.file).name
        mutant.write_text(text)
        code, output = self._compile(mutant, self.work / "mutant.o")
        if code != 0:
            return code, output.replace(str(mutant), self.target.file)
        shutil.copyfile(self.work / "base.a", self.work / "lib.a")
        code, output = run_child(["ar", "r", str(self.work / "lib.a"),
                                  str(self.work / "mutant.o")], 120)
        if code != 0:
            return code, output
        return run_child(self.link, 1800, cwd=self.build_dir)


def numbered(target, args, source=None):
    if source is None:
        source = (ROOT / target.file).read_text()
    mutants = make_mutants(source, target.verdicts)
    mutants = [m | {"number": n} for n, m in enumerate(mutants, 1)][:args.max]
    if args.only:
        chosen = {int(n) for n in args.only.split(",")}
        mutants = [m for m in mutants if m["number"] in chosen]
    return mutants


# Other helpers edit the shared tree: while another file of the binary does not compile, wait
# (without the lock) for them to fix it, rather than scoring or giving up.
RETRY_WAIT_S = 60
RETRIES = 15


def check_baseline(build_dir, target, lock):
    """The unmutated file must build and pass the selected tests (which must exist), or every
    mutant would look killed."""
    for attempt in range(RETRIES + 1):
        with lock_held(lock):
            code, output = build(build_dir, target)
            if code == 0:
                break
        if attempt == RETRIES:
            sys.exit(f"{target.binary} does not build unmutated:\n{output[-3000:]}")
        print(f"{target.binary} does not build unmutated (another change?); retrying in "
              f"{RETRY_WAIT_S} s", flush=True)
        time.sleep(RETRY_WAIT_S)
    with lock_held(lock):
        return check_tests(build_dir / "bin" / target.binary, target)


def check_tests(binary, target):
    _, listing = run_child([str(binary), "--list-test-names-only", *test_spec(target)], 60)
    failed, by = run_tests(binary, target)
    listed = len([name for name in listing.splitlines() if name.strip()])
    if listed < 1 or failed:
        sys.exit(f"{target.file}: the selected tests of {target.binary} do not pass unmutated "
                 f"({listed} selected, failing: {by})")
    return listed


class lock_held:
    def __init__(self, lock):
        self.lock = lock

    def __enter__(self):
        fcntl.flock(self.lock, fcntl.LOCK_EX)

    def __exit__(self, *_):
        fcntl.flock(self.lock, fcntl.LOCK_UN)


def report(mutant, outcome, started, by):
    """One line per mutant: its number, line, kind, outcome, time and the mutated text."""
    print(f"{mutant['number']:3} line {mutant['line']:4} {mutant['what']:22} {outcome:10} "
          f"{time.monotonic() - started:5.0f} s  {mutant['mutated']}"
          + (f"  [by {by}]" if by else ""), flush=True)


def mutate_file(target, args, lock):
    """Runs every mutant of one file; returns (results, clean)."""
    tests = check_baseline(args.build_dir, target, lock)
    path = ROOT / target.file
    original = path.read_bytes()
    mutants = numbered(target, args, original.decode())
    print(f"== {target.file}: {len(mutants)} mutants, {tests} tests of {target.binary}",
          flush=True)
    restorer = Restorer(path, original)
    results = {"killed": [], "survived": [], "stillborn": [], "unbuildable": []}
    for m in mutants:
        started = time.monotonic()
        for attempt in range(RETRIES + 1):
            with lock_held(lock):
                try:
                    path.write_text(m["text"])
                    code, output = build(args.build_dir, target)
                    by = ""
                    if code != 0:
                        outcome = "stillborn" if target.file in output else "unbuildable"
                    else:
                        failed, by = run_tests(args.build_dir / "bin" / target.binary, target)
                        outcome = "killed" if failed else "survived"
                finally:
                    restorer.restore()
            if outcome != "unbuildable" or attempt == RETRIES:
                break
            time.sleep(RETRY_WAIT_S)
        results[outcome].append(m)
        report(m, outcome, started, by)
        time.sleep(2)  # let waiting builds take the lock between cycles
    restorer.done()
    same = path.read_bytes() == original
    clean = subprocess.run(["git", "-C", str(ROOT), "diff", "--quiet", "--", target.file])
    if not same or clean.returncode != 0:
        print(f"ERROR: {target.file} differs from {'git' if same else 'its original'} after "
              f"the run", file=sys.stderr)
    return results, same and clean.returncode == 0


def mutate_file_private(target, args):
    """mutate_file without the tree: see PrivateBuild."""
    work = Path(tempfile.mkdtemp(prefix="ssdk-mutation-"))
    atexit.register(shutil.rmtree, work, True)
    private = PrivateBuild(args.build_dir, target, work)
    original = (ROOT / target.file).read_bytes()
    if original.decode().startswith(PRAGMAS):
        sys.exit(f"{target.file} holds a mutant (an in-tree run?): restore it first")
    for attempt in range(RETRIES + 1):
        code, output = private.prepare()
        if code == 0:
            code, output = private.build(original.decode())
        if code == 0 or attempt == RETRIES:
            break
        time.sleep(RETRY_WAIT_S)
    if code != 0:
        sys.exit(f"{target.file}: the unmutated private build failed:\n{output[-3000:]}")
    binary = work / target.binary
    tests = check_tests(binary, target)
    mutants = numbered(target, args, original.decode())
    print(f"== {target.file}: {len(mutants)} mutants, {tests} tests of {target.binary} "
          f"(private build in {work})", flush=True)
    results = {"killed": [], "survived": [], "stillborn": [], "unbuildable": []}
    for m in mutants:
        started = time.monotonic()
        for attempt in range(RETRIES + 1):
            by = ""
            binary.unlink(missing_ok=True)
            code, output = private.build(m["text"])
            if code != 0:
                outcome = "stillborn" if target.file in output else "unbuildable"
            else:
                failed, by = run_tests(binary, target)
                outcome = "killed" if failed else "survived"
            if outcome != "unbuildable" or attempt == RETRIES:
                break
            time.sleep(RETRY_WAIT_S)
        results[outcome].append(m)
        report(m, outcome, started, by)
    shutil.rmtree(work, ignore_errors=True)
    return results, True


def summary(target, results):
    scored = len(results["killed"]) + len(results["survived"])
    return (f"{target.file}: {len(results['killed'])}/{scored} killed, "
            f"{len(results['survived'])} survived, {len(results['stillborn'])} stillborn, "
            f"{len(results['unbuildable'])} unbuildable (another file failed)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", help="files of the table (default: health_rules)")
    parser.add_argument("--target-file", action="append", default=[],
                        help="the same as a positional file")
    parser.add_argument("--all", action="store_true", help="every file of the table")
    parser.add_argument("--targets", action="store_true", help="print the table")
    parser.add_argument("--build-dir", type=Path, default=ROOT / "build" / "release")
    parser.add_argument("--private", action="store_true",
                        help="build mutants outside the tree, without the lock (PrivateBuild)")
    parser.add_argument("--list", action="store_true", help="only print the mutants")
    parser.add_argument("--only", default="", help="mutant numbers, e.g. 3,7")
    parser.add_argument("--max", type=int, default=None, help="the first N mutants per file")
    parser.add_argument("--tests", help="a Catch test spec instead of the table's (e.g. only "
                        "the older tests, to compare scores)")
    args = parser.parse_args()

    if args.targets:
        for t in TARGETS:
            print(f"{t.file:45} {t.binary:17} {' '.join(repr(s) for s in t.tests)}")
        return 0
    if args.all:
        targets = TARGETS
    else:
        targets = []
        for wanted in args.files + args.target_file or ["core/smart/health_rules.cpp"]:
            found = [t for t in TARGETS if t.file == wanted or Path(t.file).name == wanted]
            if not found:
                sys.exit(f"{wanted} is not in the table (--targets lists it)")
            targets += found
    if args.tests is not None:
        targets = [replace(t, tests=(args.tests,)) for t in targets]
    if args.list:
        for t in targets:
            print(f"== {t.file}")
            for m in numbered(t, args):
                print(f"{m['number']:3} line {m['line']:4} {m['what']:22} {m['mutated']}")
        return 0

    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, on_signal)
    scores, survivors, all_clean = [], [], True
    with open(LOCK, "a") as lock:
        for t in targets:
            if args.private:
                results, clean = mutate_file_private(t, args)
            else:
                results, clean = mutate_file(t, args, lock)
            all_clean = all_clean and clean
            scores.append(summary(t, results))
            survivors += [(t, m) for m in results["survived"]]
            print(scores[-1], flush=True)
    print()
    for line in scores:
        print(line)
    for t, m in survivors:
        print(f"SURVIVED {t.file} {m['number']}: line {m['line']} {m['what']}: {m['mutated']}")
    if not all_clean:
        return 2
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
