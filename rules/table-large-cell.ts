// A cell is written, read, repaired and compacted as one value: a frozen collection or UDT is one
// cell rewritten whole by every change, and a large text or blob value is one cell too. The
// manifest's column sizes (items × bytes per item, or bytes) say how large each cell is.
import * as z from "zod";
import { formatBytes, formatCount } from "../src/analysis/estimator-text.js";
import { largestBytes } from "../src/analysis/cells.js";
import type { CellSize } from "../src/analysis/types.js";
import { columnEntity, tableLabel, typeText } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";

const MIB = 1_048_576;

const optionsSchema = z
  .object({
    /** bytes one cell may hold before the rule warns: the 1 MB guideline for a single value */
    maxCellBytes: z.number().int().positive().default(MIB),
    /** `max_mutation_size` of the cluster: half of `commitlog_segment_size` (32 MiB), so 16 MiB by default */
    maxMutationBytes: z.number().int().positive().default(16 * MIB),
  })
  .strict();
type Options = z.infer<typeof optionsSchema>;

/** 1,048,576 → "1 MiB": cassandra.yaml writes these limits in binary units. */
function limitBytes(bytes: number): string {
  return bytes % MIB === 0 ? `${formatCount(bytes / MIB)} MiB` : bytes % 1024 === 0 ? `${formatCount(bytes / 1024)} KiB` : formatBytes(bytes);
}

function sizeText(cell: CellSize): string {
  const average =
    cell.items !== undefined && cell.itemBytes !== undefined
      ? `${formatCount(cell.items)} items of ${formatCount(cell.itemBytes)} bytes, about ${formatBytes(cell.bytes)}`
      : `about ${formatBytes(cell.bytes)}`;
  if (cell.worstBytes === undefined) return average;
  // The manifest's largest value: the cell one write must carry whole, whatever the average says.
  const largest = cell.worstItems !== undefined && cell.itemBytes !== undefined ? `${formatCount(cell.worstItems)} items, about ${formatBytes(cell.worstBytes)}` : `about ${formatBytes(cell.worstBytes)}`;
  return `${largest} in its largest row (${average} on average)`;
}

const tableLargeCell: RuleModule<Options> = {
  meta: {
    id: "table-large-cell",
    category: "table",
    defaultSeverity: "warning",
    description: "A single cell (a frozen collection or UDT, a text or blob value) is large by the manifest's column sizes.",
    messages: {
      frozen:
        "`{column}` of {table} ({type}) is one cell of {size} by the manifest, over {limit}: a frozen value is written and read whole, so every change to one item rewrites all of it, and every read of the row carries it.{mutation} Keep the items as rows of a table clustered by the item (or a non-frozen collection, if it stays small), so a change writes only what changed.",
      value:
        "`{column}` of {table} ({type}) holds one value of {size} by the manifest, over {limit}: a cell is read, repaired, streamed and compacted whole, and large cells fill the heap of the nodes that serve them.{mutation} Keep large objects outside Cassandra (an object store, with the key here) or split them into chunks stored as rows.",
    },
    options: optionsSchema,
    fixable: false,
  },
  check(context) {
    const { model, options } = context;
    for (const table of model.schema.tables.values()) {
      const cells = model.estimates.get(table.qualifiedName)?.cells;
      if (!cells) continue;
      for (const cell of cells) {
        // Judged on the largest value a row holds: that is the write that carries it whole.
        const bytes = largestBytes(cell);
        if (cell.kind === "collection" || bytes < options.maxCellBytes) continue;
        const column = table.columns.find((c) => c.name === cell.column);
        if (!column) continue;
        context.report({
          messageId: cell.kind === "frozen" ? "frozen" : "value",
          data: {
            column: cell.column,
            table: tableLabel(model, table.qualifiedName),
            type: typeText(column.type),
            size: sizeText(cell),
            limit: `the ${limitBytes(options.maxCellBytes)} guideline for one cell`,
            mutation:
              bytes >= options.maxMutationBytes
                ? ` A write of it is larger than max_mutation_size (${limitBytes(options.maxMutationBytes)}, half of commitlog_segment_size): Cassandra rejects it.`
                : "",
          },
          file: column.source.file,
          range: column.source.range,
          entity: `${columnEntity(table.qualifiedName, cell.column)}:cell-size`,
        });
      }
    }
  },
};

export default tableLargeCell;
