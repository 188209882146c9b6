// Table options the target Cassandra version no longer accepts: the CREATE or ALTER that carries
// them fails ("Unknown property", "Unable to find compaction strategy class"), so the schema file
// as written cannot be applied, however well the application strips them at run time.
import type { OptionEntry, Statement } from "../src/cql/ast.js";
import { numberedEntities, orderedStatements, rangeBetween } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";
import type { CassandraVersion } from "../src/schema/model.js";
import { atLeast } from "../src/analysis/planner-evaluate.js";

/** Options removed from table schemas, with the version that removed them and what replaced them. */
const REMOVED_OPTIONS: Record<string, { since: CassandraVersion; instead: string }> = {
  read_repair_chance: {
    since: "4.0",
    instead: "background read repair is gone (CASSANDRA-13910); blocking read repair still runs on digest mismatches, and `read_repair = 'NONE'` turns it off",
  },
  dclocal_read_repair_chance: {
    since: "4.0",
    instead: "background read repair is gone (CASSANDRA-13910); blocking read repair still runs on digest mismatches, and `read_repair = 'NONE'` turns it off",
  },
};

/** Compaction strategies Cassandra ships, with the first and (exclusive) last version that has them. */
const STRATEGIES: Record<string, { from?: CassandraVersion; until?: CassandraVersion }> = {
  SizeTieredCompactionStrategy: {},
  LeveledCompactionStrategy: {},
  TimeWindowCompactionStrategy: {},
  DateTieredCompactionStrategy: { until: "5.0" },
  UnifiedCompactionStrategy: { from: "5.0" },
};
const CASSANDRA_PACKAGE = "org.apache.cassandra.db.compaction.";

/** The options of a statement that sets table options (CREATE/ALTER TABLE, CREATE/ALTER MATERIALIZED VIEW). */
function tableOptions(statement: Statement): OptionEntry[] {
  switch (statement.kind) {
    case "create-table":
    case "create-materialized-view":
    case "alter-materialized-view":
      return statement.options;
    case "alter-table":
      return statement.action.kind === "with" ? statement.action.options : [];
    default:
      return [];
  }
}

/** The table or view a statement sets options on, as written (`ks.t` or `t`). */
function targetName(statement: Statement): string {
  if (statement.kind !== "create-table" && statement.kind !== "alter-table" && statement.kind !== "create-materialized-view" && statement.kind !== "alter-materialized-view") {
    return "the table";
  }
  const { keyspace, name } = statement.name;
  return keyspace ? `${keyspace.text}.${name.text}` : name.text;
}

/** The class a compaction map names, and the range of its value. */
function compactionClass(entry: OptionEntry): { className: string; range: OptionEntry["range"] } | undefined {
  if (entry.value.kind !== "map") return undefined;
  for (const item of entry.value.entries) {
    if (item.key.kind === "literal" && item.key.value.toLowerCase() === "class" && item.value.kind === "literal") {
      return { className: item.value.value, range: item.value.range };
    }
  }
  return undefined;
}

const tableRemovedOption: RuleModule = {
  meta: {
    id: "table-removed-option",
    category: "table",
    defaultSeverity: "error",
    description: "A table option or compaction strategy that the target Cassandra version removed or does not know, so the statement fails.",
    messages: {
      removedOption:
        "{table} sets `{option}`, removed in Cassandra {since}: Cassandra {version} rejects the statement (\"Unknown property '{option}'\"), so this file cannot be applied as written. Delete the option: {instead}.",
      removedStrategy:
        "{table} uses {strategy}, removed in Cassandra {since}: Cassandra {version} cannot find the class and rejects the statement. Use TimeWindowCompactionStrategy for time series (a window of about 1/20 to 1/30 of the TTL){ucs}.",
      newStrategy:
        "{table} uses {strategy}, which Cassandra ships from {from} on: Cassandra {version} cannot find the class and rejects the statement. Use SizeTieredCompactionStrategy, LeveledCompactionStrategy or TimeWindowCompactionStrategy on {version}.",
      unknownStrategy:
        "{table} names the compaction class `{strategy}`, which Cassandra {version} does not ship: the statement fails unless a jar on every node provides it. Use one of {known}.",
    },
    fixable: false,
  },
  check(context) {
    const { model } = context;
    const version = model.version;
    const entity = numberedEntities();
    for (const { file, statement } of orderedStatements(model)) {
      const table = targetName(statement);
      for (const entry of tableOptions(statement)) {
        const name = entry.name.name.toLowerCase();
        const removed = REMOVED_OPTIONS[name];
        if (removed && atLeast(version, removed.since)) {
          context.report({
            messageId: "removedOption",
            data: { table, option: name, since: removed.since, version, instead: removed.instead },
            file: file.path,
            range: entry.range,
            entity: entity(`table:${table}:removed-option:${name}`),
          });
          continue;
        }
        if (name !== "compaction") continue;
        const named = compactionClass(entry);
        if (!named) continue;
        const qualified = named.className.includes(".");
        // A class outside Cassandra's package is a plugin the operator installs: nothing to judge.
        if (qualified && !named.className.startsWith(CASSANDRA_PACKAGE)) continue;
        const simple = qualified ? named.className.slice(CASSANDRA_PACKAGE.length) : named.className;
        const known = STRATEGIES[simple];
        const location = { file: file.path, range: rangeBetween(file.text, named.range.start.offset, named.range.end.offset) };
        if (!known) {
          const available = Object.entries(STRATEGIES)
            .filter(([, v]) => (!v.from || atLeast(version, v.from)) && (!v.until || !atLeast(version, v.until)))
            .map(([k]) => k);
          context.report({
            messageId: "unknownStrategy",
            data: { table, strategy: named.className, version, known: available.join(", ") },
            ...location,
            entity: entity(`table:${table}:unknown-compaction`),
          });
        } else if (known.until && atLeast(version, known.until)) {
          context.report({
            messageId: "removedStrategy",
            data: { table, strategy: simple, since: known.until, version, ucs: atLeast(version, "5.0") ? ", or UnifiedCompactionStrategy" : "" },
            ...location,
            entity: entity(`table:${table}:removed-compaction`),
          });
        } else if (known.from && !atLeast(version, known.from)) {
          context.report({
            messageId: "newStrategy",
            data: { table, strategy: simple, from: known.from, version },
            ...location,
            entity: entity(`table:${table}:new-compaction`),
          });
        }
      }
    }
  },
};

export default tableRemovedOption;
