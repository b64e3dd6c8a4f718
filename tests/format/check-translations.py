#!/usr/bin/env python3
"""check-translations.py LUPDATE 'OPTIONS;…' 'INPUTS;…' TS…: fails naming each problem of a
translation (translations/ssdkeeper_<lang>.ts, docs/translating.md):
- out of step with the sources: lupdate, run as the update_translations target runs it but into a
  copy, finds strings the .ts lacks or drops strings it still holds (ssdkeeper_en.ts: only the
  plural strings);
- an entry not finished (unfinished, vanished or obsolete), or finished with an empty text;
- a translation whose placeholders differ from its source's: Qt's %1…%99 and %n, and fmt's {…}
  in core's sentences (core/base/translate.h; a translation may number them to reorder), each
  kept as often as in the source;
- a keyboard accelerator (&) lost or doubled.
"""
import collections
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

QT_PLACEHOLDER = re.compile(r"%(\d{1,2}|n)")
FMT_PLACEHOLDER = re.compile(r"\{[^{}]*\}")
# "&x" marks x as the accelerator; "&&" is a literal ampersand, "& " is no accelerator.
ACCELERATOR = re.compile(r"&(?!&|\s)")


def messages(path):
    """{(context, source, comment): (type, [translation texts], numerus)}"""
    found = {}
    for context in ET.parse(path).getroot().iter("context"):
        name = context.findtext("name")
        for message in context.iter("message"):
            translation = message.find("translation")
            numerus = message.get("numerus") == "yes"
            forms = ([form.text or "" for form in translation.iter("numerusform")]
                     if numerus else [translation.text or ""])
            key = (name, message.findtext("source") or "", message.findtext("comment") or "")
            found[key] = (translation.get("type"), forms, numerus)
    return found


def placeholders(text):
    """Qt's %N and %n, and fmt's fields as (argument index, format spec): a translation may number
    fmt's fields ("{1} … {0}") to reorder what the source takes in order ("{} … {}")."""
    counted = collections.Counter(QT_PLACEHOLDER.findall(text))
    fields = FMT_PLACEHOLDER.findall(text.replace("{{", "").replace("}}", ""))
    indices = [field[1:-1].partition(":")[0] for field in fields]
    if any(indices) and not all(indices):
        counted["fmt fields both numbered and not"] += 1
        return counted
    for position, field in enumerate(fields):
        index, _, spec = field[1:-1].partition(":")
        counted[f"{{{index or position}:{spec}}}"] += 1
    return counted


def describe(key):
    context, source, comment = key
    shown = source if len(source) < 70 else source[:67] + "…"
    return f"[{context}] {shown!r}" + (f" ({comment})" if comment else "")


def check(lupdate, options, inputs, ts):
    problems = []
    have = messages(ts)
    with tempfile.TemporaryDirectory() as work:
        copy = Path(work) / ts.name
        shutil.copyfile(ts, copy)
        # The English file holds only the plural forms of the English sources.
        plural_only = ["-pluralonly"] if ts.name.endswith("_en.ts") else []
        run = subprocess.run([lupdate, *options, *plural_only, *inputs, "-ts", str(copy)],
                             capture_output=True, text=True)
        if run.returncode != 0:
            return [f"lupdate failed ({run.returncode}):\n{run.stdout}{run.stderr}"]
        wanted = messages(copy)
    for key in sorted(wanted.keys() - have.keys()):
        problems.append(f"not in the .ts yet (run the update_translations target): {describe(key)}")
    for key in sorted(have.keys() - wanted.keys()):
        problems.append(f"no longer in the sources (run the update_translations target): "
                        f"{describe(key)}")
    for key, (kind, forms, numerus) in sorted(have.items()):
        if kind is not None:
            problems.append(f"{kind}: {describe(key)}")
            continue
        if not forms or any(not form.strip() for form in forms):
            problems.append(f"empty translation: {describe(key)}")
            continue
        source = key[1]
        want = placeholders(source)
        for form in forms:
            got = placeholders(form)
            # A plural form may leave %n out (e.g. "one file" for n = 1) only when it is not
            # the sole form; every other placeholder is kept as often as in the source.
            if numerus and len(forms) > 1:
                got["n"] = want["n"]
            if got != want:
                problems.append(f"placeholders differ ({dict(want)} in the source, {dict(got)} "
                                f"in {form!r}): {describe(key)}")
            if len(ACCELERATOR.findall(form)) != len(ACCELERATOR.findall(source)):
                problems.append(f"accelerator (&) lost or doubled in {form!r}: {describe(key)}")
    return problems


def main():
    if len(sys.argv) < 5:
        print(__doc__)
        return 2
    lupdate, options, inputs = sys.argv[1], sys.argv[2].split(";"), sys.argv[3].split(";")
    status = 0
    for name in sys.argv[4:]:
        ts = Path(name)
        problems = check(lupdate, options, inputs, ts)
        if problems:
            status = 1
            print(f"{ts}: {len(problems)} problem(s)")
            for problem in problems:
                print("    " + problem)
        else:
            print(f"{ts}: {len(messages(ts))} strings, all finished, in step with the sources, "
                  "placeholders and accelerators kept")
    return status


if __name__ == "__main__":
    sys.exit(main())
