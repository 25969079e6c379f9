#!/usr/bin/env python3
"""Layering check: which folder may include which (DESIGN.md, "Shape to keep").

  core/      no Qt header, nothing from ui/ or app/ (the engine knows no front end)
  ui views   (panels, widgets, plots, workspaces, models, dialogs, document) never include
             ui/main_window.h: a view renders the document and sends edits, it does not reach
             into the window
  ui/panels, ui/widgets, ui/plots  never include ui/workers/: a view is told what a worker did,
             it does not own or drive one

Prints one line per offending include (file:line: rule: the include) and a count per rule.
Exit status 1 when a rule is broken in a checked area, 0 otherwise. --report-only AREA (repeatable,
e.g. ui) lists that area's breaches without failing, for an area another change is still fixing.
"""
import argparse
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')
SOURCES = ('.h', '.hpp', '.cpp', '.cc')
QT = re.compile(r'^(Q[A-Za-z0-9_]*|Qt[A-Za-z0-9_]*/.*|qcustomplot\.h)$')
VIEWS = ('panels', 'widgets', 'plots', 'workspaces', 'models', 'dialogs', 'document')
NO_WORKERS = ('panels', 'widgets', 'plots')


def rules_for(rel):
    """(rule name, predicate on the included path) pairs that apply to a file."""
    parts = rel.parts
    rules = []
    if parts[0] == 'core':
        rules.append(('core: no Qt', lambda inc, angle: bool(QT.match(inc))))
        rules.append(('core: no ui/ or app/',
                      lambda inc, angle: inc.startswith('ui/') or inc.startswith('app/')))
    if parts[0] == 'ui' and len(parts) > 2 and parts[1] in VIEWS:
        rules.append(('ui views: no ui/main_window.h', lambda inc, angle: inc == 'ui/main_window.h'))
    if parts[0] == 'ui' and len(parts) > 2 and parts[1] in NO_WORKERS:
        rules.append(('ui panels/widgets/plots: no ui/workers/',
                      lambda inc, angle: inc.startswith('ui/workers/')))
    return rules


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--report-only', action='append', default=[],
                        help='top folder whose breaches are listed without failing (e.g. ui)')
    args = parser.parse_args()
    counts = {}
    failing = 0
    for top in ('core', 'ui'):
        for path in sorted((ROOT / top).rglob('*')):
            if path.suffix not in SOURCES or not path.is_file():
                continue
            rel = path.relative_to(ROOT)
            rules = rules_for(rel)
            if not rules:
                continue
            for number, line in enumerate(path.read_text(errors='replace').splitlines(), 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                angle, inc = m.group(1) == '<', m.group(2)
                for name, broken in rules:
                    if broken(inc, angle):
                        report_only = rel.parts[0] in args.report_only
                        print(f'{rel}:{number}: {name}: {inc}' + (' (reported)' if report_only else ''))
                        counts[name] = counts.get(name, 0) + 1
                        failing += 0 if report_only else 1
    for name in sorted(counts):
        print(f'{counts[name]:4d}  {name}')
    if not counts:
        print('layering: every include follows the rules')
    return 1 if failing else 0


if __name__ == '__main__':
    sys.exit(main())
