// Replication decides what survives a failure. SimpleStrategy ignores racks and data centers; fewer
// than three replicas cannot lose a node and still answer QUORUM.
import * as z from "zod";
import type { CreateKeyspaceStatement, AlterKeyspaceStatement, MapLiteral, OptionEntry } from "../src/cql/ast.js";
import { rangeBetween } from "../src/rule-engine/helpers.js";
import type { AnalysedModel, ParsedSchemaFile } from "../src/rule-engine/model.js";
import type { RuleFix, RuleModule } from "../src/rule-engine/types.js";
import type { KeyspaceModel } from "../src/schema/model.js";

const optionsSchema = z
  .object({
    /** replicas each data center should keep */
    minReplicationFactor: z.number().int().positive().default(3),
  })
  .strict();
type Options = z.infer<typeof optionsSchema>;

interface ReplicationSetting {
  file: ParsedSchemaFile;
  statement: CreateKeyspaceStatement | AlterKeyspaceStatement;
  entry: OptionEntry;
}

/** The CREATE or ALTER KEYSPACE whose `replication` the keyspace has now: the last one applied. */
function replicationSetting(model: AnalysedModel, keyspace: KeyspaceModel): ReplicationSetting | undefined {
  let found: ReplicationSetting | undefined;
  for (const file of model.schemaFiles) {
    for (const statement of file.parse.statements) {
      if (statement.kind !== "create-keyspace" && statement.kind !== "alter-keyspace") continue;
      if (statement.name.name !== keyspace.name) continue;
      const entry = statement.options.find((o) => o.name.name === "replication");
      if (entry) found = { file, statement, entry };
    }
  }
  return found;
}

/** `{'class': 'NetworkTopologyStrategy', 'datacenter1': <the same factor>}` in place of the SimpleStrategy map. */
function networkTopologyFix(setting: ReplicationSetting, keyspace: KeyspaceModel): RuleFix | undefined {
  const map = setting.entry.value;
  if (map.kind !== "map") return undefined;
  const factorEntry = (map as MapLiteral).entries.find((e) => e.key.kind === "literal" && e.key.value.toLowerCase() === "replication_factor");
  const text = setting.file.text;
  const factor = factorEntry ? text.slice(factorEntry.value.range.start.offset, factorEntry.value.range.end.offset) : String(keyspace.replicationFactors.replication_factor ?? 3);
  return {
    // The factor as written may be quoted ('1'); the sentence gives the number.
    description: `Use NetworkTopologyStrategy for ${keyspace.name}, keeping its replication factor of ${factor.replace(/^'(.*)'$/, "$1")} in one data center named 'datacenter1' (the default name; write yours, as \`nodetool status\` shows it). Run \`nodetool repair\` on the keyspace after altering a live keyspace's replication.`,
    file: setting.file.path,
    range: rangeBetween(text, map.range.start.offset, map.range.end.offset),
    replacement: `{'class': 'NetworkTopologyStrategy', 'datacenter1': ${factor}}`,
  };
}

const keyspaceReplication: RuleModule<Options> = {
  meta: {
    id: "keyspace-replication",
    category: "table",
    defaultSeverity: "warning",
    description: "The keyspace uses SimpleStrategy, or keeps fewer replicas than the configured minimum in a data center.",
    messages: {
      simpleStrategy:
        "Keyspace {keyspace} uses SimpleStrategy: it puts replicas on the next nodes of the ring whatever their rack or data center, so one rack failure can take every replica of a range, and a second data center cannot be added without changing the strategy. Use NetworkTopologyStrategy, even with one data center.",
      lowFactor:
        "Keyspace {keyspace} keeps {factor} {replicas} in {where}, fewer than {min}: {consequence} Keep at least {min} replicas per data center.",
    },
    options: optionsSchema,
    fixable: true,
  },
  check(context) {
    const { model, options } = context;
    for (const keyspace of model.schema.keyspaces.values()) {
      const setting = replicationSetting(model, keyspace);
      const location = setting ? { file: setting.file.path, range: setting.entry.range } : keyspace.source;
      if (keyspace.replicationClass === "SimpleStrategy") {
        const fix = setting ? networkTopologyFix(setting, keyspace) : undefined;
        context.report({
          messageId: "simpleStrategy",
          data: { keyspace: keyspace.name },
          ...location,
          entity: `keyspace:${keyspace.name}:simple-strategy`,
          ...(fix ? { fix } : {}),
        });
      }
      const low = Object.entries(keyspace.replicationFactors).filter(([, factor]) => factor < options.minReplicationFactor);
      for (const [dc, factor] of low) {
        const where = dc === "replication_factor" ? "the cluster" : `data center ${dc}`;
        context.report({
          messageId: "lowFactor",
          data: {
            keyspace: keyspace.name,
            factor,
            replicas: factor === 1 ? "replica" : "replicas",
            where,
            min: options.minReplicationFactor,
            consequence:
              factor <= 1
                ? "losing one node loses the only copy of its data, and every read and write of its ranges fails while it is down."
                : factor === 2
                  ? "QUORUM needs both replicas, so one node down fails QUORUM reads and writes of its ranges, and ONE gives no consistency between them."
                  : "QUORUM then tolerates fewer nodes down than the minimum this repository asks for.",
          },
          ...location,
          entity: `keyspace:${keyspace.name}:replication-factor:${dc}`,
        });
      }
    }
  },
};

export default keyspaceReplication;
