#!/usr/bin/env python3
"""plan_check - are the loader's plans bounded by the file, whatever the history?

  plan_check.py unwrap < SQL
      the statement without a COPY (...) TO STDOUT around it (EXPLAIN takes
      the inner statement).
  plan_check.py check [--tables T,...] [--control NAME]... [--known NAME]... FILE
      FILE is psql's output: a line "@@plan NAME" before each EXPLAIN
      (FORMAT JSON).  Every scan of a table of T (default clearing_record,
      clearing_dedupe_event, clearing_load; pass the partitions too) must be
      bounded:
        - an index, index-only or bitmap scan whose index condition names a
          column other than the tenant and the kind (a condition on the
          tenant alone walks the tenant's every record: the merge join's
          plan; on the tenant and a kind, every record of that kind: the
          primary key's prefix, which once served "the records of a batch");
        - or an index scan without a filter right under a Limit (the first
          N of an ordered index: loads, newest first).
      Never a sequential scan.  Scans of other tables (the pg_temp stage and
      pending tables: they are the file) may be anything.  A --control
      statement must have at least one unbounded scan (the test could fail).
      A --known statement's unbounded scans are printed as KNOWN, not failed
      (a plan still to fix); one that is bounded now is said so.
      Prints each statement's scans; exit 1 with the offending nodes.
"""
import json
import re
import sys

DEFAULT_TABLES = "clearing_record,clearing_dedupe_event,clearing_load"
# nodes that pass their input's rows through, between a Limit and its scan
# (an Append's first rows are its first child's, a Merge Append's the first
# of each child's ordered index)
PASS_THROUGH = {"Result", "Subquery Scan", "Append", "Merge Append"}
# "(col op ...": the index column of each clause of an index condition
COND_COLUMN = re.compile(r'\(\s*(?:\w+\.)?"?(\w+)"?\s*(?:=|<>|<=|>=|<|>|~~)')
# a column under a function on an expression index's side of a condition:
# (hashtextextended(near_key, '0'::bigint) = ...)
COND_EXPR_COLUMN = re.compile(r'\(\s*\w+\(\s*(?:\w+\.)?"?(\w+)"?[^()]*\)\s*(?:=|<>|<=|>=|<|>)')


def unwrap(sql):
    s = sql.strip().rstrip(";").strip()
    m = re.match(r"(?s)^COPY\s*\((.*)\)\s*TO\s+STDOUT$", s, re.IGNORECASE)
    return m.group(1).strip() if m else s


def cond_columns(cond):
    return set(COND_COLUMN.findall(cond or "")) | set(COND_EXPR_COLUMN.findall(cond or ""))


def describe(node):
    keys = ("Node Type", "Scan Direction", "Relation Name", "Alias", "Index Name",
            "Index Cond", "Recheck Cond", "Filter", "Join Filter", "Plan Rows")
    return ", ".join("%s: %s" % (k, node[k]) for k in keys if k in node)


def bitmap_leaves(node):
    if node.get("Node Type") == "Bitmap Index Scan":
        yield node
    for child in node.get("Plans", []):
        yield from bitmap_leaves(child)


# columns that bound nothing: a tenant's records, of one kind; and the
# shard, which every index holds after the natural key only (the unique
# index (tenant, kind, natural_key, shard)): a condition on the tenant,
# kind and shard walks the tenant's every row of the kind, testing each
UNBOUNDING = {"tenant", "kind", "shard"}


def bounded_cond(cond):
    cols = cond_columns(cond)
    return bool(cols - UNBOUNDING)


def verdict(node, parents):
    """None when the scan is bounded, else why not."""
    kind = node["Node Type"]
    if kind in ("Index Scan", "Index Only Scan"):
        if bounded_cond(node.get("Index Cond")):
            return None
        up = [p for p in parents if p["Node Type"] not in PASS_THROUGH]
        if up and up[-1]["Node Type"] == "Limit" and "Filter" not in node:
            return None
        if "Index Cond" not in node:
            return "an index scan without an index condition walks the whole index"
        if cond_columns(node["Index Cond"]):
            return "an index condition on the tenant (kind, shard) alone walks the tenant's every row (of the kind)"
        return "an index condition that bounds nothing walks the whole index"
    if kind == "Bitmap Heap Scan":
        for leaf in bitmap_leaves(node):
            if not bounded_cond(leaf.get("Index Cond")):
                return "a bitmap index scan (%s) not bounded by its condition: %s" % (
                    leaf.get("Index Name"), leaf.get("Index Cond"))
        return None
    return "a %s reads the whole table" % kind


def walk(node, parents, tables, scans, bad):
    rel = node.get("Relation Name")
    if rel in tables and node["Node Type"] != "ModifyTable":
        why = verdict(node, parents)
        scans.append("%s on %s%s" % (node["Node Type"], rel,
                                     " using " + node["Index Name"] if "Index Name" in node else ""))
        if why:
            path = " > ".join(p["Node Type"] for p in parents + [node])
            bad.append("%s\n      node: %s\n      path: %s" % (why, describe(node), path))
    for child in node.get("Plans", []):
        walk(child, parents + [node], tables, scans, bad)


def parse(path):
    plans, name, lines = [], None, []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("@@plan "):
                if name is not None:
                    plans.append((name, "".join(lines)))
                name, lines = line.split(None, 1)[1].strip(), []
            elif name is not None:
                lines.append(line)
    if name is not None:
        plans.append((name, "".join(lines)))
    return plans


def check(args):
    tables, controls, known, path = set(DEFAULT_TABLES.split(",")), set(), set(), None
    i = 0
    while i < len(args):
        if args[i] == "--tables":
            tables |= {t for t in args[i + 1].split(",") if t}
            i += 2
        elif args[i] == "--control":
            controls.add(args[i + 1])
            i += 2
        elif args[i] == "--known":
            known.add(args[i + 1])
            i += 2
        else:
            path = args[i]
            i += 1
    if path is None:
        sys.exit(__doc__)
    failed, seen = False, set()
    for name, text in parse(path):
        seen.add(name)
        try:
            plan = json.loads(text)[0]["Plan"]
        except (ValueError, LookupError) as e:
            print("FAIL %s: no JSON plan (%s):\n%s" % (name, e, text.strip()))
            failed = True
            continue
        scans, bad = [], []
        walk(plan, [], tables, scans, bad)
        if name in controls:
            if bad:
                print("ok   %s (control): unbounded as it must be: %s" % (name, bad[0].split("\n")[0]))
            else:
                print("FAIL %s (control): every scan bounded (%s): the check cannot tell a flip"
                      % (name, "; ".join(scans) or "no scan"))
                failed = True
        elif bad and name in known:
            print("KNOWN %s:\n    %s" % (name, "\n    ".join(bad)))
        elif bad:
            print("FAIL %s:\n    %s" % (name, "\n    ".join(bad)))
            print("    the plan:\n%s" % text.rstrip())
            failed = True
        else:
            print("ok   %s: %s%s" % (name, "; ".join(scans) or "no scan of the history",
                                    " (known unbounded: now bounded)" if name in known else ""))
    for name in sorted(controls - seen):
        print("FAIL %s (control): not explained" % name)
        failed = True
    return 1 if failed else 0


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "unwrap":
        sys.stdout.write(unwrap(sys.stdin.read()) + "\n")
        return 0
    if len(sys.argv) >= 3 and sys.argv[1] == "check":
        return check(sys.argv[2:])
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main())
