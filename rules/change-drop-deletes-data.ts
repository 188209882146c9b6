// A schema file applied as a migration runs on every cluster it is deployed to: a DROP KEYSPACE,
// DROP TABLE or TRUNCATE in it deletes the data there, at once and on every node. A tear-down
// script (nothing but DROPs, left out of the applied files by src/schema/file-order.ts, or a file
// the manifest's `schema:` does not list) is not deployed, so it is not reported.
import { joinWords, orderedStatements, tableEntity } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";

const changeDropDeletesData: RuleModule = {
  meta: {
    id: "change-drop-deletes-data",
    category: "change",
    defaultSeverity: "warning",
    description: "A schema file applied as a migration drops a keyspace or table, or truncates a table, which deletes its data on every cluster it is deployed to.",
    messages: {
      keyspace:
        "{file} drops keyspace `{keyspace}`{tables}, and the schema files are applied as migrations: on deploy, every table of it and all their rows are removed on every node at once. Only the snapshot each node takes first (when `auto_snapshot` is on, the default) keeps the data, and restoring it is a manual job on every node. If this file resets a test database, keep it out of the applied schema (a tear-down script of DROPs only, or a path the manifest's `schema:` does not list); if the keyspace is retired, drop it in a release of its own once no code uses it, after a backup.",
      table:
        "{file} drops table {table}, and the schema files are applied as migrations: on deploy, every row of it is removed on every node at once{recreated}. Only the snapshot each node takes first (when `auto_snapshot` is on, the default) keeps the data, and restoring it is a manual job on every node. {advice}",
      truncate:
        "{file} truncates {table}, and the schema files are applied as migrations: on deploy, every row of it is removed on every node. TRUNCATE belongs in a one-off operation, not in a file applied on every deploy; keep it out of the applied schema.",
    },
    fixable: false,
  },
  check(context) {
    const { model } = context;
    const statements = orderedStatements(model);
    const counts = new Map<string, number>();
    const entityOnce = (entity: string) => {
      const n = (counts.get(entity) ?? 0) + 1;
      counts.set(entity, n);
      return n === 1 ? entity : `${entity}#${n}`;
    };
    statements.forEach(({ statement, keyspace, file }, position) => {
      const base = { file: file.path, range: statement.range };
      if (statement.kind === "drop-keyspace") {
        const name = statement.name.name.name;
        // The tables the earlier statements put in it: what the DROP takes with it.
        const tables = new Set<string>();
        for (const earlier of statements.slice(0, position)) {
          const created = earlier.statement;
          if (created.kind === "create-table" && (created.name.keyspace?.name ?? earlier.keyspace) === name) tables.add(created.name.name.name);
          if (created.kind === "drop-table" && (created.name.keyspace?.name ?? earlier.keyspace) === name) tables.delete(created.name.name.name);
        }
        const names = [...tables].map((t) => `\`${t}\``);
        const listed = names.length > 5 ? `${names.slice(0, 5).join(", ")} and ${names.length - 5} more` : joinWords(names);
        const tablesText = names.length === 0 ? "" : ` with its ${names.length === 1 ? "table" : `${names.length} tables`} ${listed}`;
        context.report({ ...base, messageId: "keyspace", data: { file: file.path, keyspace: name, tables: tablesText }, entity: entityOnce(`keyspace:${name}:dropped`) });
        return;
      }
      if (statement.kind !== "drop-table" && statement.kind !== "truncate") return;
      const tableKeyspace = statement.name.keyspace?.name ?? keyspace;
      const table = statement.name.name.name;
      const qualified = tableKeyspace === "" ? table : `${tableKeyspace}.${table}`;
      const label = `\`${statement.name.keyspace ? qualified : table}\``;
      if (statement.kind === "truncate") {
        context.report({ ...base, messageId: "truncate", data: { file: file.path, table: label }, entity: entityOnce(`${tableEntity(qualified)}:truncated`) });
        return;
      }
      // A table the later statements create again starts empty: the rows are not carried over.
      const recreated = statements
        .slice(position + 1)
        .some(({ statement: later, keyspace: laterKeyspace }) => later.kind === "create-table" && later.name.name.name === table && (later.name.keyspace?.name ?? laterKeyspace) === tableKeyspace);
      const advice = recreated
        ? "To change the table, create the new one under another name, copy the rows into it, move the reads and writes, and drop the old table in a later release."
        : "If the table is retired, drop it in a release of its own once no code reads or writes it, after a backup; if this file resets a test database, keep it out of the applied schema.";
      context.report({
        ...base,
        messageId: "table",
        data: { file: file.path, table: label, recreated: recreated ? ", and the CREATE TABLE that follows starts it empty" : "", advice },
        entity: entityOnce(`${tableEntity(qualified)}:dropped`),
      });
    });
  },
};

export default changeDropDeletesData;
