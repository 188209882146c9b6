// The state of one schema build: the model being built, the file and keyspace in effect, and the
// `schema-invalid` findings. Statement handlers (keyspaces.ts, tables.ts, …) share it.
import type { Node, QualifiedName, SourceRange } from "../cql/ast.js";
import type { Finding, SourceLocation } from "../findings.js";
import type { IndexModel, SchemaModel, TableModel, UserTypeModel } from "./model.js";

export const SCHEMA_INVALID = "schema-invalid";
/** The rule id under which a stage reports its own failure (rules/internal-error.ts). */
const INTERNAL_ERROR = "internal-error";

/** Keyspaces every cluster has; statements may name them without any CREATE KEYSPACE. */
export const SYSTEM_KEYSPACES: ReadonlySet<string> = new Set([
  "system",
  "system_schema",
  "system_auth",
  "system_distributed",
  "system_traces",
  "system_views",
  "system_virtual_schema",
  "system_cluster_metadata",
]);

export function qualify(keyspace: string, name: string): string {
  return `${keyspace}.${name}`;
}

/** `ks.name` as Cassandra prints it, or just `name` when the keyspace is not known. */
export function display(keyspace: string, name: string): string {
  return keyspace === "" ? name : `${keyspace}.${name}`;
}

/** The name as written in the statement (`ks.t` or `t`), as Cassandra echoes it in messages. */
export function writtenName(name: QualifiedName): string {
  return name.keyspace ? `${name.keyspace.name}.${name.name.name}` : name.name.name;
}

export class BuildContext {
  readonly findings: Finding[] = [];
  /** the current file and its text (for option values written as terms) */
  file = "";
  text = "";
  /** the keyspace of the last USE in this file, else the default keyspace, else "" */
  currentKeyspace = "";

  private readonly fingerprintCounts = new Map<string, number>();
  private readonly reportedKeyspaces = new Set<string>();
  /** `ks.index` → the table holding it, so index names resolve without scanning every table */
  private readonly indexTables = new Map<string, TableModel>();

  constructor(
    readonly schema: SchemaModel,
    /** keyspaces created anywhere in the files; when there are none, keyspaces live elsewhere and are not checked */
    readonly declaredKeyspaces: ReadonlySet<string>,
  ) {}

  location(range: SourceRange): SourceLocation {
    return { file: this.file, range };
  }

  sourceText(range: SourceRange): string {
    return this.text.slice(range.start.offset, range.end.offset);
  }

  /**
   * Reports a `schema-invalid` finding. `entity` names the thing and the problem
   * (`table:ks.t:column:c:duplicate`); a repeat of the same entity gets `#2`, `#3`… so each
   * fingerprint stays unique without depending on line numbers.
   */
  report(range: SourceRange, message: string, entity: string, data?: Finding["data"]): void {
    const base = `${SCHEMA_INVALID}:${entity}`;
    const count = (this.fingerprintCounts.get(base) ?? 0) + 1;
    this.fingerprintCounts.set(base, count);
    this.findings.push({
      rule: SCHEMA_INVALID,
      severity: "error",
      location: this.location(range),
      message,
      ...(data ? { data } : {}),
      fingerprint: count === 1 ? base : `${base}#${count}`,
    });
  }

  /** An unexpected failure on one statement, reported under `internal-error` so the review goes on. */
  reportInternalError(statement: Node & { kind: string }, error: unknown): void {
    const base = `${INTERNAL_ERROR}:schema:${this.file}:${statement.kind}`;
    const count = (this.fingerprintCounts.get(base) ?? 0) + 1;
    this.fingerprintCounts.set(base, count);
    const reason = error instanceof Error ? error.message : String(error);
    this.findings.push({
      rule: INTERNAL_ERROR,
      severity: "info",
      location: this.location(statement.range),
      message: `The schema model skipped this ${statement.kind} statement after an internal error (${reason}); findings that depend on it may be missing. Please report it with the schema that triggers it.`,
      fingerprint: count === 1 ? base : `${base}#${count}`,
    });
  }

  keyspaceOf(name: QualifiedName): string {
    return name.keyspace?.name ?? this.currentKeyspace;
  }

  /**
   * Reports, once per keyspace, an object created in a keyspace that no file creates. Only when
   * the files create keyspaces at all: many repositories keep keyspaces in deployment scripts.
   */
  checkKeyspaceExists(keyspace: string, range: SourceRange): void {
    if (keyspace === "" || this.declaredKeyspaces.size === 0) return;
    if (this.declaredKeyspaces.has(keyspace) || SYSTEM_KEYSPACES.has(keyspace)) return;
    if (this.reportedKeyspaces.has(keyspace)) return;
    this.reportedKeyspaces.add(keyspace);
    this.report(range, `Keyspace '${keyspace}' doesn't exist`, `keyspace:${keyspace}:missing`, { keyspace });
  }

  /** Whether a keyspace is known: created, or holding objects (its CREATE may live elsewhere). */
  keyspaceKnown(keyspace: string): boolean {
    if (this.schema.keyspaces.has(keyspace)) return true;
    for (const table of this.schema.tables.values()) if (table.keyspace === keyspace) return true;
    for (const type of this.schema.types.values()) if (type.keyspace === keyspace) return true;
    return this.schema.functions.some((f) => f.keyspace === keyspace);
  }

  lookupTable(name: QualifiedName): TableModel | undefined {
    return this.lookup(this.schema.tables, name);
  }

  lookupType(name: QualifiedName, keyspace = this.keyspaceOf(name)): UserTypeModel | undefined {
    return lookupByName(this.schema.types, keyspace, name.name.name, name.keyspace !== undefined);
  }

  /** Index names are unique per keyspace. */
  lookupIndex(keyspace: string, name: string): { table: TableModel; index: IndexModel } | undefined {
    // The registry is a hint: an entry whose table or index has since been dropped is ignored,
    // so DROP paths need not keep it in step.
    const table = this.indexTables.get(qualify(keyspace, name));
    if (!table || this.schema.tables.get(table.qualifiedName) !== table) return undefined;
    const index = table.indexes.find((i) => i.name === name);
    return index ? { table, index } : undefined;
  }

  addIndex(table: TableModel, index: IndexModel): void {
    table.indexes.push(index);
    this.indexTables.set(qualify(index.keyspace, index.name), table);
  }

  private lookup<T extends { keyspace: string; name: string }>(map: Map<string, T>, name: QualifiedName): T | undefined {
    return lookupByName(map, this.keyspaceOf(name), name.name.name, name.keyspace !== undefined);
  }
}

/**
 * Finds `keyspace.name`. An unqualified name also finds an object declared where no keyspace was
 * known (keyspace ""), and, when the statement itself has no keyspace, the only object of that
 * name: the same fallbacks both ways, so files without USE still resolve consistently.
 */
export function lookupByName<T extends { keyspace: string; name: string }>(
  map: Map<string, T>,
  keyspace: string,
  name: string,
  qualified: boolean,
): T | undefined {
  const exact = map.get(qualify(keyspace, name));
  if (exact || qualified) return exact;
  const withoutKeyspace = map.get(qualify("", name));
  if (withoutKeyspace) return withoutKeyspace;
  if (keyspace !== "") return undefined;
  let only: T | undefined;
  for (const candidate of map.values()) {
    if (candidate.name !== name) continue;
    if (only) return undefined;
    only = candidate;
  }
  return only;
}
