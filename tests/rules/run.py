#!/usr/bin/env python3
"""tests/rules/run.py - run the rule cases of tests/rules/*.test (format: README).

  run.py validate FILE.test...   each case through `clearing-load validate`,
                                 text (-v) and --format json: the whole result
  run.py load FILE.test...       each case through `clearing-load load` into
                                 the database PGDATABASE names (schema made by
                                 the caller), one tenant per case: exit 3, the
                                 error lines of validate (the first one first),
                                 outcome rejected and no row for an invalid
                                 case; committed with its records for a valid
                                 one
  run.py show FILE.test [NAME]   print the actual validate result of the cases
                                 (a draft of their expected lines: read it
                                 before pasting)

CL_BIN names the program.  Exit 0 when every case passes.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

BIN = os.environ.get("CL_BIN", "clearing-load")
ODFI = "12104288"
NINES = "9" * 94


# ---- reading a case file ----

class Stanza:
    def __init__(self, kind, name, where):
        self.kind, self.name, self.where = kind, name, where
        self.ops = []        # (line number, text) of the input
        self.args = []
        self.records = None  # records: N
        self.stored = None   # stored: N (statement rows a load stores)
        self.summary = None  # expect: ...
        self.expected = []   # expected error and note lines


def parse_file(path):
    fixtures, cases, cur = {}, [], None
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for no, line in enumerate(lines, 1):
        if line.startswith("#"):
            continue
        if line.strip() == "":
            cur = None
            continue
        where = "%s:%d" % (path, no)
        if cur is None:
            m = re.match(r"(fixture|case): (.+)$", line)
            if not m:
                sys.exit("%s: a stanza starts with 'case: NAME' or 'fixture: NAME'" % where)
            cur = Stanza(m.group(1), m.group(2), where)
            if cur.kind == "fixture":
                fixtures[cur.name] = cur
            else:
                cases.append(cur)
        elif cur.summary is not None:
            cur.expected.append(line)
        elif line.startswith("expect: ") and cur.kind == "case":
            cur.summary = line[len("expect: "):]
        elif line.startswith("args: "):
            cur.args = line[len("args: "):].split()
        elif line.startswith("records: "):
            cur.records = int(line[len("records: "):])
        elif line.startswith("stored: "):
            cur.stored = int(line[len("stored: "):])
        else:
            cur.ops.append((where, line))
    for c in cases:
        if c.summary is None:
            sys.exit("%s: case %r has no 'expect:' line" % (c.where, c.name))
    return fixtures, cases


def unescape(s):
    """\\t \\r \\n \\0 \\\\ \\xHH in TEXT; the result is bytes (latin-1)."""
    out, i = [], 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            n = s[i + 1]
            if n == "x":
                out.append(chr(int(s[i + 2:i + 4], 16)))
                i += 4
                continue
            out.append({"t": "\t", "r": "\r", "n": "\n", "0": "\0", "\\": "\\"}.get(n, "\\" + n))
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out).encode("latin-1")


# ---- building an input ----

def check_digit(d8):
    w = (3, 7, 1, 3, 7, 1, 3, 7)
    return (10 - sum(a * int(b) for a, b in zip(w, d8)) % 10) % 10


class Build:
    """The input as it is built: bytes, the NACHA totals of the builder
    operations (tests/unit/ach_fixture.h computes them the same way), and a
    CSV table until the first byte operation renders it."""

    def __init__(self):
        self.buf = bytearray()
        self.eol = b"\n"
        self.table = None  # [header, row, row...]
        self.batches = self.f_count = self.f_hash = self.f_debit = self.f_credit = 0
        self.b_count = self.b_hash = self.b_debit = self.b_credit = 0
        self.service, self.company, self.batch_no = "200", "", 1

    # NACHA records
    def line(self, rec):
        if isinstance(rec, str):
            rec = rec.encode("latin-1")
        self.buf += rec.ljust(94, b" ") + self.eol

    def count(self, n, h, debit, credit):
        self.b_count += n
        self.f_count += n
        self.b_hash += h
        self.f_hash += h
        self.b_debit += debit
        self.f_debit += debit
        self.b_credit += credit
        self.f_credit += credit

    def lines(self):
        return self.buf.split(b"\n")[:-1] if self.buf.endswith(b"\n") else self.buf.split(b"\n")

    def entry(self, tcode, rdfi8, amount, account, ident, name, indicator, seq):
        self.line("6%.2s%.8s%d%-17.17s%010d%-15.15s%-22.22s  %d%.8s%07d" % (
            tcode, rdfi8, check_digit(rdfi8), account, amount, ident, name, indicator, ODFI, seq))
        credit = int(tcode[1]) <= 4
        self.count(1, int(rdfi8), 0 if credit else amount, amount if credit else 0)

    # bytes: line numbers are 1-based, lines end at LF
    def span(self, no):
        start = 0
        for _ in range(no - 1):
            start = self.buf.find(b"\n", start) + 1
            if start == 0:
                sys.exit("the input has no line %d" % no)
        end = self.buf.find(b"\n", start)
        if end < 0:
            end = len(self.buf)
        if self.eol == b"\r\n" and end > start and self.buf[end - 1:end] == b"\r":
            end -= 1
        return start, end

    # CSV
    def render(self):
        if self.table is None:
            return
        for row in self.table:
            self.buf += b",".join(b'"' + v.replace(b'"', b'""') + b'"' for v in row) + self.eol
        self.table = None

    def col(self, name):
        return self.table[0].index(name.encode())


def apply(b, op, fixtures, where):
    word, _, rest = op.partition(" ")
    a = rest.split()
    if word == "from":
        for name in a:
            if name not in fixtures:
                sys.exit("%s: no fixture %r" % (where, name))
            for w, o in fixtures[name].ops:
                apply(b, o, fixtures, w)
    elif word == "repeat":
        n, _, inner = rest.partition(" ")
        for _ in range(int(n)):
            apply(b, inner, fixtures, where)
    # -- NACHA records with their totals
    elif word == "file":
        b.line("101 231380104 121042882%.10sA094101%-23.23s%-23.23s%-8.8s" % (
            a[0], "FEDERAL RESERVE BANK", "MY COMPANY", ""))
    elif word == "batch":
        company, sec, service, effective, no = a
        b.line("5%.3s%-16.16s%-20.20s%-10.10s%.3s%-10.10s%-6.6s%.6s   1%.8s%07d" % (
            service, "MY COMPANY", "", company, sec, "PAYROLL", "", effective, ODFI, int(no)))
        b.service, b.company, b.batch_no = service, "%-10.10s" % company, int(no)
        b.b_count = b.b_hash = b.b_debit = b.b_credit = 0
        b.batches += 1
    elif word == "iat-batch":
        b.line("5220%16sFF3%15sUS%-10.10sIAT%-10.10sCADUSD260302   1%.8s%07d" % (
            "", "", "123456789", "TRADEPAYMT", ODFI, 1))
        b.batches += 1
        b.service, b.company, b.batch_no = "220", "123456789 ", 1
        b.b_count = b.b_hash = b.b_debit = b.b_credit = 0
        b.line("622121042882%04d%13s0000100000%-35.35s  0 1%.8s%07d" % (
            int(a[0]), "", "ACCOUNT-ABROAD-1", ODFI, 1))
        b.count(1, 12104288, 0, 100000)
    elif word == "entry":
        tcode, rdfi, amount, account, seq = a[:5]
        addenda = rest.split(None, 5)[5] if len(a) > 5 else None
        b.entry(tcode, rdfi, int(amount), account, "ID123", "JOHN DOE", 1 if addenda else 0,
                int(seq))
        if addenda is not None:
            b.line("705%-80.80s0001%07d" % (addenda, int(seq)))
            b.count(1, 0, 0, 0)
    elif word == "entry-full":
        tcode, rdfi, amount, account, ident, indicator, seq = a[:7]
        name = rest.split(None, 7)[7] if len(a) > 7 else ""
        b.entry(tcode, rdfi, int(amount), account, ident, name, int(indicator), int(seq))
    elif word == "entries":
        n, tcode, rdfi, amount, account = a
        for seq in range(1, int(n) + 1):
            b.entry(tcode, rdfi, int(amount), account, "ID123", "JOHN DOE", 0, seq)
    elif word == "raw":
        n, h, debit, credit = (int(x) for x in a[:4])
        b.line(unescape(rest.split(" ", 4)[4]))
        b.count(n, h, debit, credit)
    elif op == "end batch":
        b.line("8%.3s%06d%010d%012d%012d%.10s%-19.19s%-6.6s%.8s%07d" % (
            b.service, b.b_count, b.b_hash % 10000000000, b.b_debit, b.b_credit, b.company,
            "", "", ODFI, b.batch_no))
    elif op in ("end file", "end file fill"):
        nlines = len(b.lines())
        b.line("9%06d%06d%08d%010d%012d%012d%-39.39s" % (
            b.batches, (nlines + 1 + 9) // 10, b.f_count, b.f_hash % 10000000000,
            b.f_debit, b.f_credit, ""))
        while op.endswith("fill") and len(b.lines()) % 10:
            b.line(NINES)
    elif word == "record":
        b.render()
        b.line(unescape(rest))
    elif op == "nines":
        b.line(NINES)
    # -- bytes
    elif word == "at":
        b.render()
        no, col = (int(x) for x in a[0].split(":"))
        text = unescape(rest.split(" ", 1)[1])
        start, _ = b.span(no)
        b.buf[start + col - 1:start + col - 1 + len(text)] = text
    elif word == "line":
        b.render()
        start, end = b.span(int(a[0]))
        b.buf[start:end] = unescape(rest.split(" ", 1)[1]) if len(a) > 1 else b""
    elif word == "copy":
        b.render()
        s, e = b.span(int(a[0]))
        text = bytes(b.buf[s:e])
        start, end = b.span(int(a[1]))
        b.buf[start:end] = text
    elif word == "insert":
        b.render()
        start, _ = b.span(int(a[0]))
        text = unescape(rest.split(" ", 1)[1]) if len(a) > 1 else b""
        b.buf[start:start] = text.ljust(94, b" ") + b.eol
    elif word == "cut":
        b.render()
        start, end = b.span(int(a[0]))
        del b.buf[start + int(a[1]):end]
    elif word == "suffix":
        b.render()
        _, end = b.span(int(a[0]))
        b.buf[end:end] = unescape(rest.split(" ", 1)[1])
    elif word == "keep":
        b.render()
        n = int(a[0])
        b.buf = b.buf[:b.span(n)[1] + len(b.eol)] if n else bytearray()
    elif word == "append":
        b.render()
        b.buf += unescape(rest) + b.eol
    elif word == "bytes":
        b.render()
        b.buf += unescape(rest)
    elif word == "eol":
        b.eol = unescape(rest)
    # -- CSV table
    elif word == "header":
        b.table = [[v.encode() for v in rest.split(",")]]
    elif word == "row":
        b.table.append([v.encode() for v in rest.split(",")])
    elif word == "set":
        row, name = a[0], a[1]
        value = rest.split(" ", 2)[2] if len(rest.split(" ", 2)) > 2 else ""
        b.table[int(row)][b.col(name)] = unescape(value)
    elif word == "setn":
        row, name, n, ch = a
        b.table[int(row)][b.col(name)] = ch.encode() * int(n)
    elif word == "drop":
        for name in a:
            i = b.col(name)
            for r in b.table:
                del r[i]
    elif word == "dup":
        i = b.col(a[0])
        for r in b.table:
            r.append(r[i])
    elif op == "reverse":
        for r in b.table:
            r.reverse()
    else:
        sys.exit("%s: unknown operation %r" % (where, op))


def build(case, fixtures):
    b = Build()
    for where, op in case.ops:
        apply(b, op, fixtures, where)
    b.render()
    return bytes(b.buf)


# ---- running validate ----

def expected_stderr(case):
    out = []
    for e in case.expected:
        loc, code, msg = split_line(e)
        loc = re.sub(r"^(.*?:\d+):\d+$", r"\1", loc)  # the text output has no column
        level = (code if code in ("note", "detail", "hint")
                 else "warning" if code.startswith("warning ") else "error")
        out.append("clearing-load: %s: %s: %s" % (loc, level, msg))
    return out


def split_line(e):
    parts = e.split(": ", 2)
    if len(parts) != 3:
        sys.exit("expected line %r is not FILE:LINE: CODE: MESSAGE" % e)
    return parts


def run(args, cwd):
    p = subprocess.run([BIN] + args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode("latin-1"), p.stderr.decode("latin-1")


def validate(case, name, cwd):
    """The actual result: (status, summary, lines, records, problems)."""
    rc, out, err = run(["validate", "-v"] + case.args + [name], cwd)
    jrc, jout, jerr = run(["validate", "--format", "json"] + case.args + [name], cwd)
    problems = []
    if jrc != rc:
        problems.append("exit %d with --format json, %d without" % (jrc, rc))
    summary = out.rstrip("\n")
    prefix = name + ": "
    summary = summary[len(prefix):] if summary.startswith(prefix) else summary
    errs = [l for l in err.split("\n") if l]
    # the error lines of the text output, with the codes of the JSON output
    jerrors, records = [], None
    for l in jout.split("\n"):
        if not l:
            continue
        o = json.loads(l)
        if o["type"] in ("error", "warning"):
            jerrors.append(o)
        elif o["type"] == "file":
            records = o.get("records")
    lines, k = [], 0
    for l in errs:
        m = re.match(r"clearing-load: (.*?): (error|warning|note|detail|hint): (.*)$", l, re.S)
        if not m:
            lines.append("?: ?: " + l)
            continue
        loc, kind, msg = m.groups()
        if kind == "note":
            lines.append("%s: note: %s" % (loc, msg))
            continue
        if kind in ("detail", "hint"):
            # the parts of the error before it, in JSON too
            if not k or jerrors[k - 1].get(kind) != msg:
                problems.append("the %s of error %d is not the JSON one: %s" % (kind, k, msg))
            lines.append("%s: %s: %s" % (loc, kind, msg))
            continue
        if k < len(jerrors):
            o = jerrors[k]
            jloc = o["file"] + (":%d" % o["line"] if o.get("line") else "")
            # an XML error's element path comes before its message
            jmsg = (o["path"] + ": " if o.get("path") else "") + o["message"]
            if jloc != loc or jmsg != msg:
                problems.append("JSON error %d is %s: %s, the text says %s: %s" % (
                    k + 1, jloc, jmsg, loc, msg))
            if o.get("column"):
                loc += ":%d" % o["column"]
            code = o["code"]
            if (o["type"] == "warning") != (kind == "warning"):
                problems.append("JSON %s %d is a %s in the text" % (o["type"], k + 1, kind))
            if o["type"] == "warning":
                code = "warning " + code
            if o.get("other_line"):
                code += " (line %d)" % o["other_line"]
            lines.append("%s: %s: %s" % (loc, code, msg))
        else:
            lines.append("%s: ?: %s" % (loc, msg))
        k += 1
    if k != len(jerrors):
        problems.append("%d errors and warnings in the text output, %d in the JSON output"
                        % (k, len(jerrors)))
    return rc, summary, lines, records, problems


def check_validate(case, name, cwd):
    rc, summary, lines, records, problems = validate(case, name, cwd)
    want_rc = 0 if case.summary.startswith("valid") else 3
    if rc != want_rc:
        problems.append("exit %d, expected %d" % (rc, want_rc))
    if summary != case.summary:
        problems.append("summary %r, expected %r" % (summary, case.summary))
    if case.records is not None and records != case.records:
        problems.append("%s records, expected %d" % (records, case.records))
    if lines != case.expected:
        problems.append("the error and note lines differ:\n  expected:\n%s\n  actual:\n%s" % (
            "\n".join("    " + l for l in case.expected) or "    (none)",
            "\n".join("    " + l for l in lines) or "    (none)"))
    return problems


# ---- running load ----

def psql(sql):
    return subprocess.run(["psql", "-XAtq", "-v", "ON_ERROR_STOP=1", "-c", sql],
                          stdout=subprocess.PIPE, check=True).stdout.decode().strip()


def check_load(case, name, cwd, tenant):
    problems = []
    rc, out, err = run(["load", "--tenant", tenant] + case.args + [name], cwd)
    rows = int(psql("select count(*) from clearing_record where tenant = '%s'" % tenant))
    items = int(psql("select count(*) from clearing_statement_item where tenant = '%s'"
                     % tenant))
    # a statement or status report: its rows are statement items, as many
    # as `stored:` says (validate counts the reader's items, not rows)
    statement = re.search(r"^valid (camt|pacs\.002|pain\.002|bai2|mt94)", case.summary) is not None
    outcome = psql("select string_agg(outcome, ',') from clearing_load where tenant = '%s'"
                   % tenant)
    if case.summary.startswith("valid"):
        m = re.search(r"(\d+) records?$", case.summary)
        want = int(m.group(1)) if m else 0
        if rc != 0:
            problems.append("load exited %d, expected 0: %s" % (rc, err.strip()))
        if statement:
            if rows != 0:
                problems.append("%d clearing records from a statement" % rows)
            if case.stored is None:
                problems.append("a valid statement case needs 'stored: N'")
            elif items != case.stored:
                problems.append("%d statement rows stored, expected %d" % (items, case.stored))
        elif rows != want:
            problems.append("%d rows applied, expected %d" % (rows, want))
        if outcome != "committed":
            problems.append("outcome %r, expected committed" % outcome)
    else:
        got = [l for l in err.split("\n") if ": error: " in l]
        want = [l for l in expected_stderr(case) if ": error: " in l]
        if rc != 3:
            problems.append("load exited %d, expected 3: %s" % (rc, err.strip()))
        if got[:1] != want[:1]:
            problems.append("first error line:\n    %s\n  expected (validate's):\n    %s" % (
                got[:1], want[:1]))
        elif got != want:
            problems.append("error lines:\n%s\n  expected (validate's):\n%s" % (
                "\n".join("    " + l for l in got), "\n".join("    " + l for l in want)))
        # the same count of errors as validate's (a limit and summed-up
        # errors included)
        counted = "%s: rejected, %s, nothing applied" % (name, case.summary[len("invalid, "):])
        if not out.startswith(counted):
            problems.append("load said %r, expected %r" % (out.strip(), counted))
        if rows + items != 0:
            problems.append("%d rows applied from an invalid file" % (rows + items))
        if outcome != "rejected":
            problems.append("outcome %r, expected rejected" % outcome)
    return problems


# ---- main ----

def main(argv):
    if len(argv) < 3 or argv[1] not in ("validate", "load", "show"):
        sys.exit(__doc__)
    mode, files = argv[1], argv[2:]
    only = None
    if mode == "show" and len(files) == 2:
        files, only = files[:1], files[1]
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for k, path in enumerate(files, 1):
            fixtures, cases = parse_file(path)
            stem = os.path.splitext(os.path.basename(path))[0]
            name = "t." + stem
            for i, case in enumerate(cases, 1):
                if only and only != case.name:
                    continue
                cwd = os.path.join(tmp, "%d-%s-%d" % (k, stem, i))
                os.mkdir(cwd)
                with open(os.path.join(cwd, name), "wb") as f:
                    f.write(build(case, fixtures))
                if mode == "show":
                    rc, summary, lines, records, problems = validate(case, name, cwd)
                    print("case: %s\nexpect: %s\n%s%s\n" % (
                        case.name, summary, "".join(l + "\n" for l in lines),
                        "".join("# PROBLEM " + p + "\n" for p in problems)))
                    continue
                if mode == "validate":
                    problems = check_validate(case, name, cwd)
                else:
                    problems = check_load(case, name, cwd, "rules_%d_%s_%d" % (k, stem, i))
                if problems:
                    failed += 1
                    print("FAIL %s (%s): %s" % (case.name, case.where, "\n  ".join(problems)))
                else:
                    passed += 1
    if mode != "show":
        print("rules %s: %d passed, %d failed" % (mode, passed, failed))
    return 1 if failed or (mode != "show" and passed == 0) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
