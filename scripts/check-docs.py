#!/usr/bin/env python3
"""Checks the project's Markdown: every relative link names a file or folder that exists, and every #anchor
a heading of the file it points at (GitHub's anchor rules: lower case, punctuation dropped, spaces to '-',
repeats numbered -1, -2, ...). External links (http, https, mailto) are not fetched. With --run, it also runs
every code block marked runnable (a fence opened with ```sh runnable) with bash -euo pipefail from the
project's root, and fails on one that exits non-zero or runs past 10 minutes.

Usage: scripts/check-docs.py [--run] [FILE.md ...]
       (default files: README.md, CONTRIBUTING.md, CHANGELOG.md, results/README.md and docs/**/*.md)
Exits 1 and names each broken link (file:line, the link, what is missing) and each failed block if any."""
import os
import re
import subprocess
import sys
import unicodedata

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
LINK = re.compile(r'(?<!!)\[(?:[^\]\[]|\[[^\]]*\])*\]\(([^()\s]+(?:\([^()]*\))?[^()\s]*)(?:\s+"[^"]*")?\)')
IMAGE = re.compile(r'!\[[^\]]*\]\(([^)\s]+)\)')
FENCE = re.compile(r'^\s*(```|~~~)')


def slug(heading):
    text = re.sub(r'`([^`]*)`', r'\1', heading.strip())
    text = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', text)  # a link in a heading keeps its text
    text = re.sub(r'<[^>]+>', '', text)
    text = text.lower()
    out = []
    for ch in text:
        cat = unicodedata.category(ch)
        if ch in ' -':
            out.append('-' if ch == ' ' else ch)
        elif ch == '_' or cat[0] in 'LN' or cat == 'Mn':
            out.append(ch)
    return ''.join(out)


def anchors(path, cache={}):
    if path not in cache:
        found, seen, fenced = set(), {}, False
        with open(path, encoding='utf-8') as f:
            for line in f:
                if FENCE.match(line):
                    fenced = not fenced
                    continue
                m = None if fenced else re.match(r'^(#{1,6})\s+(.*?)\s*#*\s*$', line)
                if m:
                    base = slug(m.group(2))
                    n = seen.get(base, 0)
                    seen[base] = n + 1
                    found.add(base if n == 0 else '%s-%d' % (base, n))
                for a in re.findall(r'<a\s+(?:name|id)="([^"]+)"', line):
                    found.add(a)
        cache[path] = found
    return cache[path]


def links(path):
    fenced = False
    with open(path, encoding='utf-8') as f:
        for number, line in enumerate(f, 1):
            if FENCE.match(line):
                fenced = not fenced
                continue
            if fenced:
                continue
            stripped = re.sub(r'`[^`]*`', '', line)
            for m in list(LINK.finditer(stripped)) + list(IMAGE.finditer(stripped)):
                yield number, m.group(1)


def check(path):
    problems = []
    for number, target in links(path):
        if re.match(r'^[a-z][a-z0-9+.-]*:', target):
            continue
        file_part, _, anchor = target.partition('#')
        where = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
        rel = os.path.relpath(path, ROOT)
        if not os.path.exists(where):
            problems.append('%s:%d: %s: no such file %s' % (rel, number, target, os.path.relpath(where, ROOT)))
            continue
        if anchor and where.endswith('.md') and anchor not in anchors(where):
            problems.append('%s:%d: %s: %s has no heading with the anchor #%s'
                            % (rel, number, target, os.path.relpath(where, ROOT), anchor))
    return problems


def runnable_blocks(path):
    """Yields (line, script) for each fenced block whose info string is 'sh runnable' or 'bash runnable'."""
    block, start = None, 0
    with open(path, encoding='utf-8') as f:
        for number, line in enumerate(f, 1):
            if block is None:
                m = re.match(r'^```(sh|bash)\s+runnable\s*$', line)
                if m:
                    block, start = [], number
            elif line.startswith('```'):
                yield start, ''.join(block)
                block = None
            else:
                block.append(line)


def run_blocks(path):
    problems = []
    rel = os.path.relpath(path, ROOT)
    for number, script in runnable_blocks(path):
        print('running %s:%d' % (rel, number), flush=True)
        try:
            done = subprocess.run(['bash', '-euo', 'pipefail', '-c', script], cwd=ROOT, timeout=600,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if done.returncode != 0:
                problems.append('%s:%d: the runnable block exited %d:\n%s'
                                % (rel, number, done.returncode, done.stdout[-3000:]))
        except subprocess.TimeoutExpired:
            problems.append('%s:%d: the runnable block ran past 10 minutes' % (rel, number))
    return problems


def default_files():
    files = [os.path.join(ROOT, name) for name in ('README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', 'results/README.md')]
    for dirpath, _, names in os.walk(os.path.join(ROOT, 'docs')):
        files += [os.path.join(dirpath, n) for n in sorted(names) if n.endswith('.md')]
    return [f for f in files if os.path.exists(f)]


def main(args):
    run = '--run' in args
    files = [os.path.abspath(a) for a in args if a != '--run'] or default_files()
    problems = [p for f in files for p in check(f)]
    for p in problems:
        print(p)
    print('%d files, %d broken links' % (len(files), len(problems)))
    failed = [p for f in files for p in run_blocks(f)] if run else []
    for p in failed:
        print(p)
    if run:
        print('%d runnable blocks failed' % len(failed))
    return 1 if problems or failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
