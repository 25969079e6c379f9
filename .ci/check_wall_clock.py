#!/usr/bin/env python3
"""Wall-clock check: no test asserts that something took less than a second.

A busy CI machine (two cores shared by sanitizer builds) makes short time bounds flaky, and a
bound is a benchmark's job (`dpsynth bench`), not a unit test's: tests count events instead
(README, DESIGN.md). This scans tests/ for assertions (QVERIFY, QVERIFY2, QCOMPARE_LT/LE,
QTRY_*) that compare a time-like value (elapsed, ms, msec, millis, seconds, latency, duration)
with `<` or `<=` against a number (a gap, a latency, an elapsed time), and reports those under
one second.

Prints file:line: the assertion, and a count. Exit status 1 when one is found outside the
--report-only folders (e.g. --report-only tests/ui while another change fixes them).
"""
import argparse
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
ASSERT = re.compile(r'\b(QVERIFY2?|QCOMPARE_(?:LT|LE)|QTRY_VERIFY2?(?:_WITH_TIMEOUT)?|'
                    r'QTRY_COMPARE(?:_WITH_TIMEOUT)?)\s*\(')
TIME_WORD = re.compile(r'elapsed|msec|millis|\bms\b|Ms\b|_ms\b|seconds|latency|duration|gap|took',
                       re.IGNORECASE)
BOUND = re.compile(r'([A-Za-z_][\w.:>()\-\[\]]*)\s*(<=|<)\s*([0-9][0-9.e]*)(?:\s*\*\s*([0-9.]+))?')


def bound_seconds(lhs, number):
    """The bound in seconds: milliseconds unless the value says seconds."""
    if re.search(r'seconds|\.count\(\)', lhs, re.IGNORECASE) and not re.search(
            r'ms|msec|millis|elapsed', lhs, re.IGNORECASE):
        return number
    return number / 1000.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--report-only', action='append', default=[],
                        help='folder below the root whose findings do not fail (e.g. tests/ui)')
    args = parser.parse_args()
    found = failing = 0
    for path in sorted((ROOT / 'tests').rglob('*.cpp')):
        rel = path.relative_to(ROOT)
        for number, line in enumerate(path.read_text(errors='replace').splitlines(), 1):
            if not ASSERT.search(line):
                continue
            for m in BOUND.finditer(line):
                lhs = m.group(1)
                if not TIME_WORD.search(lhs):
                    continue
                value = float(m.group(3)) * (float(m.group(4)) if m.group(4) else 1.0)
                seconds = bound_seconds(lhs, value)
                if seconds >= 1.0:
                    continue
                report_only = any(str(rel).startswith(p.rstrip('/') + '/') for p in args.report_only)
                print(f'{rel}:{number}: a {seconds:g} s bound: {line.strip()}' +
                      (' (reported)' if report_only else ''))
                found += 1
                failing += 0 if report_only else 1
    print(f'{found} assertion(s) of a wall-clock bound under 1 s')
    return 1 if failing else 0


if __name__ == '__main__':
    sys.exit(main())
