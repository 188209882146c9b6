// Relations of a WHERE clause turned into restrictions, the way Cassandra's Relation.toRestriction
// and the restriction sets' mergeWith do it (StatementRestrictions in apache/cassandra).
// Every illegal shape raises a Rejection carrying the rule id and the gist of Cassandra's message.
import type { ColumnRelation, MultiColumnRelation, Relation, Term, TokenRelation } from "../cql/ast.js";
import type { CassandraVersion, ColumnModel, ColumnType, TableModel } from "../schema/model.js";
import { isMultiCell, referencesDuration } from "../schema/column-types.js";
import { isCollection } from "../schema/resolve.js";
import type { IndexOperation } from "./planner-indexes.js";
import { assignmentError, describeType, isBindMarker, unwrapHint } from "./planner-terms.js";

/** Why Cassandra refuses the statement: the deciding rule, its message, and a plain explanation. */
export class Rejection {
  constructor(
    readonly ruleId: string,
    readonly gist: string,
    readonly explanation: string,
    /** "prepare" errors come before execution errors (bound values, row filters, limits) */
    readonly stage: "syntax" | "prepare" | "execution" = "prepare",
  ) {}
}

export function reject(ruleId: string, gist: string, explanation: string, stage: Rejection["stage"] = "prepare"): never {
  throw new Rejection(ruleId, gist, explanation, stage);
}

export const ALLOW_FILTERING_GIST =
  "Cannot execute this query as it might involve data filtering and thus may have unpredictable performance. " +
  "If you want to execute this query despite the performance unpredictability, use ALLOW FILTERING";

export type RestrictionOp = "eq" | "in" | "slice" | "contains" | "like" | "ann";

export interface SliceBound {
  inclusive: boolean;
  value: Term;
}

export interface Restriction {
  op: RestrictionOp;
  /** one column; several for multi-column relations; every partition key column for token() */
  columns: ColumnModel[];
  multi: boolean;
  onToken: boolean;
  /** the relations merged into this restriction, in WHERE order */
  relations: Relation[];
  /** eq: the value; like: the pattern; ann: the vector */
  value?: Term;
  /** in: the listed values; undefined for a whole-list marker (`IN ?`) */
  inValues?: Term[];
  lower?: SliceBound;
  upper?: SliceBound;
  /** contains: how many CONTAINS values, CONTAINS KEY keys and map-entry equalities were merged */
  containsValues: number;
  containsKeys: number;
  containsEntries: number;
  /** every value written, for the execution-time null checks (A9) */
  values: Term[];
}

export function firstColumn(r: Restriction): ColumnModel {
  return r.columns[0]!;
}

export function lastColumn(r: Restriction): ColumnModel {
  return r.columns[r.columns.length - 1]!;
}

export function columnNames(r: Restriction): string {
  return r.columns.map((c) => c.name).join(", ");
}

/** The operations this restriction asks of an index (E1); a CONTAINS restriction may ask several. */
export function indexOperations(r: Restriction): IndexOperation[] {
  switch (r.op) {
    case "eq":
      return ["eq"];
    case "in":
      return ["in"];
    case "slice":
      return ["slice"];
    case "like":
      return ["like"];
    case "ann":
      return ["ann"];
    case "contains": {
      const ops: IndexOperation[] = [];
      if (r.containsValues > 0) ops.push("contains");
      if (r.containsKeys > 0) ops.push("contains-key");
      if (r.containsEntries > 0) ops.push("entry-eq");
      return ops;
    }
  }
}

export function containsCount(r: Restriction): number {
  return r.containsValues + r.containsKeys + r.containsEntries;
}

/** Relation text for messages, as Cassandra prints it (`v IS NOT NULL`, `k != 1`). */
export function relationText(relation: Relation): string {
  switch (relation.kind) {
    case "custom-index-expression":
      return `expr(${relation.index.name.name}, ${renderTerm(relation.expression)})`;
    case "column": {
      const target = relation.key ? `${relation.column.name}[${renderTerm(relation.key)}]` : relation.column.name;
      return `${target} ${relation.operator}${renderRightHandSide(relation)}`;
    }
    case "multi-column":
      return `(${relation.columns.map((c) => c.name).join(", ")}) ${relation.operator}${renderRightHandSide(relation)}`;
    case "token":
      return `token(${relation.columns.map((c) => c.name).join(", ")}) ${relation.operator}${renderRightHandSide(relation)}`;
  }
}

function renderRightHandSide(relation: { operator: string; value?: Term; values?: Term[] }): string {
  if (relation.operator === "IS NOT NULL") return "";
  if (relation.values) {
    if (relation.operator === "BETWEEN") return ` ${relation.values.map(renderTerm).join(" AND ")}`;
    return ` (${relation.values.map(renderTerm).join(", ")})`;
  }
  return relation.value ? ` ${renderTerm(relation.value)}` : "";
}

/** A short CQL rendering of a written value, for messages and explanations. */
export function renderTerm(term: Term): string {
  switch (term.kind) {
    case "literal":
      return term.type === "string" ? `'${term.value.replace(/'/g, "''")}'` : term.value;
    case "bind":
      return term.name ? `:${term.name}` : "?";
    case "list":
      return `[${term.elements.map(renderTerm).join(", ")}]`;
    case "set":
      return `{${term.elements.map(renderTerm).join(", ")}}`;
    case "tuple":
      return `(${term.elements.map(renderTerm).join(", ")})`;
    case "map":
      return `{${term.entries.map((e) => `${renderTerm(e.key)}: ${renderTerm(e.value)}`).join(", ")}}`;
    case "udt":
      return `{${term.fields.map((f) => `${f.name.name}: ${renderTerm(f.value)}`).join(", ")}}`;
    case "function":
      return `${term.name.keyspace ? term.name.keyspace.name + "." : ""}${term.name.name.name}(${term.args.map(renderTerm).join(", ")})`;
    case "column":
      return term.name.name;
    case "type-hint":
      return `(…) ${renderTerm(term.value)}`;
    case "negate":
      return `-${renderTerm(term.operand)}`;
    case "star":
      return "*";
    default:
      return "…";
  }
}

// ---------------------------------------------------------------------------------------------
// Relation → restriction (Relation.toRestriction, SingleColumnRelation, MultiColumnRelation, TokenRelation)

export interface RelationContext {
  table: TableModel;
  version: CassandraVersion;
  columnsByName: Map<string, ColumnModel>;
  /** select-clause aliases, to explain an "Undefined column name" */
  aliases: ReadonlySet<string>;
}

export function existingColumn(ctx: RelationContext, name: string, where: string): ColumnModel {
  const column = ctx.columnsByName.get(name);
  if (column) return column;
  const isAlias = ctx.aliases.has(name);
  const alias = isAlias ? ` (${name} is a select-clause alias; aliases cannot be used in ${where})` : "";
  // 3.x names the alias; 4.0 onwards reports every unknown name alike.
  const gist =
    isAlias && ctx.version === "3.11" && where !== "GROUP BY"
      ? where === "WHERE"
        ? "Aliases aren't allowed in the where clause"
        : "Aliases are not allowed in order by clause"
      : `Undefined column name ${name}`;
  return reject("A10", gist, `column ${name} does not exist in ${ctx.table.qualifiedName}${alias}`);
}

const SLICE_OPERATORS = new Set(["<", "<=", ">", ">="]);

/**
 * A restriction from one relation. `values` is given whole: an empty array grown by push gets a
 * backing store of 17 slots, and every relation of every plan makes one.
 */
function newRestriction(op: RestrictionOp, columns: ColumnModel[], relation: Relation, multi: boolean, onToken: boolean, values: Term[]): Restriction {
  return { op, columns, multi, onToken, relations: [relation], containsValues: 0, containsKeys: 0, containsEntries: 0, values };
}

function sliceRestriction(base: Restriction, operator: string, value: Term): Restriction {
  const bound = { inclusive: operator.endsWith("="), value };
  if (operator.startsWith(">")) base.lower = bound;
  else base.upper = bound;
  base.value = value;
  return base;
}

function checkAssignable(term: Term, type: ColumnType, column: ColumnModel): void {
  const error = assignmentError(term, type, column.name);
  if (error) reject("A10", error, `the value ${renderTerm(term)} cannot be assigned to ${column.name} (${describeType(column.type)})`);
}


/** SingleColumnRelation.toReceivers: operator legality against the column type (A2–A4, N3). */
function checkColumnRelation(ctx: RelationContext, relation: ColumnRelation, column: ColumnModel, inCount: number | null): ColumnType {
  const type = column.type;
  const op = relation.operator;
  const isPrimaryKey = column.kind === "partition" || column.kind === "clustering";
  if (op === "IN" && !isPrimaryKey && (ctx.version === "3.11" || ctx.version === "4.0") && inCount !== 1) {
    reject(
      "N3",
      `IN predicates on non-primary-key columns (${column.name}) is not yet supported`,
      `IN on the non-key column ${column.name} is rejected before Cassandra 4.1`,
    );
  }
  if (op === "CONTAINS KEY" && type.kind !== "map") {
    reject("A2", `Cannot use CONTAINS KEY on non-map column ${column.name}`, `CONTAINS KEY needs a map column; ${column.name} is ${describeType(type)}`);
  }
  if (op === "CONTAINS" && !isCollection(type)) {
    reject("A2", `Cannot use CONTAINS on non-collection column ${column.name}`, `CONTAINS needs a collection column; ${column.name} is ${describeType(type)}`);
  }
  if (relation.key) {
    if (type.kind === "list") {
      reject("A2", `Indexes on list entries (${column.name}[index] = value) are not currently supported.`, `list elements cannot be restricted by position`);
    }
    if (type.kind !== "map") reject("A2", `Column ${column.name} cannot be used as a map`, `${column.name}[key] needs a map column`);
    if (type.frozen) {
      reject("A2", `Map-entry equality predicates on frozen map column ${column.name} are not supported`, `map-entry predicates need a non-frozen map`);
    }
    if (op !== "=") reject("A2", "Only EQ relations are supported on map entries", `map entries can only be compared with =`);
  }
  if (type.kind === "udt" && !type.frozen) {
    reject(
      "A4",
      `Non-frozen UDT column '${column.name}' (${type.keyspace}.${type.name}) cannot be restricted by any relation`,
      `the non-frozen user type column ${column.name} cannot be restricted`,
    );
  }
  if (isCollection(type) && isMultiCell(type)) {
    const legal = op === "CONTAINS" || op === "CONTAINS KEY" || (relation.key !== undefined && op === "=");
    if (!legal) {
      reject(
        "A2",
        `Collection column '${column.name}' (${describeType(type)}) cannot be restricted by a '${op}' relation`,
        `the non-frozen collection ${column.name} accepts only CONTAINS, CONTAINS KEY and map-entry equality`,
      );
    }
  }
  // The receiver of the value: the element for CONTAINS, the key for CONTAINS KEY.
  if (op === "CONTAINS") {
    if (type.kind === "map") return type.value;
    if (type.kind === "list" || type.kind === "set") return type.element;
  }
  if (op === "CONTAINS KEY" && type.kind === "map") return type.key;
  if (relation.key && type.kind === "map") return type.value;
  return type;
}

function toColumnRestriction(ctx: RelationContext, relation: ColumnRelation): Restriction {
  const op = relation.operator;
  if (op === "!=") {
    return reject("A1", `Unsupported "!=" relation: ${relationText(relation)}`, `!= is not supported in WHERE clauses of Cassandra ${ctx.version}`);
  }
  if (op === "LIKE" && relation.key) {
    return reject("A5", "LIKE can't be used with collections.", "LIKE cannot be applied to a map entry");
  }
  const column = existingColumn(ctx, relation.column.name, "WHERE");
  if (SLICE_OPERATORS.has(op) && referencesDuration(column.type)) {
    const what = isCollection(column.type)
      ? "collections containing durations"
      : column.type.kind === "tuple"
        ? "tuples containing durations"
        : column.type.kind === "udt"
          ? "UDTs containing durations"
          : "duration columns";
    return reject("A4", `Slice restrictions are not supported on ${what}`, `durations have no order, so ${column.name} cannot be compared with ${op}`);
  }
  const inValues = op === "IN" ? relation.values : undefined;
  const receiver = checkColumnRelation(ctx, relation, column, inValues ? inValues.length : null);

  if (op === "IN") {
    if (inValues) {
      for (const v of inValues) checkAssignable(v, receiver, column);
      // A one-value IN is an equality (A8).
      if (inValues.length === 1) {
        const r = newRestriction("eq", [column], relation, false, false, [inValues[0]!]);
        r.value = inValues[0];
        return r;
      }
      const r = newRestriction("in", [column], relation, false, false, inValues.slice());
      r.inValues = inValues;
      return r;
    }
    return newRestriction("in", [column], relation, false, false, relation.value ? [relation.value] : []);
  }
  const value = relation.value;
  if (value) checkAssignable(value, receiver, column);
  if (relation.key) checkAssignable(relation.key, column.type.kind === "map" ? column.type.key : receiver, column);
  switch (op) {
    case "=": {
      if (relation.key) {
        const r = newRestriction("contains", [column], relation, false, false, value ? [relation.key, value] : [relation.key]);
        r.containsEntries = 1;
        return r;
      }
      const r = newRestriction("eq", [column], relation, false, false, value ? [value] : []);
      r.value = value;
      return r;
    }
    case "<":
    case "<=":
    case ">":
    case ">=":
      return sliceRestriction(newRestriction("slice", [column], relation, false, false, [value!]), op, value!);
    case "CONTAINS":
    case "CONTAINS KEY": {
      const r = newRestriction("contains", [column], relation, false, false, value ? [value] : []);
      if (op === "CONTAINS") r.containsValues = 1;
      else r.containsKeys = 1;
      return r;
    }
    case "LIKE": {
      const r = newRestriction("like", [column], relation, false, false, value ? [value] : []);
      r.value = value;
      return r;
    }
    default:
      return reject("A1", `Unsupported restriction: ${relationText(relation)}`, `${op} is not part of CQL in Cassandra ${ctx.version}`, "syntax");
  }
}

function tupleArity(term: Term): number | null {
  const t = unwrapHint(term);
  return t.kind === "tuple" ? t.elements.length : null;
}

function checkTupleArity(columns: ColumnModel[], term: Term): void {
  const arity = tupleArity(term);
  if (arity !== null && arity !== columns.length) {
    reject("A7", `Expected ${columns.length} elements in value tuple, but got ${arity}: ${renderTerm(term)}`, `the tuple has ${arity} values for ${columns.length} columns`);
  }
}

function toMultiColumnRestriction(ctx: RelationContext, relation: MultiColumnRelation): Restriction {
  const op = relation.operator;
  if (op === "!=") {
    return reject("A1", `Unsupported "!=" relation: ${relationText(relation)}`, `!= is not supported in WHERE clauses`);
  }
  if (op !== "=" && op !== "IN" && !SLICE_OPERATORS.has(op)) {
    return reject("A7", `${op} cannot be used for multi-column relations`, `multi-column relations accept only =, IN and slices`);
  }
  const columns: ColumnModel[] = [];
  let previous = -1;
  for (const id of relation.columns) {
    const column = existingColumn(ctx, id.name, "WHERE");
    if (column.kind !== "clustering") {
      reject(
        "A7",
        `Multi-column relations can only be applied to clustering columns but was applied to: ${column.name}`,
        `multi-column relations apply to clustering columns only; ${column.name} is a ${column.kind === "partition" ? "partition key" : column.kind} column`,
      );
    }
    if (columns.includes(column)) {
      reject("A7", `Column "${column.name}" appeared twice in a relation: ${relationText(relation)}`, `${column.name} appears twice`);
    }
    if (previous !== -1 && column.position !== previous + 1) {
      reject(
        "A7",
        `Clustering columns must appear in the PRIMARY KEY order in multi-column relations: ${relationText(relation)}`,
        `the columns of a multi-column relation must follow the clustering order without gaps`,
      );
    }
    columns.push(column);
    previous = column.position;
  }
  if (op === "IN") {
    const values = relation.values;
    if (values) {
      for (const v of values) checkTupleArity(columns, v);
      if (values.length === 1) {
        const r = newRestriction("eq", columns, relation, true, false, [values[0]!]);
        r.value = values[0];
        return r;
      }
      const r = newRestriction("in", columns, relation, true, false, values.slice());
      r.inValues = values;
      return r;
    }
    return newRestriction("in", columns, relation, true, false, relation.value ? [relation.value] : []);
  }
  const value = relation.value!;
  checkTupleArity(columns, value);
  if (op === "=") {
    const r = newRestriction("eq", columns, relation, true, false, [value]);
    r.value = value;
    return r;
  }
  return sliceRestriction(newRestriction("slice", columns, relation, true, false, [value]), op, value);
}

function toTokenRestriction(ctx: RelationContext, relation: TokenRelation): Restriction {
  const op = relation.operator;
  if (op === "!=") {
    return reject("A1", `Unsupported "!=" relation: ${relationText(relation)}`, `!= is not supported in WHERE clauses`);
  }
  const columns = relation.columns.map((id) => existingColumn(ctx, id.name, "WHERE"));
  const key = ctx.table.partitionKey;
  const sameKey = columns.length === key.length && columns.every((c, i) => c === key[i]);
  if (!sameKey) {
    if (!key.every((k) => columns.includes(k))) {
      reject("T1", "The token() function must be applied to all partition key components or none of them", `token() must name every partition key column (${key.map((c) => c.name).join(", ")})`);
    }
    if (new Set(columns).size !== columns.length) {
      reject("T1", "The token() function contains duplicate partition key components", `token() names a column twice`);
    }
    if (columns.some((c) => c.kind !== "partition")) {
      reject("T1", "The token() function must contains only partition key components", `token() may name only partition key columns`);
    }
    reject(
      "T1",
      `The token function arguments must be in the partition key order: ${key.map((c) => c.name).join(", ")}`,
      `token() must list the partition key columns in their declared order`,
    );
  }
  if (op !== "=" && !SLICE_OPERATORS.has(op)) {
    return reject("T1", `${op} cannot be used with the token function`, `token() accepts only = and slices`);
  }
  const value = relation.value!;
  if (op === "=") {
    const r = newRestriction("eq", columns, relation, false, true, [value]);
    r.value = value;
    return r;
  }
  return sliceRestriction(newRestriction("slice", columns, relation, false, true, [value]), op, value);
}

export function toRestriction(ctx: RelationContext, relation: Exclude<Relation, { kind: "custom-index-expression" }>): Restriction {
  switch (relation.kind) {
    case "column":
      return toColumnRestriction(ctx, relation);
    case "multi-column":
      return toMultiColumnRestriction(ctx, relation);
    case "token":
      return toTokenRestriction(ctx, relation);
  }
}

// ---------------------------------------------------------------------------------------------
// Merging several relations on the same column(s) (A6, C8): SingleColumnRestriction,
// MultiColumnRestriction and TokenRestriction `mergeWith`.

function commonColumns(a: Restriction, b: Restriction): string {
  const names = a.columns.filter((c) => b.columns.includes(c)).map((c) => c.name);
  return names.length > 0 ? names.join(", ") : columnNames(a);
}

export function mergeRestrictions(existing: Restriction, incoming: Restriction): Restriction {
  const names = existing.onToken ? columnNames(existing) : commonColumns(existing, incoming);
  const what = existing.onToken ? `token(${names})` : names;
  switch (existing.op) {
    case "eq":
      return reject("A6", `${names} cannot be restricted by more than one relation if it includes an Equal`, `${what} is bound by = and restricted again`);
    case "in":
      return reject("A6", `${names} cannot be restricted by more than one relation if it includes a IN`, `${what} is bound by IN and restricted again`);
    case "like":
      return reject("A6", `${names} cannot be restricted by more than one relation if it includes a LIKE`, `${what} has a LIKE and another relation`);
    case "ann":
      return reject("E9", `${names} cannot be restricted by more than one relation in an ANN query`, `${what} is ordered by ANN and restricted`);
    case "contains": {
      if (incoming.op !== "contains") {
        return reject(
          "A6",
          `Collection column ${names} can only be restricted by CONTAINS, CONTAINS KEY, or map-entry equality`,
          `${what} mixes CONTAINS with another operator`,
        );
      }
      return {
        ...existing,
        relations: [...existing.relations, ...incoming.relations],
        containsValues: existing.containsValues + incoming.containsValues,
        containsKeys: existing.containsKeys + incoming.containsKeys,
        containsEntries: existing.containsEntries + incoming.containsEntries,
        values: [...existing.values, ...incoming.values],
      };
    }
    case "slice": {
      if (incoming.op !== "slice") {
        const gist = existing.onToken
          ? `Columns "${names}" cannot be restricted by both an equality and an inequality relation`
          : `Column "${names}" cannot be restricted by both an equality and an inequality relation`;
        return reject("A6", gist, `${what} has both a range and an equality`);
      }
      if ((existing.multi || incoming.multi) && firstColumn(existing) !== firstColumn(incoming)) {
        const later = firstColumn(existing).position > firstColumn(incoming).position ? firstColumn(existing) : firstColumn(incoming);
        reject(
          "C8",
          `Column "${later.name}" cannot be restricted by two inequalities not starting with the same column`,
          `two ranges start on different clustering columns`,
        );
      }
      if (existing.lower && incoming.lower) {
        reject("A6", `More than one restriction was found for the start bound on ${names}`, `${what} has two lower bounds`);
      }
      if (existing.upper && incoming.upper) {
        reject("A6", `More than one restriction was found for the end bound on ${names}`, `${what} has two upper bounds`);
      }
      const columns = existing.columns.length >= incoming.columns.length ? existing.columns : incoming.columns;
      return {
        ...existing,
        columns,
        multi: existing.multi || incoming.multi,
        relations: [...existing.relations, ...incoming.relations],
        lower: existing.lower ?? incoming.lower,
        upper: existing.upper ?? incoming.upper,
        values: [...existing.values, ...incoming.values],
      };
    }
  }
}

export function isMarkerList(r: Restriction): boolean {
  return r.op === "in" && r.inValues === undefined;
}

export function hasOnlyMarkers(values: Term[]): boolean {
  return values.every(isBindMarker);
}
