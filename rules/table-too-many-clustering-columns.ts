// Every query must restrict clustering columns in order, so each extra one narrows the queries a
// table can serve; several that split one value (year, month, day, hour) are the usual cause.
import * as z from "zod";
import { joinWords, tableEntity, tableLabel, tableLocation } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";

const optionsSchema = z
  .object({
    /** clustering columns a table may have */
    max: z.number().int().positive().default(3),
  })
  .strict();
type Options = z.infer<typeof optionsSchema>;

const TIME_PARTS = /^(year|yyyy|month|mm|week|day|dd|hour|hh|minute|min|second|ss)s?$/i;

const tableTooManyClusteringColumns: RuleModule<Options> = {
  meta: {
    id: "table-too-many-clustering-columns",
    category: "table",
    defaultSeverity: "info",
    description: "The table has more clustering columns than the configured maximum.",
    messages: {
      tooMany:
        "{table} has {count} clustering columns ({columns}), more than {max}: a query must restrict them in order (a range only on the last one restricted), so each extra column narrows the queries the table can serve and lengthens every row's key.{timeParts}",
    },
    options: optionsSchema,
    fixable: false,
  },
  check(context) {
    const { model, options } = context;
    for (const table of model.schema.tables.values()) {
      if (table.clustering.length <= options.max) continue;
      const parts = table.clustering.filter((c) => TIME_PARTS.test(c.name)).map((c) => c.name);
      context.report({
        messageId: "tooMany",
        data: {
          table: tableLabel(model, table.qualifiedName),
          count: table.clustering.length,
          columns: joinWords(table.clustering.map((c) => c.name)),
          max: options.max,
          timeParts:
            parts.length >= 2
              ? ` ${joinWords(parts)} split one point in time: a single \`timestamp\` (or a \`date\`) clusters the same rows and serves any time range with one restriction.`
              : "",
        },
        ...tableLocation(table),
        entity: tableEntity(table.qualifiedName),
      });
    }
  },
};

export default tableTooManyClusteringColumns;
