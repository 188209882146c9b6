// A primary key is how Cassandra places and sorts every row: it can never be altered. A schema
// file that changes it either does nothing on the live cluster or drops every row.
import type { TableChange } from "../src/rule-engine/helpers.js";
import { tableChanges, tableEntity, tableLabel } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";
import type { TableModel } from "../src/schema/model.js";

function primaryKeyText(table: TableModel): string {
  const partition = table.partitionKey.map((c) => c.name).join(", ");
  return `PRIMARY KEY ((${partition})${table.clustering.map((c) => `, ${c.name}`).join("")})`;
}

function sameKey(change: TableChange): boolean {
  const names = (columns: TableModel["partitionKey"]) => columns.map((c) => c.name).join("\u0000");
  return names(change.before.partitionKey) === names(change.after.partitionKey) && names(change.before.clustering) === names(change.after.clustering);
}

const changePrimaryKey: RuleModule = {
  meta: {
    id: "change-primary-key",
    category: "change",
    defaultSeverity: "error",
    description: "The change alters an existing table's primary key, which Cassandra cannot do in place.",
    messages: {
      changed:
        "The primary key of {table} changes from `{before}` to `{after}`, but Cassandra cannot alter a primary key: on the live cluster this CREATE does nothing (with IF NOT EXISTS) or fails, and the old key stays. Create a table under a new name with the new key, backfill it from {table} (a Spark job, DSBulk unload/load), move the reads and writes to it, then drop the old one.",
      recreated:
        "{table} is dropped and created again with `{after}` (it had `{before}`): the DROP discards every row, and nothing here copies them to the new key. Create the new table under another name, backfill it from {table}, move the reads and writes, and drop the old table only after that.",
    },
    fixable: false,
  },
  check(context) {
    const { model } = context;
    for (const change of tableChanges(model, context.base)) {
      if (sameKey(change)) continue;
      context.report({
        messageId: change.how === "base" ? "changed" : "recreated",
        data: { table: tableLabel(model, change.after.qualifiedName), before: primaryKeyText(change.before), after: primaryKeyText(change.after) },
        file: change.after.source.file,
        range: change.after.source.range,
        entity: tableEntity(change.after.qualifiedName),
      });
    }
  },
};

export default changePrimaryKey;
