// The driver entry points that take a CQL statement, per host language, and which argument holds
// it. A call is only looked at in a file that imports a Cassandra driver (mentionsCassandraDriver),
// and its text must still parse as CQL, so common names such as `execute` are safe enough.
import type { Node } from "web-tree-sitter";
import type { CallParts } from "./syntax.js";
import type { CodeLanguage } from "./types.js";

/**
 * Package names of the drivers and frameworks: DataStax Java driver 3 and 4
 * (`com.datastax.driver`, `com.datastax.oss.driver`), ScyllaDB's forks, Spring Data Cassandra,
 * gocql and gocqlx (and wrappers named after them), the Python `cassandra-driver` (`cassandra.`)
 * and the Node `cassandra-driver`.
 */
const DRIVER_IMPORTS = ["datastax", "cassandra", "gocql", "scylla", "dse-driver"];
/** DataStax Enterprise's Python driver is the `dse` package (`from dse.cluster import …`). */
const PYTHON_DSE = ["from dse.", "from dse ", "import dse"];

export function mentionsCassandraDriver(importText: string): boolean {
  const lower = importText.toLowerCase();
  return DRIVER_IMPORTS.some((name) => lower.includes(name)) || PYTHON_DSE.some((form) => lower.includes(form));
}

/**
 * Clients of other databases. A file that imports one of them as well as a Cassandra driver runs
 * SQL through the same method names (`execute`), so there only calls on a receiver named like a
 * Cassandra session count.
 */
const OTHER_DATABASE_IMPORTS = ["sqlite", "java.sql", "javax.sql", "jdbc", "psycopg", "pymysql", "mysql", "database/sql", "sqlalchemy", "postgres", "'pg'", '"pg"', "mssql", "oracle", "jooq", "persistence", "mongo", "sqlx", "gorm"];
const CASSANDRA_RECEIVERS = ["session", "cql", "cassandra", "scylla", "batch"];
/** Calls that name the driver's own statement type, whatever they are called on. */
const STATEMENT_FACTORIES = new Set(["newInstance", "builder", "new SimpleStatement", "SimpleStatement"]);

export function mentionsOtherDatabase(importText: string): boolean {
  const lower = importText.toLowerCase();
  return OTHER_DATABASE_IMPORTS.some((name) => lower.includes(name));
}

/** Whether a call could be a Cassandra driver's in a file that also talks to another database. */
export function looksLikeCassandraCall(call: CallParts, language: CodeLanguage): boolean {
  if (STATEMENT_FACTORIES.has(call.name)) return true;
  const receiver = (call.receiver.split(".").pop() ?? "").toLowerCase();
  // The Node driver's class is Client, and its instances are called so.
  const names = language === "javascript" || language === "typescript" || language === "tsx" ? [...CASSANDRA_RECEIVERS, "client"] : CASSANDRA_RECEIVERS;
  return names.some((name) => receiver.includes(name));
}

/** Methods whose first argument is the statement. */
const FIRST_ARGUMENT: Record<CodeLanguage, string[]> = {
  // driver 3 and 4 sessions, SimpleStatement factories, Spring's CqlTemplate/CassandraTemplate
  java: ["execute", "executeAsync", "executeReactive", "prepare", "prepareAsync", "newInstance", "builder", "new SimpleStatement", "queryForResultSet", "queryForList", "queryForObject", "queryForMap", "select", "selectOne", "stream"],
  // the same APIs called from Kotlin, where a constructor call has no `new`
  kotlin: ["execute", "executeAsync", "executeReactive", "prepare", "prepareAsync", "newInstance", "builder", "SimpleStatement", "queryForResultSet", "queryForList", "queryForObject", "queryForMap", "select", "selectOne", "stream"],
  // gocql Session.Query and Batch.Query; gocqlx Session.Query
  go: ["Query"],
  // cassandra-driver Session.execute/execute_async/prepare, SimpleStatement, BatchStatement.add
  python: ["execute", "execute_async", "prepare", "SimpleStatement", "add"],
  // cassandra-driver (and dse-driver) Client.execute/eachRow/stream, and their promisified `…Async` forms
  javascript: ["execute", "eachRow", "stream", "batch", "executeAsync", "eachRowAsync", "batchAsync"],
  typescript: ["execute", "eachRow", "stream", "batch", "executeAsync", "eachRowAsync", "batchAsync"],
  tsx: ["execute", "eachRow", "stream", "batch", "executeAsync", "eachRowAsync", "batchAsync"],
};

/** The receivers that make an otherwise common factory name a driver's: `SimpleStatement.newInstance`. */
const NEEDS_RECEIVER: Record<string, string> = { newInstance: "SimpleStatement", builder: "SimpleStatement" };

/** Which argument holds the statement: the named one where the API has a keyword for it. */
const KEYWORDS: Partial<Record<CodeLanguage, string[]>> = { python: ["query", "query_string", "statement"] };

export interface DriverApi {
  /** how the API is shown in messages, e.g. `session.execute` */
  name: string;
  arguments: Node[];
}

/** Whether a name is one of the driver's own entry points (a helper of that name is not told apart from the driver). */
export function isDriverEntryName(language: CodeLanguage, name: string): boolean {
  return FIRST_ARGUMENT[language].includes(name);
}

export function driverApi(language: CodeLanguage, call: CallParts): DriverApi | undefined {
  if (!FIRST_ARGUMENT[language].includes(call.name)) return undefined;
  const receiverNeeded = NEEDS_RECEIVER[call.name];
  if (receiverNeeded && call.receiver.split(".").pop() !== receiverNeeded) return undefined;
  const keyword = (KEYWORDS[language] ?? []).map((k) => call.named.get(k)).find((n) => n !== undefined);
  const statement = call.args[0] ?? keyword;
  if (!statement) return undefined;
  const receiver = call.receiver.split(".").pop();
  const name = receiver ? `${receiver}.${call.name}` : call.name;
  // A batch of the Node driver takes a list of statements, each a string or `{ query }`: extract.ts expands it.
  return { name, arguments: [statement] };
}
