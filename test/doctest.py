#!/usr/bin/env python3
"""The doc test: every SQL example of README.md and docs/ runs, and the docs agree with the
catalog and with the files they cite.

  test/doctest.py [--pages PAGE...] [--catalog] [--links]

Run by test/doctest.sh (which builds ldp and starts a private cluster) and by test/run.sh
(against its test cluster); the server is the one libpq's variables (PGHOST, PGPORT, PGUSER)
name, the client `psql` on PATH or $PSQL. Prints one line per check, "doc: <what> ... ok" or
"doc: <what> ... FAILED", and the reasons; exits non-zero on a failure.

Pages (--pages, default README.md and every docs/**/*.md): a page runs in ONE psql session
(-X -q: no command tags) in a fresh database `ldp_doc`, created without ldp, dropped after
the page with every role the page created. Fenced blocks by info string:
  ```sql                     runs; no statement of it may fail
  ```sql error 42501         runs; must fail, its last error having that SQLSTATE
  ```sql skip <reason>       not run; the reason is required
  ```sql signature           not run: a synopsis line per function (--catalog checks them)
  ```output                  right after a sql block: that block's expected stdout in psql's
                             aligned format, compared line by line (trailing spaces ignored)
Other fences (sh, cpp, text, ...) are not run.

--catalog: in a database with ldp, every function of schema ldp that PUBLIC may execute, and
every procedure, has exactly one signature line on its family page (the page of the
extension/sql file that creates it, FAMILY_PAGES below); every signature line anywhere names a
function of the catalog with those argument names, types, defaults and result.

--links: no tracked file cites the workspace's private design and algorithm notes, which a
clone does not hold (NOTES below), released scripts included; every `docs/....md#anchor` cited by a tracked
file, and every relative Markdown link of README.md and docs/, names a file that exists and
a heading of it (GitHub's anchors).
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..'))
PSQL = os.environ.get('PSQL', 'psql')
DB = 'ldp_doc'

# the page that documents the functions an extension/sql file creates
FAMILY_PAGES = {
    '00_guard': 'docs/summaries.md', '00_types': 'docs/summaries.md',
    '10_mean': 'docs/means.md', '20_freq': 'docs/frequency.md',
    '30_security': 'docs/security.md', '40_collections': 'docs/collections.md',
    '41_collection_close': 'docs/collections.md', '50_thresh': 'docs/thresh.md',
    '61_heavythresh': 'docs/thresh.md', '60_sketch': 'docs/sketches.md',
    '65_heavy': 'docs/heavy-hitters.md', '68_rappor': 'docs/rappor.md', '69_range': 'docs/ranges.md',
    '70_role_rules': 'docs/security.md',
}

failures = 0


def report(what, problems, detail=''):
    global failures
    if problems:
        failures += 1
        print(f'doc: {what} ... FAILED')
        for p in problems:
            print('   ' + p.replace('\n', '\n   '))
    else:
        print(f'doc: {what}' + (f' ({detail})' if detail else '') + ' ... ok')
    sys.stdout.flush()


# ---------------------------------------------------------------------------
# Markdown: fenced blocks

FENCE = re.compile(r'^( {0,12})(`{3,}|~{3,})\s*([^`]*)$')


def blocks(path):
    """[(line, info, text)] of the fenced blocks of a Markdown file, in order."""
    out, lines = [], open(path, encoding='utf-8').read().split('\n')
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, info = len(m.group(1)), m.group(2), m.group(3).strip()
        start, body = i + 1, []
        i += 1
        while i < len(lines):
            c = re.match(r'^ {0,12}(`{3,}|~{3,})\s*$', lines[i])
            if c and c.group(1)[0] == fence[0] and len(c.group(1)) >= len(fence):
                break
            body.append(lines[i][indent:] if lines[i][:indent].strip() == '' else lines[i])
            i += 1
        out.append((start, info, '\n'.join(body), i))
        i += 1
    return out


def page_blocks(path):
    """The runnable units of a page: dicts with line, kind, text, state, expected output."""
    units, bs = [], blocks(path)
    lines = open(path, encoding='utf-8').read().split('\n')
    for n, (line, info, text, end) in enumerate(bs):
        words = info.split()
        if not words or words[0] != 'sql':
            continue
        u = {'line': line, 'text': text, 'kind': 'run', 'state': '00000', 'output': None}
        if len(words) > 1:
            if words[1] == 'error' and len(words) == 3 and re.fullmatch(r'[0-9A-Z]{5}', words[2]):
                u['kind'], u['state'] = 'error', words[2]
            elif words[1] == 'skip':
                u['kind'], u['reason'] = 'skip', ' '.join(words[2:])
            elif words[1] == 'signature' and len(words) == 2:
                u['kind'] = 'signature'
            else:
                u['kind'], u['bad'] = 'bad', f'unknown fence "```{info}"'
        if n + 1 < len(bs) and bs[n + 1][1] == 'output' and \
                all(not lines[k].strip() for k in range(end + 1, bs[n + 1][0] - 1)):
            u['output'] = bs[n + 1][2]
        units.append(u)
    return units


def normalize_output(text):
    ls = [l.rstrip() for l in text.split('\n')]
    while ls and not ls[0]:
        ls.pop(0)
    while ls and not ls[-1]:
        ls.pop()
    return ls


def psql(sql, db='postgres', check=True):
    r = subprocess.run([PSQL, '-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1', '-d', db, '-c', sql],
                       capture_output=True, text=True)
    if check and r.returncode != 0:
        raise RuntimeError(f'psql -c {sql!r}: {r.stderr.strip()}')
    return r.stdout


def roles():
    return set(psql('SELECT rolname FROM pg_roles').split())


def fresh_db():
    psql(f'DROP DATABASE IF EXISTS {DB} WITH (FORCE)')
    psql(f'CREATE DATABASE {DB}')


def drop_page(before):
    psql(f'DROP DATABASE IF EXISTS {DB} WITH (FORCE)')
    for r in sorted(roles() - before):
        psql(f'DROP ROLE "{r}"', check=False)
        if r in roles():  # owns or is granted something elsewhere
            print(f'   note: role {r} could not be dropped')


def run_page(path):
    rel = os.path.relpath(path, ROOT)
    units = page_blocks(path)
    problems = [f'{rel}:{u["line"]}: {u["bad"]}' for u in units if u['kind'] == 'bad']
    problems += [f'{rel}:{u["line"]}: ```sql skip without a reason' for u in units
                 if u['kind'] == 'skip' and not u['reason']]
    run = [u for u in units if u['kind'] in ('run', 'error')]
    for u in run:
        code = [l for l in u['text'].split('\n') if l.strip() and not l.strip().startswith('--')]
        if not code:
            problems.append(f'{rel}:{u["line"]}: an empty sql block')
        elif not (code[-1].rstrip().endswith(';') or code[-1].lstrip().startswith('\\')):
            problems.append(f'{rel}:{u["line"]}: the block does not end its last statement with ;')
    if not run:
        if problems:
            report(rel, problems)
        return
    script = ['\\set ON_ERROR_STOP 0', '\\pset pager off']
    for k, u in enumerate(run):
        script += [f'\\echo @@doc {k} begin', f'\\warn @@doc {k} begin',
                   '\\set LAST_ERROR_SQLSTATE 00000', u['text'],
                   f'\\echo @@doc {k} end :LAST_ERROR_SQLSTATE', f'\\warn @@doc {k} end']
    before = roles()
    fresh_db()
    try:
        with tempfile.NamedTemporaryFile('w', suffix='.sql', delete=False) as f:
            f.write('\n'.join(script) + '\n')
        r = subprocess.run([PSQL, '-X', '-q', '-d', DB, '-f', f.name],
                           capture_output=True, text=True, timeout=900)
        os.unlink(f.name)
    finally:
        drop_page(before)
    out, err = split_markers(r.stdout), split_markers(r.stderr)
    checked = 0
    for k, u in enumerate(run):
        where = f'{rel}:{u["line"]}'
        if k not in out:
            problems.append(f'{where}: the block did not run (psql stopped before it)')
            continue
        body, state = out[k]
        messages = '\n'.join(err.get(k, ([], ''))[0])
        if u['kind'] == 'run' and state != '00000':
            problems.append(f'{where}: failed with SQLSTATE {state}:\n{messages}')
        elif u['kind'] == 'error' and state != u['state']:
            problems.append(f'{where}: expected to fail with SQLSTATE {u["state"]}, got '
                            f'{"success" if state == "00000" else state}:\n{messages}')
        if u['output'] is not None:
            checked += 1
            want, got = normalize_output(u['output']), normalize_output('\n'.join(body))
            if want != got:
                problems.append(f'{where}: output differs; expected:\n' + '\n'.join(want) +
                                '\ngot:\n' + '\n'.join(got))
    if r.returncode != 0 and not problems:
        problems.append(f'{rel}: psql exited with {r.returncode}: {r.stderr[-2000:]}')
    skipped = sum(u['kind'] == 'skip' for u in units)
    errors = sum(u['kind'] == 'error' for u in run)
    report(rel, problems, f'{len(run)} sql blocks run, {checked} outputs checked, '
                          f'{errors} expected errors, {skipped} skipped')


def split_markers(text):
    """{block: (lines, state)} from the @@doc markers of psql's stdout or stderr."""
    res, cur, lines = {}, None, []
    for l in text.split('\n'):
        m = re.match(r'^@@doc (\d+) (begin|end)\s*(\S*)$', l)
        if m:
            if m.group(2) == 'begin':
                cur, lines = int(m.group(1)), []
            elif cur is not None:
                res[cur] = (lines, m.group(3))
                cur = None
        elif cur is not None:
            lines.append(l)
    return res


# ---------------------------------------------------------------------------
# Signatures against the catalog

ALIASES = [(r'\bfloat8\b', 'double precision'), (r'\bfloat4\b', 'real'), (r'\bint8\b', 'bigint'),
           (r'\bint4\b', 'integer'), (r'\bint\b', 'integer'), (r'\bint2\b', 'smallint'),
           (r'\bbool\b', 'boolean'), (r'\bvarchar\b', 'character varying'), (r'\bvarbit\b', 'bit varying'),
           (r'\btimestamptz\b', 'timestamp with time zone'), (r'\bdecimal\b', 'numeric')]
TYPE = r'(?:"[^"]+"|[a-z_][a-z0-9_]*)(?:\s+(?:precision|varying|with time zone|without time zone))?(?:\[\])*'


def norm(s):
    s = ' '.join(s.replace('→', '->').split()).lower()
    s = re.sub(r'\bldp\.', '', s)
    for a, b in ALIASES:
        s = re.sub(a, b, s)
    s = re.sub(r'\(([^()]*)\)::' + TYPE, r'\1', s)   # (1)::double precision -> 1
    s = re.sub(r'::' + TYPE, '', s)                   # NULL::bigint -> NULL
    s = re.sub(r'\s*([(),])\s*', r'\1', s)
    s = re.sub(r'(^|[(,])in\s+', r'\1', s)          # IN is the default mode
    s = re.sub(r'\btimestamp\b(?! with)', 'timestamp without time zone', s)
    return s


def signature_lines(path):
    """[(line, name, args, result or None)] of a page's ```sql signature blocks."""
    out = []
    for line, info, text, _ in blocks(path):
        if info.split() != ['sql', 'signature']:
            continue
        buf, start = '', None
        for k, l in enumerate(text.split('\n')):
            if not l.strip() and not buf:
                continue
            if not buf:
                start = line + k
            buf += ' ' + l.strip()
            if buf.count('(') and buf.count('(') == buf.count(')') and \
                    ('->' in buf or '→' in buf or buf.strip().upper().startswith('CALL')):
                m = re.match(r'^\s*(CALL\s+)?ldp\.(\w+)\s*\((.*?)\)\s*(?:(?:→|->)\s*(.+?))?\s*;?\s*$',
                             buf, re.S)
                # the argument list is everything up to the parenthesis that closes the first
                if m:
                    depth, i0 = 0, buf.index('(')
                    for i in range(i0, len(buf)):
                        depth += {'(': 1, ')': -1}.get(buf[i], 0)
                        if depth == 0:
                            break
                    args, rest = buf[i0 + 1:i], buf[i + 1:].strip()
                    res = re.sub(r'^(→|->)\s*', '', rest).rstrip(';').strip() or None
                    out.append((start, m.group(2), args, res))
                else:
                    out.append((start, None, buf.strip(), None))
                buf = ''
        if buf.strip():
            out.append((start, None, buf.strip(), None))
    return out


def split_args(args):
    """An argument list split at its top-level commas."""
    parts, depth, cur = [], 0, ''
    for ch in args:
        depth += {'(': 1, ')': -1}.get(ch, 0)
        if ch == ',' and depth == 0:
            parts.append(cur.strip())
            cur = ''
        else:
            cur += ch
    return parts + [cur.strip()] if cur.strip() else parts


MULTIWORD_TYPES = ('double precision', 'character varying', 'bit varying', 'timestamp with time zone',
                   'timestamp without time zone')


def arg_types(args):
    """The input types of an argument list (names, modes, defaults and OUT ones left out)."""
    types = []
    for a in split_args(norm(args.replace('@extschema@.', ''))):
        a = re.split(r'\s+default\s+|\s*=\s*', a)[0].strip()
        mode = re.match(r'^(in|out|inout|variadic)\s+', a)
        if mode and mode.group(1) == 'out':
            continue
        a = a[mode.end():] if mode else a
        if len(a.split()) > 1 and a not in MULTIWORD_TYPES:
            a = a.split(None, 1)[1]
        types.append(a)
    return tuple(types)


def defining_files():
    """{(function name, input types): extension/sql file stem} from the CREATE statements."""
    res = {}
    d = os.path.join(ROOT, 'extension/sql')
    for f in sorted(os.listdir(d)):
        text = open(os.path.join(d, f)).read()
        for m in re.finditer(r'CREATE\s+(?:OR\s+REPLACE\s+)?(?:FUNCTION|PROCEDURE|AGGREGATE)\s+'
                             r'@extschema@\.(\w+)\s*\(', text, re.I):
            depth, i = 1, m.end()
            while depth and i < len(text):
                depth += {'(': 1, ')': -1}.get(text[i], 0)
                i += 1
            res.setdefault((m.group(1), arg_types(text[m.end():i - 1])), f[:-4])
    return res


def check_catalog(pages):
    psql('DROP DATABASE IF EXISTS ldp_doc_catalog WITH (FORCE)')
    psql('CREATE DATABASE ldp_doc_catalog')
    try:
        psql('CREATE EXTENSION ldp', 'ldp_doc_catalog')
        rows = psql(r"""
SELECT p.proname, p.prokind, pg_get_function_arguments(p.oid),
       coalesce(pg_get_function_result(p.oid), ''),
       p.proacl IS NULL OR EXISTS (SELECT FROM aclexplode(p.proacl) a
                                   WHERE a.grantee = 0 AND a.privilege_type = 'EXECUTE')
FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE n.nspname = 'ldp' ORDER BY 1, 3""".replace('\n', ' '), 'ldp_doc_catalog')
    finally:
        psql('DROP DATABASE IF EXISTS ldp_doc_catalog WITH (FORCE)')
    catalog = []
    for r in rows.strip().split('\n'):
        name, kind, args, res, public = r.split('|')
        c = {'name': name, 'kind': kind, 'args': args, 'result': res,
             'public': public == 't', 'keys': {(name, norm(args), norm(res))}}
        # OUT parameters may also be written as the result: → TABLE(col type, ...) for a
        # set-returning function (SETOF record), → record(col type, ...) for one row
        parts = split_args(args)
        outs = [a[4:] for a in parts if a.lower().startswith('out ')]
        if outs and res in ('record', 'SETOF record'):
            ins = ', '.join(a for a in parts if not a.lower().startswith('out '))
            shape = 'TABLE' if res.startswith('SETOF') else 'record'
            c['keys'].add((name, norm(ins), norm(f'{shape}({", ".join(outs)})')))
        catalog.append(c)
    files = defining_files()
    documented = {}   # key -> [(page, line)]
    problems = []
    for page in pages:
        rel = os.path.relpath(page, ROOT)
        for line, name, args, res in signature_lines(page):
            if name is None:
                problems.append(f'{rel}:{line}: not a signature line: {args}')
                continue
            key = (name, norm(args), norm(res or ''))
            documented.setdefault(key, []).append((rel, line))
    keys = set().union(*(c['keys'] for c in catalog))
    for key, where in sorted(documented.items()):
        if key not in keys:
            cands = [c for c in catalog if c['name'] == key[0]]
            hint = '; the catalog has:\n' + '\n'.join(
                f'  ldp.{c["name"]}({c["args"]})' + (f' → {c["result"]}' if c['result'] else '')
                for c in cands) if cands else '; no such function'
            problems.append(f'{where[0][0]}:{where[0][1]}: ldp.{key[0]}({key[1]}) → {key[2]} '
                            f'is not in the catalog{hint}')
    n_required = 0
    for c in catalog:
        if not (c['public'] or c['kind'] == 'p'):
            continue
        n_required += 1
        page = FAMILY_PAGES.get(files.get((c['name'], arg_types(c['args'])), ''), '?')
        sig = f'ldp.{c["name"]}({c["args"]})' + (f' → {c["result"]}' if c['result'] else '')
        where = [w for k in c['keys'] for w in documented.get(k, []) if w[0] == page]
        if not where:
            problems.append(f'{sig}: no signature line on {page}')
        elif len(where) > 1:
            problems.append(f'{sig}: {len(where)} signature lines on {page}')
    report('signatures against the catalog', problems,
           f'{n_required} public functions and procedures, each on its family page; '
           f'{sum(map(len, documented.values()))} signature lines')


# ---------------------------------------------------------------------------
# Links and citations

def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r'[`*~]|\[([^\]]*)\]\([^)]*\)', lambda m: m.group(1) or '', s)  # GitHub keeps _
    s = re.sub(r'[^\w\- ]', '', s)
    return s.replace(' ', '-')


def anchors(path):
    res, seen, fenced = set(), {}, False
    for l in open(path, encoding='utf-8'):
        if re.match(r'^\s*(```|~~~)', l):
            fenced = not fenced
        m = None if fenced else re.match(r'^#{1,6}\s+(.*?)\s*#*\s*$', l)
        if m:
            s = slug(m.group(1))
            n = seen.get(s, 0)
            seen[s] = n + 1
            res.add(s if n == 0 else f'{s}-{n}')
    return res


# The workspace's notes outside the repository, by path or by name (the pattern written so
# that this file does not itself cite them)
NOTES = re.compile(r'shared[/]docs|\b(?:ALGORITHM|DESIGN)S?[.]md')


def check_links():
    files = subprocess.run(['git', 'ls-files'], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.split()
    problems, n = [], 0
    this = os.path.relpath(__file__, ROOT)
    for f in files:
        p = os.path.join(ROOT, f)
        if f == this or not os.path.isfile(p):
            continue
        try:
            text = open(p, encoding='utf-8').read()
        except UnicodeDecodeError:
            continue
        for k, l in enumerate(text.split('\n'), 1):
            m = NOTES.search(l)
            if m:
                problems.append(f'{f}:{k}: cites {m.group(0)}, which is not in the repository '
                                '(cite docs/...)')
            for m in re.finditer(r'(?<![\w/.])(docs/[\w./-]+\.md)(#[\w-]+)?', l):
                n += 1
                problems += link_problem(f'{f}:{k}', m.group(1), m.group(2))
            if f.endswith('.md') and (f == 'README.md' or f.startswith('docs/')):
                for m in re.finditer(r'\]\(([^)\s#]*)(#[^)\s]*)?\)', l):
                    target, frag = m.group(1), m.group(2)
                    if re.match(r'^[a-z]+:', target):
                        continue
                    n += 1
                    t = os.path.normpath(os.path.join(os.path.dirname(f), target)) if target else f
                    problems += link_problem(f'{f}:{k}', t, frag)
    report('links and citations', problems, f'{n} links to files of the project')


def link_problem(where, target, frag):
    p = os.path.join(ROOT, target)
    if not os.path.exists(p):
        return [f'{where}: {target} does not exist']
    if frag and frag != '#' and target.endswith('.md') and frag[1:] not in anchors(p):
        return [f'{where}: {target} has no heading with the anchor {frag}']
    return []


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--pages', nargs='*')
    ap.add_argument('--catalog', action='store_true')
    ap.add_argument('--links', action='store_true')
    a = ap.parse_args()
    every = [os.path.join(ROOT, 'README.md')] + sorted(
        os.path.join(d, f) for d, _, fs in os.walk(os.path.join(ROOT, 'docs')) for f in fs
        if f.endswith('.md'))
    if a.pages is None and not a.catalog and not a.links:
        a.pages, a.catalog, a.links = [], True, True
    pages = [os.path.abspath(p) for p in a.pages] if a.pages else every
    if a.pages is not None:
        for p in pages:
            run_page(p)
    if a.catalog:
        check_catalog(every)
    if a.links:
        check_links()
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
