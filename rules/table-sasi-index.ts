// SASI never left the experimental stage; since 4.0 a default node refuses to create one, and 5.0
// ships SAI as its replacement.
import { queriesOnTable, tableLabel } from "../src/rule-engine/helpers.js";
import { indexLookupAdvice, searchesText } from "../src/rule-engine/index-advice.js";
import type { RuleModule } from "../src/rule-engine/types.js";

const tableSasiIndex: RuleModule = {
  meta: {
    id: "table-sasi-index",
    category: "table",
    defaultSeverity: "warning",
    description: "The schema creates a SASI index, an experimental feature disabled by default since Cassandra 4.0.",
    messages: {
      disabled:
        "{index} on `{column}` of {table} is a SASI index. SASI is experimental and disabled by default since Cassandra 4.0 (`sasi_indexes_enabled: false` in cassandra.yaml; `enable_sasi_indexes` in 4.0): on a default {version} node this CREATE fails.{replacement}",
      experimental:
        "{index} on `{column}` of {table} is a SASI index. SASI is experimental: it is not recommended for production, and Cassandra 4.0 disables it by default, so this index blocks the upgrade. {advice}",
    },
    fixable: false,
  },
  check(context) {
    const { model } = context;
    for (const table of model.schema.tables.values()) {
      for (const index of table.indexes) {
        if (index.implementation !== "sasi") continue;
        const readers = queriesOnTable(model, table.qualifiedName).filter((q) => q.plan.index === index.name);
        const advice = indexLookupAdvice(table, index.column, readers);
        const search = searchesText(index.column, readers);
        context.report({
          messageId: model.version === "3.11" ? "experimental" : "disabled",
          data: {
            index: index.name,
            column: index.column,
            table: tableLabel(model, table.qualifiedName),
            version: model.version,
            replacement:
              model.version === "5.0"
                ? ` Storage-attached indexing (\`USING 'sai'\`) replaces it for equality and range queries; it has no LIKE, so a text search needs a table keyed for it or an external index.`
                : search
                  ? ` ${advice}`
                  : ` ${advice} Or move to 5.0 and its storage-attached indexes (\`USING 'sai'\`).`,
            advice,
          },
          file: index.source.file,
          range: index.source.range,
          entity: `index:${index.keyspace}.${index.name}`,
        });
      }
    }
  },
};

export default tableSasiIndex;
