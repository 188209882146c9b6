import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { NATIVE_TYPES, type CqlType, type Identifier, type QualifiedName, type SourceRange, type Term } from "../../src/cql/ast.js";
import { parseCql } from "../../src/cql/index.js";
import { formatTerm, formatType, isReservedKeyword, quoteName } from "../../src/cql/print.js";

const NOWHERE: SourceRange = { start: { line: 1, column: 1, offset: 0 }, end: { line: 1, column: 1, offset: 0 } };

/** Drops what printing may legitimately change: ranges, source text, whether a name was quoted. */
function normalize<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, (key, v) => (key === "range" || key === "text" || key === "quoted" ? undefined : v))) as T;
}

describe("quoteName and isReservedKeyword", () => {
  it.each([
    ["users", "users"],
    ["user_id2", "user_id2"],
    ["key", "key"],
    ["type", "type"],
    ["ttl", "ttl"],
    ["order", '"order"'],
    ["select", '"select"'],
    ["true", '"true"'],
    ["Users", '"Users"'],
    ["first name", '"first name"'],
    ['say "hi"', '"say ""hi"""'],
    ["2fa", '"2fa"'],
    ["_private", '"_private"'],
    ["", '""'],
  ])("%j → %s", (name, quoted) => {
    expect(quoteName(name)).toBe(quoted);
  });

  it("knows reserved keywords in any case, and not unreserved ones", () => {
    expect(["SELECT", "from", "Keyspace", "schema", "token", "NaN", "infinity", "true"].every(isReservedKeyword)).toBe(true);
    expect(["key", "type", "user", "values", "json", "list", "date", "length", "check"].some(isReservedKeyword)).toBe(false);
  });

  it("every quoted name parses back to the same name", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 12 }), (name) => {
        const result = parseCql(`CREATE TABLE t (${quoteName(name)} int PRIMARY KEY)`);
        expect(result.diagnostics).toEqual([]);
        const table = result.statements[0]!;
        expect(table.kind === "create-table" && table.columns[0]!.name.name).toBe(name);
      }),
      { seed: 7, numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Arbitraries for types and terms, shaped like what the parser produces.

const nameText = fc.oneof(
  fc.constantFrom("a", "user_id", "key", "type", "value", "order", "select", "Mixed", "with space", 'q"uote', "token", "count", "int", "map"),
  fc.stringMatching(/^[a-z][a-z0-9_]{0,6}$/),
);
const identifier = nameText.map((name): Identifier => ({ name, text: name, quoted: false, range: NOWHERE }));
const qualified = fc.record({ keyspace: fc.option(identifier, { nil: undefined }), name: identifier }).map(
  ({ keyspace, name }): QualifiedName => (keyspace ? { keyspace, name, range: NOWHERE } : { name, range: NOWHERE }),
);

const cqlType: fc.Arbitrary<CqlType> = fc.letrec<{ type: CqlType }>((tie) => ({
  type: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constantFrom(...NATIVE_TYPES).map((name): CqlType => ({ kind: "native", name, range: NOWHERE })),
    fc.record({ collection: fc.constantFrom("list" as const, "set" as const), element: tie("type") }).map(
      ({ collection, element }): CqlType => ({ kind: "collection", collection, elements: [element], range: NOWHERE }),
    ),
    fc.tuple(tie("type"), tie("type")).map(([k, v]): CqlType => ({ kind: "collection", collection: "map", elements: [k, v], range: NOWHERE })),
    tie("type").map((inner): CqlType => ({ kind: "frozen", inner, range: NOWHERE })),
    fc.array(tie("type"), { minLength: 1, maxLength: 3 }).map((elements): CqlType => ({ kind: "tuple", elements, range: NOWHERE })),
    fc.record({ element: tie("type"), dimension: fc.integer({ min: 1, max: 4096 }) }).map(
      ({ element, dimension }): CqlType => ({ kind: "vector", element, dimension, range: NOWHERE }),
    ),
    qualified.map((name): CqlType => ({ kind: "user", name, range: NOWHERE })),
    fc.string({ maxLength: 20 }).map((className): CqlType => ({ kind: "custom", className, range: NOWHERE })),
  ),
})).type;

const literal: fc.Arbitrary<Term> = fc.oneof(
  fc.string({ maxLength: 12 }).map((value): Term => ({ kind: "literal", type: "string", value, range: NOWHERE })),
  fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }).map((n): Term => ({ kind: "literal", type: "integer", value: String(n), range: NOWHERE })),
  fc.constantFrom("1.5", "-0.25", "1e10", "2.5E-3", "3.").map((value): Term => ({ kind: "literal", type: "float", value, range: NOWHERE })),
  fc.constantFrom("true", "false").map((value): Term => ({ kind: "literal", type: "boolean", value, range: NOWHERE })),
  fc.uuid().map((value): Term => ({ kind: "literal", type: "uuid", value, range: NOWHERE })),
  fc.constantFrom("0x", "0xcafe").map((value): Term => ({ kind: "literal", type: "blob", value, range: NOWHERE })),
  fc.constantFrom("1h30m", "-2d", "P1Y2M", "PT5S", "P0001-02-03T04:05:06").map((value): Term => ({ kind: "literal", type: "duration", value, range: NOWHERE })),
  fc.constant<Term>({ kind: "literal", type: "null", value: "null", range: NOWHERE }),
  fc.constantFrom("NaN", "-NaN").map((value): Term => ({ kind: "literal", type: "nan", value, range: NOWHERE })),
  fc.constantFrom("Infinity", "-Infinity").map((value): Term => ({ kind: "literal", type: "infinity", value, range: NOWHERE })),
  fc.option(nameText.map((n) => n.toLowerCase()), { nil: undefined }).map((name): Term => (name === undefined ? { kind: "bind", range: NOWHERE } : { kind: "bind", name, range: NOWHERE })),
);

const term: fc.Arbitrary<Term> = fc.letrec<{ term: Term; target: Term }>((tie) => ({
  // What `.field`, `[…]` and a leading `-` may apply to: names, calls and accessors.
  target: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    identifier.map((name): Term => ({ kind: "column", name, range: NOWHERE })),
    fc.record({ name: qualified, args: fc.array(tie("term"), { maxLength: 2 }) }).map(({ name, args }): Term => ({ kind: "function", name, args, range: NOWHERE })),
    fc.record({ target: tie("target"), field: identifier }).map(({ target, field }): Term => ({ kind: "field", target, field, range: NOWHERE })),
    fc.record({ target: tie("target"), index: tie("term") }).map(({ target, index }): Term => ({ kind: "element", target, index, range: NOWHERE })),
    // a slice has at least one bound (`c[..]` is not CQL)
    fc.record({ target: tie("target"), from: fc.option(tie("term"), { nil: undefined }), to: tie("term") }).map(
      ({ target, from, to }): Term => ({ kind: "slice", target, ...(from ? { from } : {}), to, range: NOWHERE }),
    ),
    fc.record({ target: tie("target"), from: tie("term") }).map(({ target, from }): Term => ({ kind: "slice", target, from, range: NOWHERE })),
  ),
  term: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    literal,
    tie("target"),
    fc.array(tie("term"), { maxLength: 3 }).map((elements): Term => ({ kind: "list", elements, range: NOWHERE })),
    fc.array(tie("term"), { minLength: 1, maxLength: 3 }).map((elements): Term => ({ kind: "set", elements, range: NOWHERE })),
    fc.array(fc.record({ key: literal, value: tie("term") }), { maxLength: 3 }).map((entries): Term => ({ kind: "map", entries, range: NOWHERE })),
    fc.array(fc.record({ name: identifier, value: tie("term") }), { minLength: 1, maxLength: 3 }).map((fields): Term => ({ kind: "udt", fields, range: NOWHERE })),
    fc.array(tie("term"), { minLength: 2, maxLength: 3 }).map((elements): Term => ({ kind: "tuple", elements, range: NOWHERE })),
    fc.record({ value: tie("term"), type: cqlType }).map(({ value, type }): Term => ({ kind: "cast", value, type, range: NOWHERE })),
    // Type hints as written in practice: a built-in type before a literal or a marker. (A bare
    // name in parentheses before a name reads as an expression; see grammar/lookahead.ts.)
    fc.record({ type: cqlType.filter((t) => t.kind !== "user" && t.kind !== "custom"), value: literal }).map(
      ({ type, value }): Term => ({ kind: "type-hint", type, value, range: NOWHERE }),
    ),
    fc.record({ operator: fc.constantFrom("+" as const, "-" as const, "*" as const, "/" as const, "%" as const), left: tie("term"), right: tie("term") }).map(
      ({ operator, left, right }): Term => ({ kind: "binary", operator, left, right, range: NOWHERE }),
    ),
    tie("target").map((operand): Term => ({ kind: "negate", operand, range: NOWHERE })),
  ),
})).term;

describe("formatType", () => {
  it.each([
    ["map<text, frozen<list<int>>>", "map<text, frozen<list<int>>>"],
    ["VECTOR<FLOAT, 3>", "vector<float, 3>"],
    ['ks."Address"', 'ks."Address"'],
    ["'org.apache.cassandra.db.marshal.UTF8Type'", "'org.apache.cassandra.db.marshal.UTF8Type'"],
  ])("%s prints as %s", (source, printed) => {
    const table = parseCql(`CREATE TABLE t (k int PRIMARY KEY, c ${source})`).statements[0]!;
    expect(table.kind === "create-table" && formatType(table.columns[1]!.type)).toBe(printed);
  });

  it("every type prints to CQL that parses back to the same type", () => {
    fc.assert(
      fc.property(cqlType, (type) => {
        const result = parseCql(`CREATE TABLE t (k int PRIMARY KEY, c ${formatType(type)})`);
        expect(result.diagnostics).toEqual([]);
        const table = result.statements[0]!;
        expect(table.kind === "create-table" && normalize(table.columns[1]!.type)).toEqual(normalize(type));
      }),
      { seed: 11, numRuns: 300 },
    );
  });
});

describe("formatTerm", () => {
  it.each([
    ["'it''s'", "'it''s'"],
    ["$$body$$", "'body'"],
    ["{a: 1, 'b': 2}", "{a: 1, 'b': 2}"],
    ["{street: 'x'}", "{street: 'x'}"],
    ["(1 + 2) * -3", "(1 + 2) * -3"],
    ["a - (b - c)", "a - (b - c)"],
    ['"Col".f[1..]', '"Col".f[1..]'],
    ["(int) :v", "(int) :v"],
    ["token(a, b)", "token(a, b)"],
    ["count(*)", "count(*)"],
    ["cast(x as TEXT)", "CAST(x AS text)"],
    ["NULL", "null"],
  ])("%s prints as %s", (source, printed) => {
    const select = parseCql(`SELECT ${source} FROM t`).statements[0]!;
    expect(select.kind === "select" && formatTerm(select.selectors[0]!.expression)).toBe(printed);
  });

  it("every term prints to CQL that parses back to the same term", () => {
    fc.assert(
      fc.property(term, (value) => {
        const result = parseCql(`SELECT ${formatTerm(value)} FROM t`);
        expect(result.diagnostics).toEqual([]);
        const select = result.statements[0]!;
        expect(select.kind === "select" && normalize(select.selectors[0]!.expression)).toEqual(normalize(value));
      }),
      { seed: 13, numRuns: 300 },
    );
  });
});
