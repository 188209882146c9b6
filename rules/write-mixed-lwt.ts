// Conditional writes take their timestamps from Paxos ballots; plain writes from the coordinator or
// the client. Mixed on the same rows, a plain write can silently win over, or lose to, a
// conditional one it followed, and the next condition judges a state nobody wrote last.
import { isLightweightTransaction, joinWords, rowKeyColumns, tableLabel, writeEntity, writeStatements, writtenColumns, type WriteStatement } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";

/** Which rows of its partitions a write touches: only the static row, only clustering rows, or either. */
function rowsTouched(write: WriteStatement): "static" | "clustering" | "any" {
  const table = write.table!;
  if (table.clustering.length === 0) return "any";
  const kinds = new Set(writtenColumns(write.statement).map((name) => table.columns.find((c) => c.name === name)?.kind));
  kinds.delete("partition");
  kinds.delete("clustering");
  const namesRow = table.clustering.every((c) => rowKeyColumns(write.statement, table).includes(c.name));
  // A partition delete (no clustering key) removes the static row too.
  if (write.statement.kind === "delete" && write.statement.selections.length === 0) return namesRow ? "clustering" : "any";
  if (kinds.size === 1 && kinds.has("static")) return "static";
  return kinds.has("static") || !namesRow ? "any" : "clustering";
}

/** A conditional write on the static row (creating a group, say) and plain writes of its clustering rows touch no common row. */
function sameRows(conditional: WriteStatement, plain: WriteStatement): boolean {
  const [a, b] = [rowsTouched(conditional), rowsTouched(plain)];
  return a === "any" || b === "any" || a === b;
}

/**
 * Whether a write goes through Paxos: a conditional statement, or any statement of a batch with a
 * condition (a conditional batch is one Paxos transaction, every statement applied with its ballot).
 */
function throughPaxos(write: WriteStatement): boolean {
  if (isLightweightTransaction(write.statement)) return true;
  return write.batch?.statements.some(isLightweightTransaction) ?? false;
}

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
      const conditional = onTable.filter(throughPaxos);
      if (conditional.length === 0) continue;
      // A statement the code runs only inside a batch is judged as part of that batch, not alone.
      for (const plain of onTable.filter((w) => !throughPaxos(w) && !w.write!.insideBatch)) {
        const sharing = conditional.filter((c) => sameRows(c, plain));
        if (sharing.length === 0) continue;
        const lwtWrites = [...new Set(sharing.map((w) => (w.write!.id === plain.write!.id ? `${w.write!.id} itself` : w.write!.id)))];
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
