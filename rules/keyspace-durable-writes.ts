// durable_writes = false skips the commit log for every table of the keyspace: a write is only in
// memtables until they are flushed, so a node that stops loses it for good on that node.
import type { AlterKeyspaceStatement, CreateKeyspaceStatement, OptionEntry } from "../src/cql/ast.js";
import { orderedStatements } from "../src/rule-engine/helpers.js";
import type { AnalysedModel, ParsedSchemaFile } from "../src/rule-engine/model.js";
import type { RuleModule } from "../src/rule-engine/types.js";
import type { KeyspaceModel } from "../src/schema/model.js";

/** The option entry that set the keyspace's durable_writes last, in the order the schema is applied. */
function durableWritesSetting(model: AnalysedModel, keyspace: KeyspaceModel): { file: ParsedSchemaFile; statement: CreateKeyspaceStatement | AlterKeyspaceStatement; entry: OptionEntry } | undefined {
  let found: { file: ParsedSchemaFile; statement: CreateKeyspaceStatement | AlterKeyspaceStatement; entry: OptionEntry } | undefined;
  for (const { file, statement } of orderedStatements(model)) {
    if (statement.kind !== "create-keyspace" && statement.kind !== "alter-keyspace") continue;
    if (statement.name.name !== keyspace.name) continue;
    const entry = statement.options.find((o) => o.name.name.toLowerCase() === "durable_writes");
    if (entry) found = { file, statement, entry };
  }
  return found;
}

const keyspaceDurableWrites: RuleModule = {
  meta: {
    id: "keyspace-durable-writes",
    category: "table",
    defaultSeverity: "warning",
    description: "The keyspace sets durable_writes = false, so its writes skip the commit log and a node crash loses them.",
    messages: {
      disabled:
        "Keyspace {keyspace} sets durable_writes = false: its writes skip the commit log and live only in memtables until a flush, so a node that crashes or is killed loses every write not yet flushed, with nothing to replay at restart.{replicas} Remove the option (durable_writes defaults to true) unless the data can be rebuilt from elsewhere.",
    },
    fixable: false,
  },
  check(context) {
    const { model } = context;
    for (const keyspace of model.schema.keyspaces.values()) {
      if (keyspace.durableWrites) continue;
      const setting = durableWritesSetting(model, keyspace);
      const location = setting ? { file: setting.file.path, range: setting.entry.range } : keyspace.source;
      const factors = Object.values(keyspace.replicationFactors);
      const single = factors.length > 0 && factors.every((f) => f <= 1);
      context.report({
        messageId: "disabled",
        data: {
          keyspace: keyspace.name,
          replicas: single
            ? " With one replica that loss is permanent: no other node holds the write."
            : " Other replicas still hold the write, but hints and repair must bring it back, and a crash of every replica of a range at once (a power cut) loses it everywhere.",
        },
        ...location,
        entity: `keyspace:${keyspace.name}:durable-writes`,
      });
    }
  },
};

export default keyspaceDurableWrites;
