// Conditional writes take their timestamps from Paxos ballots; plain writes from the coordinator or
// the client. Mixed on the same rows, a plain write can silently win over, or lose to, a
// conditional one it followed, and the next condition judges a state nobody wrote last.
import { isLightweightTransaction, joinWords, tableLabel, writeEntity, writeStatements } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";

const writeMixedLwt: RuleModule = {
  meta: {
    id: "write-mixed-lwt",
    category: "write",
    defaultSeverity: "warning",
    description: "A table is written both with and without lightweight transactions.",
    messages: {
      mixed:
        "{write} writes {table} without a condition, while {lwtWrites} {verb} it with one (IF …). Lightweight transactions take their timestamps from Paxos, plain writes from the coordinator or client, so on the same rows a plain write can be ordered before a conditional write it followed (and lost), or override it, and the next condition checks a state nobody wrote last. Once rows of a table are written with conditions, write them only with conditions ({suggestion}).",
    },
    fixable: false,
  },
  check(context) {
    const { model } = context;
    const writes = writeStatements(model).filter((w) => w.write && w.table);
    const byTable = new Map<string, typeof writes>();
    for (const w of writes) byTable.set(w.table!.qualifiedName, [...(byTable.get(w.table!.qualifiedName) ?? []), w]);
    for (const [name, onTable] of byTable) {
      const conditional = onTable.filter((w) => isLightweightTransaction(w.statement));
      if (conditional.length === 0) continue;
      const lwtWrites = [...new Set(conditional.map((w) => w.write!.id))];
      for (const plain of onTable.filter((w) => !isLightweightTransaction(w.statement))) {
        const suggestion =
          plain.statement.kind === "insert" ? "IF NOT EXISTS" : plain.statement.kind === "delete" ? "DELETE … IF EXISTS" : "UPDATE … IF EXISTS, or IF on the expected value";
        context.report({
          messageId: "mixed",
          data: {
            write: plain.write!.id,
            table: tableLabel(model, name),
            lwtWrites: joinWords(lwtWrites),
            verb: lwtWrites.length === 1 ? "writes" : "write",
            suggestion,
          },
          file: plain.file,
          range: plain.statement.range,
          entity: `${writeEntity(plain.write!.id)}:mixed-lwt:${name}`,
        });
      }
    }
  },
};

export default writeMixedLwt;
