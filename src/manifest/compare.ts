// Which queries and writes a change altered: manifest entries compared by id and by what they run,
// never by where they are written, so moving an entry or re-wrapping its CQL is not a change.
import type { Manifest, ManifestQuery, ManifestWrite } from "./types.js";
import { entryKeyspace } from "./types.js";

/** Characters that would run into each other without the space between them. */
const WORDLIKE = /^[\w'"$]$/;

/**
 * CQL text in one canonical form: outside quotes, whitespace runs are one space (none next to
 * punctuation) and letters are lower case (keywords and unquoted names are case-insensitive);
 * quoted names and string literals are kept as written. A final `;` is dropped.
 */
export function normaliseCql(text: string): string {
  let out = "";
  let quote: string | undefined;
  let space = false;
  for (const char of text) {
    if (quote) {
      out += char;
      // A doubled quote inside reads as closing and opening again: the text is kept either way.
      if (char === quote) quote = undefined;
      continue;
    }
    if (/\s/.test(char)) {
      space = out.length > 0;
      continue;
    }
    if (space && WORDLIKE.test(char) && WORDLIKE.test(out.at(-1) ?? "")) out += " ";
    space = false;
    if (char === "'" || char === '"') quote = char;
    out += char === "'" || char === '"' ? char : char.toLowerCase();
  }
  return out.endsWith(";") ? out.slice(0, -1) : out;
}

function querySignature(query: ManifestQuery, manifest: Manifest): string {
  const keyspace = entryKeyspace(query, manifest) ?? "";
  if (query.form === "cql") return JSON.stringify(["cql", keyspace, normaliseCql(query.cql)]);
  return JSON.stringify([
    "abstract",
    keyspace,
    query.select,
    query.where.map((term) => [term.column, term.operator]),
    query.orderBy.map((term) => [term.column, term.direction]),
    query.limit ?? null,
  ]);
}

function writeSignature(write: ManifestWrite, manifest: Manifest): string {
  return JSON.stringify(["write", entryKeyspace(write, manifest) ?? "", write.statements.map((statement) => normaliseCql(statement.cql))]);
}

/** Every entry's signature by id; an id written twice keeps both, in order. */
function signatures(manifest: Manifest | undefined): Map<string, string> {
  const byId = new Map<string, string>();
  const add = (id: string, signature: string) => byId.set(id, byId.has(id) ? `${byId.get(id)}\n${signature}` : signature);
  if (!manifest) return byId;
  for (const query of manifest.queries) add(query.id, querySignature(query, manifest));
  for (const write of manifest.writes) add(write.id, writeSignature(write, manifest));
  return byId;
}

/** The ids of the queries and writes of `head` that `base` lacks or that run different CQL (or, abstract, a different read). */
export function changedEntries(base: Manifest | undefined, head: Manifest | undefined): Set<string> {
  const before = signatures(base);
  const changed = new Set<string>();
  for (const [id, signature] of signatures(head)) if (before.get(id) !== signature) changed.add(id);
  return changed;
}
