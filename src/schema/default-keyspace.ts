// The keyspace of unqualified table names when the manifest does not say: the one keyspace the
// schema files create, else the one the application connects to (its configuration), else the
// one every USE names. Migration tools run unqualified changelog scripts in the session's keyspace
// (JHipster's changelog, cassandra-migration's scripts), so a schema that creates one keyspace and
// then names tables bare means that keyspace, and an application that sets a session keyspace
// means the keyspace it sets.
import type { Statement } from "../cql/ast.js";
import type { SourceFile } from "../source-file.js";
import { SYSTEM_KEYSPACES } from "./build-context.js";

/** Where the default keyspace came from, for messages and the drafted manifest. */
export interface DefaultKeyspace {
  keyspace: string;
  /** "the schema's only CREATE KEYSPACE", "src/main/resources/config/application.yml" … */
  from: string;
}

/**
 * Spring Boot's `application*.yml|yaml|properties` (any profile), and the DataStax Java driver's
 * `application.conf` (Typesafe config), wherever they lie.
 */
export function isApplicationConfigFile(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return /^application(-[\w.-]+)?\.(ya?ml|properties)$/.test(name) || name === "application.conf";
}

/**
 * The settings that name the session's keyspace, as paths with `-` and `_` removed and lower case
 * (Spring's relaxed binding reads `keyspace-name`, `keyspace_name` and `keyspaceName` alike).
 * Spring Boot: `spring.cassandra.keyspace-name` (2.x: `spring.data.cassandra.keyspace-name`);
 * the Java driver 4: `datastax-java-driver.basic.session-keyspace`; Quarkus:
 * `quarkus.cassandra.keyspace`.
 */
const KEYSPACE_SETTINGS = ["spring.cassandra.keyspacename", "spring.data.cassandra.keyspacename", "quarkus.cassandra.keyspace", "basic.sessionkeyspace"];

function settingNames(path: readonly string[]): string {
  return path
    .join(".")
    .toLowerCase()
    .replace(/[-_]/g, "");
}

function isKeyspaceSetting(path: readonly string[]): boolean {
  const name = settingNames(path);
  return KEYSPACE_SETTINGS.some((setting) => name === setting || (setting.startsWith("basic.") && name.endsWith(`.${setting}`)));
}

/**
 * A setting's value as the driver reads it: `${VAR:default}` gives its default; the text is then
 * a CQL identifier (`CqlIdentifier.fromCql`): unquoted it folds to lower case, `"Quoted"` keeps its case.
 */
function keyspaceValue(raw: string): string | undefined {
  // Every pattern here is linear in the line: the files are the repository's, untrusted.
  const comment = raw.search(/\s#/);
  let value = (comment >= 0 ? raw.slice(0, comment) : raw).trim();
  const quoted = /^(['"])(.*)\1$/.exec(value);
  if (quoted) value = quoted[2]!;
  const placeholder = /^\$\{[^:}]*:([^}]*)\}$/.exec(value);
  if (placeholder) value = placeholder[1]!.trim();
  if (/^[A-Za-z][A-Za-z0-9_]*$/.test(value)) return value.toLowerCase();
  const cqlQuoted = /^"([^"]+)"$/.exec(value);
  return cqlQuoted ? cqlQuoted[1] : undefined;
}

/** Block-style YAML, key by key (no full YAML reader: only scalars under nested keys are needed, in one pass). */
function fromYaml(text: string): string[] {
  const found: string[] = [];
  const stack: { indent: number; key: string }[] = [];
  for (const line of text.split(/\r?\n/)) {
    if (/^(---|\.\.\.)\s*$/.test(line)) {
      stack.length = 0;
      continue;
    }
    const rest = line.trimStart();
    const indent = line.length - rest.length;
    const colon = rest.search(/:(\s|$)/);
    if (colon <= 0 || /^[#\-{[&*!|>%@`]/.test(rest)) continue;
    const key = rest.slice(0, colon).trim().replace(/^(['"])(.*)\1$/, "$2");
    if (key.includes("#")) continue;
    while (stack.length > 0 && stack.at(-1)!.indent >= indent) stack.pop();
    const value = rest.slice(colon + 1).trim();
    if (value === "" || value.startsWith("#")) {
      stack.push({ indent, key });
      continue;
    }
    if (isKeyspaceSetting([...stack.map((entry) => entry.key), key])) {
      const keyspace = keyspaceValue(value);
      if (keyspace !== undefined) found.push(keyspace);
    }
  }
  return found;
}

/** `key=value` or `key: value` per line (Java properties). */
function fromProperties(text: string): string[] {
  const found: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    const text = line.trimStart();
    const separator = text.search(/[=:]/);
    if (separator <= 0 || text.startsWith("#") || text.startsWith("!")) continue;
    const key = text.slice(0, separator).trim();
    if (!isKeyspaceSetting([key])) continue;
    const keyspace = keyspaceValue(text.slice(separator + 1));
    if (keyspace !== undefined) found.push(keyspace);
  }
  return found;
}

/** Typesafe config (HOCON): `a { b.c = v }` blocks and dotted keys, `=` or `:`. */
function fromHocon(text: string): string[] {
  const found: string[] = [];
  const stack: string[] = [];
  for (const rawLine of text.split(/\r?\n/)) {
    const comment = rawLine.search(/#|\/\//);
    const line = (comment >= 0 ? rawLine.slice(0, comment) : rawLine).trim();
    if (line === "") continue;
    if (line.startsWith("}")) {
      stack.pop();
      continue;
    }
    if (line.endsWith("{")) {
      const key = line.slice(0, -1).trim().replace(/[:=]$/, "").trim().replace(/^"(.*)"$/, "$1");
      if (/^[\w.-]+$/.test(key)) stack.push(key);
      continue;
    }
    const separator = line.search(/[=:]/);
    if (separator <= 0) continue;
    const key = line.slice(0, separator).trim();
    if (/^[\w.-]+$/.test(key) && isKeyspaceSetting([...stack, key])) {
      const keyspace = keyspaceValue(line.slice(separator + 1).trim().replace(/,$/, ""));
      if (keyspace !== undefined) found.push(keyspace);
    }
  }
  return found;
}

/** The keyspaces an application configuration file names for its session. */
export function keyspacesInApplicationConfig(file: SourceFile): string[] {
  if (file.path.endsWith(".conf")) return fromHocon(file.content);
  if (file.path.endsWith(".properties")) return fromProperties(file.content);
  return fromYaml(file.content);
}

/**
 * The default keyspace of the applied schema files and the application's configuration files;
 * undefined when they do not agree on one.
 */
export function defaultKeyspaceOf(
  schemaFiles: readonly { parse: { statements: readonly Statement[] } }[],
  applicationConfigs: readonly SourceFile[],
): DefaultKeyspace | undefined {
  const created = new Set<string>();
  const used = new Set<string>();
  for (const file of schemaFiles) {
    for (const statement of file.parse.statements) {
      if (statement.kind === "create-keyspace" && !SYSTEM_KEYSPACES.has(statement.name.name)) created.add(statement.name.name);
      if (statement.kind === "use" && !SYSTEM_KEYSPACES.has(statement.keyspace.name)) used.add(statement.keyspace.name);
    }
  }
  if (created.size === 1) return { keyspace: [...created][0]!, from: "the only keyspace the schema files create" };
  const configured = new Map<string, string>();
  for (const file of applicationConfigs) {
    for (const keyspace of keyspacesInApplicationConfig(file)) if (!configured.has(keyspace)) configured.set(keyspace, file.path);
  }
  // Profiles that connect to different keyspaces, or one the schema does not create: no guess.
  const candidates = [...configured].filter(([keyspace]) => created.size === 0 || created.has(keyspace));
  if (configured.size === 1 && candidates.length === 1) return { keyspace: candidates[0]![0], from: candidates[0]![1] };
  if (configured.size === 0 && created.size === 0 && used.size === 1) return { keyspace: [...used][0]!, from: "the keyspace every USE names" };
  return undefined;
}
