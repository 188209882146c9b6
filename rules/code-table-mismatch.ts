// An entity class and the CQL schema define the same table differently: the application maps
// rows by a key, or writes columns, that the table does not have.
import { findColumn, findTable } from "../src/schema/resolve.js";
import type { ColumnModel } from "../src/schema/model.js";
import type { RuleModule } from "../src/rule-engine/types.js";

const list = (names: string[]) => (names.length === 0 ? "none" : names.join(", "));
const sameNames = (a: string[], b: string[], ordered: boolean) =>
  a.length === b.length && (ordered ? a.every((name, i) => name === b[i]) : a.every((name) => b.includes(name)));
const keyNames = (columns: ColumnModel[]) => columns.map((c) => c.name);

const codeTableMismatch: RuleModule = {
  meta: {
    id: "code-table-mismatch",
    category: "table",
    defaultSeverity: "warning",
    description: "An entity class maps a table differently from its CREATE TABLE: another key, a clustering order, or columns the table lacks.",
    messages: {
      partitionKey:
        "Entity {entity} maps table {table} with the partition key ({code}), but the schema's partition key is ({schema}). Reads and writes through the entity fail or address other partitions; make the entity and the CREATE TABLE agree.",
      clustering:
        "Entity {entity} maps table {table} with the clustering columns ({code}), but the schema clusters by ({schema}). Make the entity and the CREATE TABLE agree.",
      clusteringOrder:
        "Entity {entity} declares {column} {codeOrder}, but table {table} clusters it {schemaOrder}. A table the framework creates from the entity would sort rows the other way from the schema's.",
      missingColumn:
        "Entity {entity} maps property {column} to table {table}, which has no such column; writes through the entity fail on it. Add the column to the table, name the property after an existing column, or mark it transient.",
    },
    fixable: false,
  },
  check(context) {
    const { model } = context;
    for (const entity of model.code?.extraction.tables ?? []) {
      // A table only the code defines does not enter the schema model: nothing to compare with.
      const table = findTable(model.schema, entity.name, entity.keyspace);
      if (!table || table.kind !== "table") continue;
      const base = { entity: entity.entity, table: table.qualifiedName.replace(/^\./, "") };
      const at = { file: entity.file, range: entity.range };
      if (entity.partitionKey && !sameNames(entity.partitionKey, keyNames(table.partitionKey), entity.keyOrderKnown.partition)) {
        context.report({
          messageId: "partitionKey",
          data: { ...base, code: list(entity.partitionKey), schema: list(keyNames(table.partitionKey)) },
          ...at,
          entity: `code-table:${entity.entity}:partition`,
        });
      }
      if (entity.clustering) {
        const names = entity.clustering.map((c) => c.name);
        if (!sameNames(names, keyNames(table.clustering), entity.keyOrderKnown.clustering)) {
          context.report({
            messageId: "clustering",
            data: { ...base, code: list(names), schema: list(keyNames(table.clustering)) },
            ...at,
            entity: `code-table:${entity.entity}:clustering`,
          });
        } else {
          for (const column of entity.clustering) {
            const declared = table.clustering.find((c) => c.name === column.name)?.order ?? "asc";
            if (!column.order || column.order === declared) continue;
            context.report({
              messageId: "clusteringOrder",
              data: { ...base, column: column.name, codeOrder: column.order.toUpperCase(), schemaOrder: declared.toUpperCase() },
              ...at,
              entity: `code-table:${entity.entity}:order:${column.name}`,
            });
          }
        }
      }
      for (const column of entity.columns) {
        if (findColumn(table, column.name)) continue;
        context.report({
          messageId: "missingColumn",
          data: { ...base, column: column.name },
          file: entity.file,
          range: column.range,
          entity: `code-table:${entity.entity}:column:${column.name}`,
        });
      }
    }
  },
};

export default codeTableMismatch;
