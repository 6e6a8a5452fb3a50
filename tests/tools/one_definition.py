#!/usr/bin/env python3
"""one_definition.py ROOT - the source keeps one definition of each thing.

Fails (exit 1, naming each place) when, in the program's source folders
(base, cmd, loader, parsers, rules, sql):
  - a record field's name (base/record_fields.def) or a statement item
    column's (rules/statement_fields.def) is written as an identifier in
    string literals of more than two C files: the whole literal ("kind"),
    a qualified column (r.kind) or a column in an SQL list or condition
    (kind = , kind, ...); prose in messages is not counted, nor the
    columns the loader gives every table (tenant, load_id, ordinal);
  - SQL is assembled at run time into a fixed buffer (char sql[...]);
  - a comment carries a review or issue id (R3-5, review 2, issue 4):
    those belong in commit messages.
"""
import collections
import glob
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else "."
os.chdir(root)
problems = []
names = [l.split("(")[1].split(",")[0] for l in open("base/record_fields.def")
         if l.startswith("CL_FIELD(")]
if len(names) < 40:
    sys.exit("record_fields.def: only %d fields read" % len(names))
stmt_names = [re.match(r"CL_STMT_\w+\((\w+)", l).group(1)
              for l in open("rules/statement_fields.def")
              if re.match(r"CL_STMT_(FIELD|OPT|GIVEN)\(", l)]
if len(stmt_names) < 40:
    sys.exit("statement_fields.def: only %d columns read" % len(stmt_names))
# (not the columns the loader gives, tenant, load_id, ordinal...: every
# table has them)
given = [re.match(r"CL_STMT_GIVEN\((\w+)", l).group(1)
         for l in open("rules/statement_fields.def") if l.startswith("CL_STMT_GIVEN(")]
names += [n for n in stmt_names if n not in names and n not in given]
sources = sorted(f for d in ("base", "cmd", "loader", "parsers", "rules", "sql")
                 for f in glob.glob(d + "/*.[ch]"))
comment = re.compile(r"/\*.*?\*/", re.S)
literal = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
hits = collections.defaultdict(set)
for f in sources:
    text = open(f, encoding="utf-8").read()
    code = comment.sub("", text)
    for lit in literal.findall(code):
        for n in names:
            if lit == n or re.search(r"(\w\.%s\b|\b%s\s*(=|<>|,|\)|IS\b))" % (n, n), lit):
                hits[n].add(f)
    if re.search(r"\bchar\s+sql\s*\[", code):
        problems.append("%s: SQL built in a fixed buffer (char sql[])" % f)
    for c in comment.findall(text):
        m = re.search(r"\bR\d+-\d+\b|\b[Rr]eview \d+|\bissue \d+", c)
        if m:
            problems.append("%s: a comment carries the id %r" % (f, m.group(0)))
for f in sorted(glob.glob("sql/*.sql") + glob.glob("sql/loader/*.sql")):
    for no, line in enumerate(open(f, encoding="utf-8"), 1):
        m = re.search(r"--.*(\bR\d+-\d+\b|\b[Rr]eview \d+|\bissue \d+)", line)
        if m:
            problems.append("%s:%d: a comment carries the id %r" % (f, no, m.group(1)))
for n in names:
    if len(hits[n]) > 2:
        problems.append("field %s is written as a name in %d C files: %s" % (
            n, len(hits[n]), ", ".join(sorted(hits[n]))))
for p in problems:
    print(p)
print("one definition: %d fields, %d source files, %d problems" % (
    len(names), len(sources), len(problems)))
sys.exit(1 if problems else 0)
