// Cassandra 4.1+ guardrails warn on, or refuse, schemas past operator-set thresholds. They are all
// off by default (-1 in conf/cassandra.yaml): the rule checks the thresholds the repository sets
// as options, mirroring its cluster's cassandra.yaml, so the refusal shows up in review, not in a deploy.
import * as z from "zod";
import type { SourceLocation } from "../src/findings.js";
import { formatCount } from "../src/analysis/estimator-text.js";
import { tableLabel } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";

const threshold = z.number().int().min(-1).default(-1);

const optionsSchema = z
  .object({
    keyspaces_warn_threshold: threshold,
    keyspaces_fail_threshold: threshold,
    tables_warn_threshold: threshold,
    tables_fail_threshold: threshold,
    columns_per_table_warn_threshold: threshold,
    columns_per_table_fail_threshold: threshold,
    secondary_indexes_per_table_warn_threshold: threshold,
    secondary_indexes_per_table_fail_threshold: threshold,
    materialized_views_per_table_warn_threshold: threshold,
    materialized_views_per_table_fail_threshold: threshold,
    fields_per_udt_warn_threshold: threshold,
    fields_per_udt_fail_threshold: threshold,
    vector_dimensions_warn_threshold: threshold,
    vector_dimensions_fail_threshold: threshold,
    // Value sizes, measured from the manifest's column sizes (bytes, or items).
    collection_size_warn_threshold: threshold,
    collection_size_fail_threshold: threshold,
    items_per_collection_warn_threshold: threshold,
    items_per_collection_fail_threshold: threshold,
    column_value_size_warn_threshold: threshold,
    column_value_size_fail_threshold: threshold,
  })
  .strict();
type Options = z.infer<typeof optionsSchema>;
type Guardrail =
  | "keyspaces"
  | "tables"
  | "columns_per_table"
  | "secondary_indexes_per_table"
  | "materialized_views_per_table"
  | "fields_per_udt"
  | "vector_dimensions"
  | "collection_size"
  | "items_per_collection"
  | "column_value_size";

interface Measured {
  guardrail: Guardrail;
  /** what is counted, for the message: "table shop.events has 120 columns" */
  what: string;
  value: number;
  location: SourceLocation;
  entity: string;
  /** Cassandra version that introduced the guardrail */
  since: "4.1" | "5.0";
}

const tableGuardrailExceeded: RuleModule<Options> = {
  meta: {
    id: "table-guardrail-exceeded",
    category: "table",
    defaultSeverity: "warning",
    description: "The schema crosses a Cassandra 4.1+ guardrail threshold set in the rule's options (columns, indexes, views, UDT fields, tables, keyspaces, vector dimensions).",
    messages: {
      warn: "{what}, over `{guardrail}_warn_threshold: {threshold}`: Cassandra {since}+ accepts the statement with a warning to the client.",
      fail: "{what}, over `{guardrail}_fail_threshold: {threshold}`: Cassandra {since}+ rejects the statement.",
    },
    options: optionsSchema,
    fixable: false,
  },
  check(context) {
    const { model, options } = context;
    if (model.version !== "4.1" && model.version !== "5.0") return;
    const measured: Measured[] = [];
    const userKeyspaces = [...model.schema.keyspaces.values()];
    userKeyspaces.forEach((keyspace, i) =>
      measured.push({ guardrail: "keyspaces", what: `Keyspace ${keyspace.name} is keyspace number ${i + 1}`, value: i + 1, location: keyspace.source, entity: `keyspace:${keyspace.name}`, since: "4.1" }),
    );
    const tables = [...model.schema.tables.values()].filter((t) => t.kind === "table");
    tables.forEach((table, i) => {
      const label = tableLabel(model, table.qualifiedName);
      const entity = `table:${table.qualifiedName}`;
      measured.push({ guardrail: "tables", what: `${label} is table number ${i + 1}`, value: i + 1, location: table.source, entity, since: "4.1" });
      measured.push({ guardrail: "columns_per_table", what: `${label} has ${table.columns.length} columns`, value: table.columns.length, location: table.source, entity, since: "4.1" });
      table.indexes.forEach((index, n) =>
        measured.push({ guardrail: "secondary_indexes_per_table", what: `Index ${index.name} is index number ${n + 1} on ${label}`, value: n + 1, location: index.source, entity: `index:${index.keyspace}.${index.name}`, since: "4.1" }),
      );
      table.views.forEach((name, n) => {
        const view = model.schema.tables.get(name);
        if (view) measured.push({ guardrail: "materialized_views_per_table", what: `${tableLabel(model, name)} is view number ${n + 1} on ${label}`, value: n + 1, location: view.source, entity: `table:${name}`, since: "4.1" });
      });
      // Sizes the manifest states (estimator's cells): what one write of the whole value carries.
      for (const cell of model.estimates.get(table.qualifiedName)?.cells ?? []) {
        const column = table.columns.find((c) => c.name === cell.column);
        if (!column) continue;
        const at = { location: column.source, entity: `column:${table.qualifiedName}.${column.name}` };
        const name = `\`${column.name}\` of ${label}`;
        // A guardrail refuses the one write past it: judged on the largest value a row holds, when stated.
        const largest = cell.worstBytes === undefined ? "" : " in its largest row";
        const bytes = cell.worstBytes ?? cell.bytes;
        if (cell.kind !== "value" && cell.items !== undefined) {
          const items = cell.worstItems ?? cell.items;
          measured.push({ guardrail: "items_per_collection", what: `${name} holds ${formatCount(items)} items${cell.worstItems === undefined ? "" : " in its largest row"} by the manifest`, value: items, ...at, since: "4.1" });
          measured.push({ guardrail: "collection_size", what: `${name} holds about ${formatCount(bytes)} bytes${largest} by the manifest`, value: bytes, ...at, since: "4.1" });
        }
        if (cell.kind !== "collection") {
          measured.push({ guardrail: "column_value_size", what: `${name} is a value of about ${formatCount(bytes)} bytes${largest} by the manifest`, value: bytes, ...at, since: "5.0" });
        }
      }
      for (const column of table.columns) {
        if (column.type.kind !== "vector") continue;
        measured.push({ guardrail: "vector_dimensions", what: `\`${column.name}\` of ${label} has ${column.type.dimension} dimensions`, value: column.type.dimension, location: column.source, entity: `column:${table.qualifiedName}.${column.name}`, since: "5.0" });
      }
    });
    for (const type of model.schema.types.values()) {
      measured.push({ guardrail: "fields_per_udt", what: `Type ${type.name} has ${type.fields.length} fields`, value: type.fields.length, location: type.source, entity: `type:${type.keyspace}.${type.name}`, since: "4.1" });
    }

    for (const m of measured) {
      if (m.since === "5.0" && model.version !== "5.0") continue;
      const fail = options[`${m.guardrail}_fail_threshold`];
      const warn = options[`${m.guardrail}_warn_threshold`];
      const over = fail >= 0 && m.value > fail ? { messageId: "fail", threshold: fail } : warn >= 0 && m.value > warn ? { messageId: "warn", threshold: warn } : undefined;
      if (!over) continue;
      context.report({
        messageId: over.messageId,
        data: { what: m.what, guardrail: m.guardrail, threshold: over.threshold, since: m.since, value: m.value },
        file: m.location.file,
        range: m.location.range,
        entity: `${m.entity}:${m.guardrail}`,
      });
    }
  },
};

export default tableGuardrailExceeded;
