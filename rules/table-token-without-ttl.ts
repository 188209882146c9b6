// One-time secrets (password reset, e-mail verification, account activation, invitations) must
// expire: a token nobody redeems stays valid and stored for ever otherwise. Cassandra can expire
// them itself (USING TTL, default_time_to_live). A name alone proves little (an API token is meant
// to last), so the rule wants the access shape of a one-time secret too: a row per key, inserted,
// looked up by that key, and deleted by it once used; with the name and the lookup but no delete,
// it says so at info.
import { joinWords, queriesOnTable, tableEntity, tableLabel, tableLocation, writesOnTable, type WriteStatement } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";

/** Words of names and descriptions that mean a secret used once. */
const ONE_TIME_NAME = /reset|activat|verif|confirm|one_?time|otp|magic_?link|invit|nonce/;
const ONE_TIME_TEXT = /\b(?:reset|activat\w*|verif\w*|confirm\w*|one-time|one time|otp|magic link|invit\w*|nonce)\b/i;

function hasTtl(write: WriteStatement): boolean {
  const ttl = write.statement.using?.ttl ?? write.batch?.using?.ttl;
  return ttl !== undefined && !(ttl.kind === "literal" && Number(ttl.value) === 0);
}

const tableTokenWithoutTtl: RuleModule = {
  meta: {
    id: "table-token-without-ttl",
    category: "table",
    defaultSeverity: "warning",
    description: "A table of one-time secrets (reset, activation, verification tokens) keeps them with no TTL and no default_time_to_live.",
    messages: {
      noTtl:
        "{table} holds one-time secrets ({evidence}), but {inserts} {verb} them with no TTL and the table has no `default_time_to_live`. A token nobody redeems (an abandoned password reset, a sign-up never confirmed) stays stored and valid for ever{afterUse}. Give it a lifetime: `USING TTL …` on the INSERT (an hour for a password reset, a few days for an e-mail confirmation), or `default_time_to_live` on the table.",
    },
    fixable: false,
  },
  check(context) {
    const { model } = context;
    for (const table of model.schema.tables.values()) {
      if (table.kind !== "table" || table.defaultTtlSeconds > 0 || table.partitionKey.length !== 1 || table.clustering.length > 0) continue;
      const key = table.partitionKey[0]!.name;
      const writes = writesOnTable(model, table).filter((w) => w.write);
      const inserts = writes.filter((w) => w.statement.kind === "insert");
      if (inserts.length === 0 || inserts.some(hasTtl)) continue;
      const lookups = queriesOnTable(model, table.qualifiedName).filter((q) =>
        (q.select?.where?.relations ?? []).some((r) => r.kind === "column" && r.column.name === key && r.operator === "="),
      );
      if (lookups.length === 0) continue;
      const deletes = writes.filter((w) => w.statement.kind === "delete" && w.statement.selections.length === 0 && w.statement.where.relations.some((r) => r.kind === "column" && r.column.name === key));
      const named = [table.name, key].find((name) => ONE_TIME_NAME.test(name.toLowerCase()));
      const described = [...writes.map((w) => w.write!.description), ...lookups.map((q) => q.description)].find((d) => d !== undefined && ONE_TIME_TEXT.test(d));
      if (!named && !described) continue;
      const evidence = [
        named ? `\`${named}\`` : `described as "${described!.length > 60 ? `${described!.slice(0, 57)}…` : described}"`,
        `looked up by \`${key}\` (${joinWords([...new Set(lookups.map((q) => q.id))])})`,
        ...(deletes.length > 0 ? [`deleted by it once used (${joinWords([...new Set(deletes.map((d) => d.write!.id))])})`] : []),
      ];
      const insertPaths = [...new Set(inserts.map((w) => w.write!.id))];
      context.report({
        messageId: "noTtl",
        data: {
          table: tableLabel(model, table.qualifiedName),
          evidence: joinWords(evidence),
          inserts: joinWords(insertPaths),
          verb: insertPaths.length === 1 ? "writes" : "write",
          afterUse: deletes.length > 0 ? "" : ", and no write path deletes a token once it is used",
        },
        ...tableLocation(table),
        entity: `${tableEntity(table.qualifiedName)}:token-ttl`,
        // Without the delete that marks a secret used once, the name is the main evidence.
        ...(deletes.length > 0 ? {} : { severityCap: "info" as const }),
      });
    }
  },
};

export default tableTokenWithoutTtl;
