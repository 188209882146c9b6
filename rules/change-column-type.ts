// Cassandra stores a column's values in its type's serialization. Since 3.0.11/3.10 no type can be
// altered in place, and a dropped column comes back only with a type that can read the old values.
import { columnEntity, tableChanges, tableLabel, typeText } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";
import type { ColumnType, TableModel } from "../src/schema/model.js";

/** Natives that can read values written as another native (AbstractType.isValueCompatibleWith in apache/cassandra). */
const READS: Record<string, readonly string[]> = {
  text: ["ascii"],
  bigint: ["timestamp"],
  timestamp: ["bigint"],
  varint: ["int", "bigint", "timestamp"],
  date: ["int"],
  time: ["bigint"],
  uuid: ["timeuuid"],
};

function canonical(type: ColumnType): string {
  return typeText(type).replace(/\bvarchar\b/g, "text");
}

/** Whether values written as `old` can be read as `next` (so dropping and re-adding the column is accepted). */
function canRead(next: ColumnType, old: ColumnType): boolean {
  if (canonical(next) === canonical(old)) return true;
  if (next.kind === "native" && old.kind === "native") {
    if (next.name === "blob") return true;
    return (READS[next.name === "varchar" ? "text" : next.name] ?? []).includes(old.name === "varchar" ? "text" : old.name);
  }
  // Any single-cell value can be read as raw bytes; a multi-cell (non-frozen) collection cannot.
  if (next.kind === "native" && next.name === "blob") return !((old.kind === "list" || old.kind === "set" || old.kind === "map" || old.kind === "udt") && !old.frozen);
  if ((next.kind === "list" || next.kind === "set") && next.kind === old.kind) return next.frozen === old.frozen && canRead(next.element, old.element);
  if (next.kind === "map" && old.kind === "map") return next.frozen === old.frozen && canRead(next.key, old.key) && canRead(next.value, old.value);
  // Tuples and user types may grow: the old fields must be readable as the new ones, in order.
  if (next.kind === "tuple" && old.kind === "tuple") return next.elements.length >= old.elements.length && old.elements.every((e, i) => canRead(next.elements[i]!, e));
  if (next.kind === "udt" && old.kind === "udt") return next.frozen === old.frozen && next.fields.length >= old.fields.length && old.fields.every((f, i) => canRead(next.fields[i]!.type, f.type));
  return false;
}

function sameKeyAndOrder(before: TableModel, after: TableModel): boolean {
  const key = (t: TableModel) => [...t.partitionKey.map((c) => c.name), "|", ...t.clustering.map((c) => `${c.name} ${c.order ?? "asc"}`)].join(",");
  return key(before) === key(after);
}

const changeColumnType: RuleModule = {
  meta: {
    id: "change-column-type",
    category: "change",
    defaultSeverity: "error",
    description: "The change gives an existing column another type, which Cassandra cannot alter in place.",
    messages: {
      incompatible:
        "`{column}` of {table} changes type from {before} to {after}. Cassandra cannot alter a column's type (removed in 3.0.11/3.10), and {after} cannot read the {before} values already stored, so dropping the column and adding it back as {after} is rejected too. Add a new column (or table) of type {after}, backfill it converting the values, and move the reads to it.",
      compatible:
        "`{column}` of {table} changes type from {before} to {after}. Cassandra cannot alter a column's type (removed in 3.0.11/3.10); {after} can read {before} values, so `ALTER TABLE … DROP {column}` then `ADD {column} {after}` is accepted, but the DROP discards every value already stored in it. Backfill after re-adding, or add a new column instead.",
      keyColumn:
        "`{column}` of {table} changes type from {before} to {after}, and it is part of the primary key: key columns can never change type, since rows are placed and sorted by their serialized values. Create a table under a new name with the new type, backfill it, move the reads and writes, then drop the old table.",
      recreated:
        "{table} is dropped and created again with `{column}` as {after} (it was {before}): the DROP discards every row. To keep them, create the new table under another name and copy the rows, converting {before} to {after}, before dropping the old one.",
    },
    fixable: false,
  },
  check(context) {
    const { model } = context;
    for (const change of tableChanges(model, context.base)) {
      // A table re-created with another key or order already loses its rows in those rules' findings.
      if (change.how === "recreated" && !sameKeyAndOrder(change.before, change.after)) continue;
      for (const column of change.after.columns) {
        const old = change.before.columns.find((c) => c.name === column.name);
        if (!old || canonical(old.type) === canonical(column.type)) continue;
        const isKey = column.kind === "partition" || column.kind === "clustering" || old.kind === "partition" || old.kind === "clustering";
        const messageId = change.how === "recreated" ? "recreated" : isKey ? "keyColumn" : canRead(column.type, old.type) ? "compatible" : "incompatible";
        context.report({
          messageId,
          data: { column: column.name, table: tableLabel(model, change.after.qualifiedName), before: typeText(old.type), after: typeText(column.type) },
          file: column.source.file,
          range: column.source.range,
          entity: `${columnEntity(change.after.qualifiedName, column.name)}:type`,
        });
      }
    }
  },
};

export default changeColumnType;
