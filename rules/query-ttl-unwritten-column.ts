// TTL(c) and WRITETIME(c) read the metadata of the cell c holds in each row. A cell no write ever
// sets does not exist, so both return null for every row (WritetimeOrTTLSelector in
// apache/cassandra returns null for a TTL that is not positive and for a missing timestamp). Code
// that reads that null as 0 takes it for "never expires", or "written in 1970".
import { joinWords, queryEntity, tableLabel, writesOnTable, writtenColumns } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";

/** The functions that read a cell's write metadata, with what they return. */
const CELL_METADATA = new Map([
  ["ttl", "TTL"],
  ["writetime", "WRITETIME"],
  ["maxwritetime", "MAXWRITETIME"],
]);

const queryTtlUnwrittenColumn: RuleModule = {
  meta: {
    id: "query-ttl-unwritten-column",
    category: "query",
    defaultSeverity: "warning",
    description: "A query selects TTL() or WRITETIME() of a column that no write of the manifest sets, so it always returns null.",
    messages: {
      unwritten:
        "{query} selects {function}({column}) of {table}, but no write of the manifest sets `{column}` ({writes} {verb} {table} without it): a cell that is never written has no {what}, so {function}({column}) is null in every row. Code that reads that null as 0 takes every row for {zero}; a TTL copied from it into another write's USING TTL keeps those rows for ever. Select the {what} of a column every write sets, or write `{column}`.",
    },
    fixable: false,
  },
  check(context) {
    const { model } = context;
    if (!model.manifest || model.manifest.writes.length === 0) return;
    for (const query of model.queries) {
      const { select } = query;
      const table = query.table ? model.schema.tables.get(query.table) : undefined;
      if (!select || !table || table.kind !== "table") continue;
      // Only what the manifest's writes show: a table no path writes is write-table-not-written's.
      const writes = writesOnTable(model, table).filter((w) => w.statement.kind !== "delete");
      if (writes.length === 0) continue;
      // INSERT JSON names no columns: it may set any of them.
      if (writes.some((w) => w.statement.kind === "insert" && w.statement.json !== undefined)) continue;
      const written = new Set(writes.flatMap((w) => writtenColumns(w.statement)));
      const reported = new Set<string>();
      for (const selector of select.selectors) {
        const expression = selector.expression;
        if (expression.kind !== "function" || expression.args.length !== 1) continue;
        const fn = CELL_METADATA.get(expression.name.name.name.toLowerCase());
        const arg = expression.args[0]!;
        if (!fn || arg.kind !== "column") continue;
        const column = arg.name.name;
        if (written.has(column) || reported.has(`${fn}:${column}`) || !table.columns.some((c) => c.name === column)) continue;
        reported.add(`${fn}:${column}`);
        const paths = [...new Set(writes.map((w) => w.write?.id ?? "the schema files' writes"))];
        const ttl = fn === "TTL";
        context.report({
          messageId: "unwritten",
          data: {
            query: query.id,
            function: fn,
            column,
            table: tableLabel(model, table.qualifiedName),
            writes: joinWords(paths),
            verb: paths.length === 1 ? "writes" : "write",
            what: ttl ? "TTL" : "write time",
            zero: ttl ? "one that never expires" : "one written in 1970",
          },
          file: query.location.file,
          range: query.location.range,
          entity: `${queryEntity(query.id)}:${fn.toLowerCase()}:${column}`,
        });
      }
    }
  },
};

export default queryTtlUnwrittenColumn;
