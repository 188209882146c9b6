// A non-frozen collection is read whole (never paged) and every element is a cell: collections are
// for a few items. A list that writes keep pushing to and popping from is a queue, and a queue in
// a collection reads its tombstones on every read.
import * as z from "zod";
import { formatBytes, formatCount } from "../src/analysis/estimator-text.js";
import {
  collectionOperations,
  columnEntity,
  isNonFrozenCollection,
  joinWords,
  tableLabel,
  typeText,
  volumeOf,
  writesOnTable,
  type CollectionOperationKind,
} from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";

const optionsSchema = z
  .object({
    /** items one collection may hold (manifest `items`) */
    maxItems: z.number().int().positive().default(1000),
    /** bytes one collection may hold (manifest `items` × `bytes`) */
    maxBytes: z.number().int().positive().default(65_536),
  })
  .strict();
type Options = z.infer<typeof optionsSchema>;

/** 65,536 → "64 KiB": limits are usually set in binary units, as cassandra.yaml writes them. */
function limitBytes(bytes: number): string {
  return bytes % 1024 === 0 ? `${formatCount(bytes / 1024)} KiB` : formatBytes(bytes);
}

const ADDS: readonly CollectionOperationKind[] = ["append", "prepend"];
const REMOVES: readonly CollectionOperationKind[] = ["remove", "remove-element"];
const BOUNDS: readonly CollectionOperationKind[] = ["replace", "reset", "remove", "remove-element"];

const tableLargeCollection: RuleModule<Options> = {
  meta: {
    id: "table-large-collection",
    category: "table",
    defaultSeverity: "warning",
    description: "A non-frozen collection is large, grows without bound, or is used as a queue.",
    messages: {
      tooLarge:
        "`{column}` of {table} ({type}) holds {items} items of {itemBytes} bytes ({bytes}) by the manifest, over {limit}: a collection is read whole on every read of the row (it is never paged) and each element is a cell. Move the items to a table of their own, clustered by the item.",
      queue:
        "`{column}` of {table} is a list used as a queue: {adders} {add} to it and {removers} {remove} from it. Each removal writes a tombstone that every read of the list reads until compaction purges it, and removing by value or index makes Cassandra read the list before writing. Keep queue items as rows of a table clustered by a timeuuid, and delete consumed rows by range.",
      unbounded:
        "`{column}` of {table} ({type}) only ever grows: {adders} {add} to it, and no write replaces, removes or expires its items (no TTL). It is read whole on every read of the row; state its size in the manifest (`columns: {{column}: {items: …, bytes: …}}`) if it is bounded, else move the items to a table clustered by the item.",
    },
    options: optionsSchema,
    fixable: false,
  },
  check(context) {
    const { model, options } = context;
    for (const table of model.schema.tables.values()) {
      const collections = table.columns.filter((c) => isNonFrozenCollection(c.type));
      if (collections.length === 0) continue;
      const volume = volumeOf(model, table);
      const label = tableLabel(model, table.qualifiedName);
      const onTable = writesOnTable(model, table);
      for (const column of collections) {
        const at = { file: column.source.file, range: column.source.range };
        const entity = columnEntity(table.qualifiedName, column.name);
        const size = volume?.columns[column.name];
        if (size?.kind === "collection") {
          // Judged on the largest collection a row holds, when the manifest states it: that row is read whole.
          const items = size.maxItems ?? size.items;
          const bytes = items * (size.bytesPerItem + (size.keyBytes ?? 0));
          if (items > options.maxItems || bytes > options.maxBytes) {
            context.report({
              ...at,
              entity: `${entity}:size`,
              messageId: "tooLarge",
              data: {
                column: column.name,
                table: label,
                type: typeText(column.type),
                items: size.maxItems === undefined ? formatCount(size.items) : `up to ${formatCount(size.maxItems)} (${formatCount(size.items)} on average)`,
                itemBytes: size.bytesPerItem + (size.keyBytes ?? 0),
                bytes: formatBytes(bytes),
                limit: items > options.maxItems ? `${formatCount(options.maxItems)} items` : limitBytes(options.maxBytes),
              },
            });
          }
        }
        const operations = onTable.flatMap((w) => collectionOperations(w.statement, table).filter((o) => o.column === column.name).map((o) => ({ ...o, write: w })));
        const writers = (kinds: readonly CollectionOperationKind[]) => [...new Set(operations.filter((o) => kinds.includes(o.kind)).map((o) => o.write.write?.id ?? "seed data"))];
        const who = (kinds: readonly CollectionOperationKind[]) => joinWords(writers(kinds));
        // "W3 adds to it", "W3 and W5 add to it"
        const verb = (kinds: readonly CollectionOperationKind[], plural: string) => (writers(kinds).length === 1 ? `${plural}s` : plural);
        const adds = operations.some((o) => ADDS.includes(o.kind));
        if (column.type.kind === "list" && adds && operations.some((o) => REMOVES.includes(o.kind))) {
          context.report({ ...at, entity: `${entity}:queue`, messageId: "queue", data: { column: column.name, table: label, adders: who(ADDS), add: verb(ADDS, "add"), removers: who(REMOVES), remove: verb(REMOVES, "remove") } });
          continue;
        }
        const expires = table.defaultTtlSeconds > 0 || onTable.some((w) => w.statement.using?.ttl !== undefined);
        // An INSERT sets the first value of a new row; only later writes can keep the collection bounded.
        const bounded = operations.some((o) => BOUNDS.includes(o.kind) && o.write.statement.kind !== "insert");
        if (adds && !size && !expires && !bounded) {
          context.report({ ...at, entity: `${entity}:unbounded`, messageId: "unbounded", data: { column: column.name, table: label, type: typeText(column.type), adders: who(ADDS), add: verb(ADDS, "add") } });
        }
      }
    }
  },
};

export default tableLargeCollection;
