// Rows are written to disk in clustering order; Cassandra cannot re-sort a table, so the order is
// fixed when the table is created, like the key itself.
import { joinWords, tableChanges, tableEntity, tableLabel } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";
import type { TableModel } from "../src/schema/model.js";

function orderText(table: TableModel): string {
  return `CLUSTERING ORDER BY (${table.clustering.map((c) => `${c.name} ${(c.order ?? "asc").toUpperCase()}`).join(", ")})`;
}

const changeClusteringOrder: RuleModule = {
  meta: {
    id: "change-clustering-order",
    category: "change",
    defaultSeverity: "error",
    description: "The change alters an existing table's clustering order, which Cassandra cannot do in place.",
    messages: {
      changed:
        "The clustering order of {table} changes from `{before}` to `{after}` ({columns}), but Cassandra cannot re-sort an existing table: ALTER TABLE cannot change it, and on the live cluster this CREATE does nothing (with IF NOT EXISTS) or fails. Queries written for the new order read the old one backwards (or are rejected with ORDER BY). Create a table under a new name with the new order, backfill it, move the reads and writes, then drop the old one.",
      recreated:
        "{table} is dropped and created again with `{after}` (it had `{before}`): the DROP discards every row, and nothing here copies them into the new order. Create the new table under another name, backfill it from {table}, move the reads and writes, and drop the old table only after that.",
    },
    fixable: false,
  },
  check(context) {
    const { model } = context;
    for (const change of tableChanges(model, context.base)) {
      const { before, after } = change;
      // A different key is change-primary-key's finding; the order only compares on the same columns.
      if (before.clustering.length !== after.clustering.length || before.clustering.some((c, i) => c.name !== after.clustering[i]!.name)) continue;
      const flipped = after.clustering.filter((c, i) => (c.order ?? "asc") !== (before.clustering[i]!.order ?? "asc"));
      if (flipped.length === 0) continue;
      context.report({
        messageId: change.how === "base" ? "changed" : "recreated",
        data: {
          table: tableLabel(model, after.qualifiedName),
          before: orderText(before),
          after: orderText(after),
          columns: `${joinWords(flipped.map((c) => `\`${c.name}\``))} reversed`,
        },
        file: after.source.file,
        range: after.source.range,
        entity: `${tableEntity(after.qualifiedName)}:clustering-order`,
      });
    }
  },
};

export default changeClusteringOrder;
