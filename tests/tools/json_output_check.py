#!/usr/bin/env python3
"""json_output_check - validate clearing-load --format json output against
man/clearing-load-output.schema.json.

  json_output_check.py SCHEMA [--expect TYPE,...] FILE...

Every line of every FILE must be one JSON object valid against SCHEMA
(python3-jsonschema, draft 2020-12).  --expect: each of these object types
must occur at least once over all FILEs (a test that validated nothing of
a type proves nothing about it).  Prints each invalid line with the
reason; exit 0 when all are valid, 1 otherwise, 2 on a usage error.

  json_output_check.py SCHEMA --record-keys

prints the keys the schema requires of a record, one a line (a test holds
them to the field table).
"""
import json
import sys

try:
    import jsonschema
except ImportError:
    sys.stderr.write("json_output_check: python3-jsonschema is not installed "
                     "(apt-get install python3-jsonschema)\n")
    sys.exit(2)


def main(argv):
    if len(argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    args = argv[2:]
    if args == ["--record-keys"]:
        for k in schema["$defs"]["record"]["required"]:
            print(k)
        return 0
    expect = []
    if args[:1] == ["--expect"]:
        expect = [t for t in args[1].split(",") if t]
        args = args[2:]
    if not args:
        sys.stderr.write("json_output_check: no file given\n")
        return 2
    validator = cls(schema, format_checker=cls.FORMAT_CHECKER)
    seen = {}
    bad = 0
    lines = 0
    for path in args:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                lines += 1
                where = "%s:%d" % (path, n)
                try:
                    obj = json.loads(line)
                except ValueError as e:
                    print("%s: not JSON: %s" % (where, e))
                    bad += 1
                    continue
                if not isinstance(obj, dict):
                    print("%s: not an object" % where)
                    bad += 1
                    continue
                t = obj.get("type")
                seen[t] = seen.get(t, 0) + 1
                # the definition its type names: the errors of that one
                # only (oneOf's are of every definition)
                sub = schema["$defs"].get(t) if isinstance(t, str) else None
                if sub is None:
                    print("%s: unknown type %r" % (where, t))
                    bad += 1
                    continue
                errors = sorted(validator.evolve(schema=dict(sub, **{"$defs": schema["$defs"]}))
                                .iter_errors(obj), key=lambda e: list(e.path))
                errors += list(validator.iter_errors(obj)) if not errors else []
                for e in errors[:5]:
                    print("%s: %s: %s" % (where, "/".join(str(p) for p in e.path) or "(object)",
                                          e.message))
                if errors:
                    bad += 1
    for t in expect:
        if not seen.get(t):
            print("no object of type %r in %s" % (t, " ".join(args)))
            bad += 1
    if bad:
        print("json_output_check: %d of %d lines invalid or types missing" % (bad, lines))
        return 1
    print("json_output_check: %d lines valid (%s)" % (
        lines, ", ".join("%s %d" % (k, v) for k, v in sorted(seen.items(), key=str))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
