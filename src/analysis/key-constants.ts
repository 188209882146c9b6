// Partition-key columns that every write sets to the same constant. A "bucket" or "shard" column
// written as a literal (`INSERT … VALUES (?, 0, …)`, `UPDATE … WHERE id = ? AND bucket = 0`) takes
// one value for ever: it splits nothing, and a key made only of such columns puts the whole table
// in one partition on one replica set. Read from the statements of the manifest's write paths
// (code statements joined them already); a column bound by a marker anywhere is not constant.
import type { Statement, Term } from "../cql/ast.js";
import type { Manifest } from "../manifest/types.js";
import type { SchemaModel, TableModel } from "../schema/model.js";
import { unwrapHint } from "./planner-terms.js";
import type { ConstantKeyColumn } from "./types.js";


/** The literal text of a term, or undefined when it is a bind marker, a function call or anything computed. */
function literalText(term: Term): string | undefined {
  const t = unwrapHint(term);
  if (t.kind !== "literal") return undefined;
  return t.type === "string" ? `'${t.value.replaceAll("'", "''")}'` : t.value;
}

/** The value a row-creating statement gives each partition-key column: its literal, or null when not a literal. */
function keyValues(statement: Statement, table: TableModel): Map<string, string | null> | undefined {
  const key = table.partitionKey.map((c) => c.name);
  const values = new Map<string, string | null>();
  if (statement.kind === "insert") {
    if (statement.json || !statement.columns?.length) return new Map(key.map((c) => [c, null]));
    statement.columns.forEach((column, i) => {
      const value = statement.values?.[i];
      if (key.includes(column.name)) values.set(column.name, value ? (literalText(value) ?? null) : null);
    });
  } else if (statement.kind === "update") {
    // Hand-built statements (tests, other front ends) may leave the clause out: nothing is then constant.
    for (const relation of statement.where?.relations ?? []) {
      if (relation.kind !== "column" || relation.key || relation.field || !key.includes(relation.column.name)) continue;
      values.set(relation.column.name, relation.operator === "=" && relation.value ? (literalText(relation.value) ?? null) : null);
    }
  } else return undefined;
  // A key column the statement does not name is an error Cassandra reports; it decides nothing here.
  for (const column of key) if (!values.has(column)) values.set(column, null);
  return values;
}

/**
 * The partition-key columns of each table that every write sets to the same literal, by table.
 * Tables no write path creates rows in are left out: the manifest's writes may not be all of them.
 */
export function constantKeyColumns(schema: SchemaModel, manifest: Manifest | undefined, keyspace: string | undefined): Map<string, ConstantKeyColumn[]> {
  const seen = new Map<string, Map<string, { value: string | null; writes: Set<string> }>>();
  for (const write of manifest?.writes ?? []) {
    const writeKeyspace = write.keyspace ?? keyspace;
    for (const { statement } of write.statements) {
      if (!statement) continue;
      for (const s of statement.kind === "batch" ? statement.statements : [statement]) {
        if (s.kind !== "insert" && s.kind !== "update") continue;
        const ks = s.table.keyspace?.name ?? writeKeyspace;
        const table = ks ? schema.tables.get(`${ks}.${s.table.name.name}`) : undefined;
        if (!table || table.kind !== "table") continue;
        const values = keyValues(s, table);
        if (!values) continue;
        let columns = seen.get(table.qualifiedName);
        if (!columns) seen.set(table.qualifiedName, (columns = new Map()));
        for (const [column, value] of values) {
          const known = columns.get(column);
          if (!known) columns.set(column, { value, writes: new Set([write.id]) });
          else {
            if (known.value !== value) known.value = null;
            known.writes.add(write.id);
          }
        }
      }
    }
  }
  const constant = new Map<string, ConstantKeyColumn[]>();
  for (const [table, columns] of seen) {
    const list: ConstantKeyColumn[] = [];
    for (const [column, { value, writes }] of columns) if (value !== null) list.push({ column, value, writes: [...writes] });
    if (list.length > 0) constant.set(table, list);
  }
  return constant;
}
