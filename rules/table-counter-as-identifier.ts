// Counters count; they cannot hand out identifiers. An increment returns nothing, concurrent
// clients read the same value back, and a retried increment may have applied already.
import { columnEntity, joinWords, tableLabel } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";
import type { TableModel } from "../src/schema/model.js";

/** Words that name an identifier or a sequence, in a column or table name. */
const ID_WORDS = new Set(["id", "ids", "seq", "seqs", "sequence", "sequences", "serial", "autoincrement", "generator", "ticket", "tickets"]);
/**
 * In a counter's own name, a plural names what it counts (`tickets_sold`, `open_tickets`), and so
 * does a counting word beside an id word (`ticket_count`): only a singular id word, alone, hints
 * at a sequence.
 */
const COLUMN_ID_WORDS = new Set(["id", "seq", "sequence", "serial", "autoincrement", "generator", "ticket"]);
const COUNT_WORDS = new Set(["count", "counts", "total", "totals", "sold", "sum", "num"]);

function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/** The words of a table's name that are not a key column's name (`likes_by_post_id` names its key, not a sequence). */
function tableNameWords(table: TableModel): string[] {
  let name = `_${words(table.name).join("_")}_`;
  for (const column of [...table.partitionKey, ...table.clustering]) name = name.split(`_${words(column.name).join("_")}_`).join("__");
  return name.split("_").filter(Boolean);
}

function columnHintWords(name: string): string[] {
  const nameWords = words(name);
  if (nameWords.some((w) => COUNT_WORDS.has(w))) return [];
  return nameWords.filter((w) => COLUMN_ID_WORDS.has(w));
}

const tableCounterAsIdentifier: RuleModule = {
  meta: {
    id: "table-counter-as-identifier",
    category: "table",
    defaultSeverity: "warning",
    description: "A counter column looks like an identifier or sequence generator, which counters cannot be.",
    messages: {
      idGenerator:
        "`{column}` of {table} is a counter named like {evidence}: counters cannot hand out identifiers. An increment returns no value, so clients read it back and two concurrent clients get the same number; a timed-out increment may have applied, so a retry skips or repeats one. Identify rows with a uuid or timeuuid; if a gap-free sequence is required, allocate it with a lightweight transaction (`UPDATE … SET next = ? IF next = ?`) on a regular bigint column.",
    },
    fixable: false,
  },
  check(context) {
    const { model } = context;
    for (const table of model.schema.tables.values()) {
      const counters = table.columns.filter((c) => c.type.kind === "native" && c.type.name === "counter");
      if (counters.length === 0) continue;
      const tableHints = tableNameWords(table).filter((w) => ID_WORDS.has(w));
      for (const column of counters) {
        const columnHints = columnHintWords(column.name);
        if (columnHints.length === 0 && tableHints.length === 0) continue;
        const evidence = [
          ...(columnHints.length > 0 ? [`an identifier (${joinWords(columnHints.map((w) => `"${w}"`))} in its name)`] : []),
          ...(tableHints.length > 0 ? [`a sequence table (${joinWords(tableHints.map((w) => `"${w}"`))} in the table name)`] : []),
        ];
        context.report({
          messageId: "idGenerator",
          data: { column: column.name, table: tableLabel(model, table.qualifiedName), evidence: joinWords(evidence) },
          file: column.source.file,
          range: column.source.range,
          entity: columnEntity(table.qualifiedName, column.name),
        });
      }
    }
  },
};

export default tableCounterAsIdentifier;
