// A deterministic generator of a whole repository to review: schema files and access-patterns
// manifests for any number of tables, shaped like a real Cassandra application. One keyspace,
// split into services (a folder and a manifest per 100 tables, as teams split a monorepo) and,
// inside a service, into domains of five denormalised tables for one entity: a lookup by id, a
// time series by owner, a day-bucketed event log with a TTL, a status table with an SAI index,
// and a counter table. (Merged manifests share the first one's keyspace, so one keyspace it is.)
// Each table gets about five queries, mixing `cql` and abstract forms, and volume figures; a
// seeded share of them is deliberately bad (ALLOW FILTERING, unbounded growth, unserved
// patterns, wide IN lists), so the rules have real work to do.
import type { SourceFile } from "../src/review.js";

export const TABLES_PER_DOMAIN = 5;
export const DOMAINS_PER_SERVICE = 20;

export interface GeneratedModel {
  files: SourceFile[];
  tables: number;
  queries: number;
  writes: number;
  /** UTF-16 code units of all files, which is bytes for this ASCII text */
  bytes: number;
}

/** mulberry32: a small seeded PRNG, so every run generates the same repository. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ENTITIES = ["order", "video", "device", "payment", "session", "message", "ticket", "shipment", "invoice", "playlist", "review", "booking"];
const OWNERS = ["customer", "user", "account", "site", "merchant", "tenant"];

interface Domain {
  keyspace: string;
  /** the entity, unique in the repository: `order12` */
  entity: string;
  /** the entity that owns it, unique too: `customer12` */
  owner: string;
  tables: { lookup: string; byOwner: string; eventsByDay: string; byStatus: string; counts: string };
}

function domainOf(index: number, keyspace: string): Domain {
  const entity = `${ENTITIES[index % ENTITIES.length]}${index}`;
  const owner = `${OWNERS[index % OWNERS.length]}${index}`;
  return {
    keyspace,
    entity,
    owner,
    tables: {
      lookup: `${entity}s`,
      byOwner: `${entity}s_by_${owner}`,
      eventsByDay: `${entity}_events_by_day`,
      byStatus: `${entity}s_by_status`,
      counts: `${entity}_counts_by_${owner}`,
    },
  };
}

function schemaFile(domain: Domain, random: () => number): string {
  const { entity: e, owner: o, tables: t } = domain;
  const ttlDays = [7, 30, 90][Math.floor(random() * 3)]!;
  const compaction = random() < 0.5 ? "LeveledCompactionStrategy" : "SizeTieredCompactionStrategy";
  return [
    `-- ${e}: the ${e.replace(/\d+$/, "")} records of one ${o.replace(/\d+$/, "")}, denormalised per query.`,
    `USE ${domain.keyspace};`,
    "",
    `-- Lookup by id (profile and detail pages).`,
    `CREATE TABLE IF NOT EXISTS ${t.lookup} (`,
    `  ${e}_id uuid PRIMARY KEY,`,
    `  ${o}_id uuid,`,
    `  name text,`,
    `  status text,`,
    `  region text,`,
    `  amount decimal,`,
    `  tags set<text>,`,
    `  shipping frozen<address>,`,
    `  created_at timestamp`,
    `) WITH compaction = {'class': '${compaction}'};`,
    "",
    `-- The ${e} of an ${o}, newest first.`,
    `CREATE TABLE IF NOT EXISTS ${t.byOwner} (`,
    `  ${o}_id uuid,`,
    `  created_at timestamp,`,
    `  ${e}_id uuid,`,
    `  name text,`,
    `  status text,`,
    `  amount decimal,`,
    `  PRIMARY KEY ((${o}_id), created_at, ${e}_id)`,
    `) WITH CLUSTERING ORDER BY (created_at DESC, ${e}_id ASC);`,
    "",
    `-- Events of one ${e} per day; rows expire after ${ttlDays} days.`,
    `CREATE TABLE IF NOT EXISTS ${t.eventsByDay} (`,
    `  ${e}_id uuid,`,
    `  day date,`,
    `  event_time timeuuid,`,
    `  kind text,`,
    `  payload text,`,
    `  PRIMARY KEY ((${e}_id, day), event_time)`,
    `) WITH CLUSTERING ORDER BY (event_time DESC)`,
    `  AND default_time_to_live = ${ttlDays * 86_400}`,
    `  AND compaction = {'class': 'TimeWindowCompactionStrategy', 'compaction_window_unit': 'DAYS', 'compaction_window_size': 1};`,
    "",
    `-- Back-office lists by region and status, and a name search through SAI.`,
    `CREATE TABLE IF NOT EXISTS ${t.byStatus} (`,
    `  region text,`,
    `  status text,`,
    `  created_at timestamp,`,
    `  ${e}_id uuid,`,
    `  name text,`,
    `  PRIMARY KEY ((region, status), created_at, ${e}_id)`,
    `) WITH CLUSTERING ORDER BY (created_at DESC, ${e}_id ASC);`,
    "",
    `CREATE INDEX IF NOT EXISTS ${t.byStatus}_name_idx ON ${t.byStatus} (name) USING 'sai';`,
    "",
    `-- Daily counters per ${o}.`,
    `CREATE TABLE IF NOT EXISTS ${t.counts} (`,
    `  ${o}_id uuid,`,
    `  day date,`,
    `  ${e}_total counter,`,
    `  PRIMARY KEY ((${o}_id), day)`,
    `) WITH CLUSTERING ORDER BY (day DESC);`,
    "",
  ].join("\n");
}

/** YAML for one query: `cql` text, or the abstract form as flow collections. */
type QuerySpec = { description: string; rate: string } & (
  | { cql: string }
  | { select: string[]; where: Record<string, string>; orderBy?: Record<string, "asc" | "desc">; limit?: number }
);

function queriesOf(domain: Domain, random: () => number): QuerySpec[] {
  const { keyspace: ks, entity: e, owner: o, tables: t } = domain;
  const rate = () => `${1 + Math.floor(random() * 500)}/s`;
  const bad = () => random() < 0.2;
  const where = (entries: Record<string, string>) => entries;
  return [
    // lookup by id
    { description: `A ${e} by id`, rate: rate(), cql: `SELECT name, status, amount FROM ${ks}.${t.lookup} WHERE ${e}_id = ?` },
    { description: `Detail page of a ${e}`, rate: rate(), select: [`${e}_id`, "name", "amount", "tags"], where: where({ [`${e}_id`]: "=" }) },
    { description: `Several ${e}s at once`, rate: rate(), cql: `SELECT ${e}_id, name FROM ${ks}.${t.lookup} WHERE ${e}_id IN (?, ?, ?, ?, ?)` },
    bad()
      ? { description: `${e}s in a status (nightly job)`, rate: "1/hour", cql: `SELECT ${e}_id FROM ${ks}.${t.lookup} WHERE status = ? ALLOW FILTERING` }
      : { description: `The owner of a ${e}`, rate: rate(), cql: `SELECT ${o}_id FROM ${ks}.${t.lookup} WHERE ${e}_id = ?` },
    { description: `Ids of the ${e}s of an ${o}`, rate: rate(), select: [`${e}_id`, `${o}_id`], where: where({ [`${o}_id`]: "=" }) },
    // time series by owner
    { description: `Latest ${e}s of an ${o}`, rate: rate(), cql: `SELECT ${e}_id, name, created_at FROM ${ks}.${t.byOwner} WHERE ${o}_id = ? LIMIT 20` },
    {
      description: `${e}s of an ${o} in a period`,
      rate: rate(),
      cql: `SELECT ${e}_id, amount FROM ${ks}.${t.byOwner} WHERE ${o}_id = ? AND created_at > ? AND created_at < ?`,
    },
    {
      description: `Newest ${e} names of an ${o}`,
      rate: rate(),
      select: [`${e}_id`, "name"],
      where: where({ [`${o}_id`]: "=" }),
      orderBy: { created_at: "desc" },
      limit: 50,
    },
    { description: `${e}s of an ${o} since a date`, rate: rate(), select: [`${e}_id`, "status"], where: where({ [`${o}_id`]: "=", created_at: ">=" }) },
    { description: `Oldest ${e}s of an ${o} first`, rate: rate(), cql: `SELECT ${e}_id FROM ${ks}.${t.byOwner} WHERE ${o}_id = ? ORDER BY created_at ASC LIMIT 10` },
    // day-bucketed events
    { description: `Events of a ${e} on a day`, rate: rate(), cql: `SELECT event_time, kind FROM ${ks}.${t.eventsByDay} WHERE ${e}_id = ? AND day = ?` },
    { description: `Events of a ${e} over three days`, rate: rate(), cql: `SELECT kind, payload FROM ${ks}.${t.eventsByDay} WHERE ${e}_id = ? AND day IN (?, ?, ?)` },
    {
      description: `Latest events of a ${e} on a day`,
      rate: rate(),
      select: ["kind", "payload"],
      where: where({ [`${e}_id`]: "=", day: "=" }),
      orderBy: { event_time: "desc" },
      limit: 100,
    },
    {
      description: `Events of a ${e} after one`,
      rate: rate(),
      cql: `SELECT event_time, payload FROM ${ks}.${t.eventsByDay} WHERE ${e}_id = ? AND day = ? AND event_time > ?`,
    },
    bad()
      ? { description: `Every event of a ${e}`, rate: rate(), cql: `SELECT kind FROM ${ks}.${t.eventsByDay} WHERE ${e}_id = ?` }
      : { description: `A page of events`, rate: rate(), cql: `SELECT kind FROM ${ks}.${t.eventsByDay} WHERE ${e}_id = ? AND day = ? LIMIT 100` },
    // status lists and the SAI index
    { description: `${e}s by region and status`, rate: rate(), cql: `SELECT ${e}_id, name FROM ${ks}.${t.byStatus} WHERE region = ? AND status = ?` },
    { description: `${e}s by name`, rate: rate(), cql: `SELECT ${e}_id, region FROM ${ks}.${t.byStatus} WHERE name = ?` },
    {
      description: `Recent ${e}s by region and status`,
      rate: rate(),
      select: [`${e}_id`, "created_at"],
      where: where({ region: "=", status: "=", created_at: ">" }),
    },
    { description: `${e}s by name in a region`, rate: rate(), select: [`${e}_id`], where: where({ name: "=", region: "=" }) },
    bad()
      ? { description: `Large ${e}s`, rate: rate(), select: [`${e}_id`, "amount"], where: where({ amount: ">" }) }
      : { description: `Statuses of a region`, rate: rate(), cql: `SELECT status, ${e}_id FROM ${ks}.${t.byStatus} WHERE region = ? AND status IN ('new', 'paid')` },
    // counters
    { description: `Daily ${e} counts of an ${o}`, rate: rate(), cql: `SELECT day, ${e}_total FROM ${ks}.${t.counts} WHERE ${o}_id = ? AND day >= ?` },
    { description: `All ${e} counts of an ${o}`, rate: rate(), select: ["day", `${e}_total`], where: where({ [`${o}_id`]: "=" }) },
    { description: `Today's ${e} count`, rate: rate(), cql: `SELECT ${e}_total FROM ${ks}.${t.counts} WHERE ${o}_id = ? AND day = ?` },
    { description: `Counts of two ${o}s`, rate: rate(), cql: `SELECT ${e}_total FROM ${ks}.${t.counts} WHERE ${o}_id IN (?, ?) AND day = ?` },
    {
      description: `Recent ${e} counts`,
      rate: rate(),
      select: ["day", `${e}_total`],
      where: where({ [`${o}_id`]: "=", day: ">=" }),
      orderBy: { day: "desc" },
    },
  ];
}

function yamlQuery(id: string, query: QuerySpec): string {
  const lines = [`  - id: ${id}`, `    description: ${JSON.stringify(query.description)}`];
  if ("cql" in query) {
    lines.push(`    cql: ${query.cql}`);
  } else {
    lines.push(`    select: [${query.select.join(", ")}]`);
    lines.push(`    where: { ${Object.entries(query.where).map(([column, operator]) => `${column}: "${operator}"`).join(", ")} }`);
    if (query.orderBy) lines.push(`    order_by: { ${Object.entries(query.orderBy).map(([column, direction]) => `${column}: ${direction}`).join(", ")} }`);
    if (query.limit !== undefined) lines.push(`    limit: ${query.limit}`);
  }
  lines.push(`    rate: ${query.rate}`);
  return lines.join("\n");
}

/** The words of a CQL text on the lines a person would break it at. */
function cqlLines(cql: string): string[] {
  return cql.split(/ (?=FROM |WHERE |AND |ORDER BY |LIMIT |ALLOW FILTERING)/).map((line, i) => (line.startsWith("AND ") && i > 0 ? `  ${line}` : line));
}

const SUPPRESSIONS = [
  { rule: "query-allow-filtering-scan", reason: "nightly export, runs off-peak on the analytics DC" },
  { rule: "query-too-many-partitions", reason: "IN over at most five ids, measured p99 under 10 ms" },
  { rule: "table-unbounded-partition", reason: "archived to S3 and truncated every quarter" },
];

/**
 * One query the way people write them by hand: plain and quoted descriptions, long CQL as `|` or
 * `>-` block scalars broken at its clauses, `where` as a block or a flow mapping, comments after
 * figures and, now and then, a suppression with its reason.
 */
function handWrittenQuery(id: string, query: QuerySpec, random: () => number): string {
  const lines = [`  - id: ${id}`];
  lines.push(random() < 0.6 ? `    description: ${query.description}` : `    description: ${JSON.stringify(query.description)}`);
  if ("cql" in query) {
    const style = random();
    if (style < 0.35 || query.cql.length < 60) lines.push(`    cql: ${query.cql}`);
    else lines.push(`    cql: ${style < 0.75 ? "|" : ">-"}`, ...cqlLines(query.cql).map((line) => `      ${line}`));
  } else {
    lines.push(random() < 0.5 ? `    select: [${query.select.join(", ")}]` : `    select:\n${query.select.map((column) => `      - ${column}`).join("\n")}`);
    const where = Object.entries(query.where);
    if (random() < 0.5) lines.push(`    where: { ${where.map(([column, operator]) => `${column}: "${operator}"`).join(", ")} }`);
    else lines.push("    where:", ...where.map(([column, operator]) => `      ${column}: ${operator === "=" ? "'='" : JSON.stringify(operator)}`));
    if (query.orderBy) lines.push(`    order_by: { ${Object.entries(query.orderBy).map(([column, direction]) => `${column}: ${direction}`).join(", ")} }`);
    if (query.limit !== undefined) lines.push(`    limit: ${query.limit}`);
  }
  lines.push(`    rate: ${query.rate}${random() < 0.15 ? "   # peak hour, from the dashboards" : ""}`);
  if (random() < 0.04) {
    const suppression = SUPPRESSIONS[Math.floor(random() * SUPPRESSIONS.length)]!;
    lines.push("    ignore:", `      - rule: ${suppression.rule}`, `        reason: ${suppression.reason}`);
  }
  return lines.join("\n");
}

function volumesOf(domain: Domain, random: () => number): string[] {
  const { tables: t } = domain;
  const partitions = (low: number, high: number) => Math.floor(low + random() * (high - low)).toLocaleString("en-US").replace(/,/g, "_");
  // A fifth of the time series keep every row forever: the estimator reports them unbounded.
  const unbounded = random() < 0.2;
  return [
    `  ${t.lookup}:`,
    `    partitions: ${partitions(100_000, 50_000_000)}`,
    `    columns: { name: 24, status: 8, region: 6, tags: { items: 4, bytes: 10 } }`,
    `  ${t.byOwner}:`,
    `    partitions: ${partitions(10_000, 5_000_000)}`,
    `    growth: ${1 + Math.floor(random() * 40)}/day`,
    `    retention: ${unbounded ? "forever" : "365d"}`,
    `    columns: { name: 24, status: 8 }`,
    `  ${t.eventsByDay}:`,
    `    rows_per_partition: { avg: ${100 + Math.floor(random() * 1_000)}, max: ${5_000 + Math.floor(random() * 50_000)} }`,
    `    columns: { kind: 12, payload: ${100 + Math.floor(random() * 900)} }`,
    `  ${t.byStatus}:`,
    `    partitions: ${partitions(50, 2_000)}`,
    `    rows_per_partition: { avg: ${1_000 + Math.floor(random() * 20_000)}, max: ${50_000 + Math.floor(random() * 500_000)} }`,
    `    columns: { name: 24 }`,
    `  ${t.counts}:`,
    `    growth: 1/day`,
    `    retention: 730d`,
  ];
}

function writeOf(id: string, domain: Domain): string {
  const { keyspace: ks, entity: e, owner: o, tables: t } = domain;
  return [
    `  - id: ${id}`,
    `    description: "Create a ${e}"`,
    `    cql:`,
    `      - INSERT INTO ${ks}.${t.lookup} (${e}_id, ${o}_id, name, status, region, amount, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    `      - INSERT INTO ${ks}.${t.byOwner} (${o}_id, created_at, ${e}_id, name, status, amount) VALUES (?, ?, ?, ?, ?, ?)`,
    `      - INSERT INTO ${ks}.${t.byStatus} (region, status, created_at, ${e}_id, name) VALUES (?, ?, ?, ?, ?)`,
    `      - UPDATE ${ks}.${t.counts} SET ${e}_total = ${e}_total + 1 WHERE ${o}_id = ? AND day = ?`,
    `    rate: 20/s`,
  ].join("\n");
}

export interface GenerateOptions {
  seed?: number;
  /**
   * One manifest for the whole repository, written as people write YAML by hand (comments,
   * block scalars, both quoting styles, suppressions), instead of one regular manifest per
   * service of 100 tables.
   */
  handWritten?: boolean;
}

/** A repository of `tableCount` tables (rounded down to whole domains of five), the same for a given seed. */
export function generateModel(tableCount: number, options: GenerateOptions = {}): GeneratedModel {
  const { seed = 2024, handWritten = false } = options;
  const random = seededRandom(seed);
  const domains = Math.max(1, Math.floor(tableCount / TABLES_PER_DOMAIN));
  const keyspace = "shop";
  const files: SourceFile[] = [
    {
      path: "schema/000_keyspace.cql",
      content: [
        `CREATE KEYSPACE IF NOT EXISTS ${keyspace}`,
        `  WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3, 'dc2': 3};`,
        "",
        `CREATE TYPE IF NOT EXISTS ${keyspace}.address (street text, city text, postal_code text, country text);`,
        "",
      ].join("\n"),
    },
  ];
  let queryCount = 0;
  let writeCount = 0;
  const everyVolume: string[] = [];
  const everyQuery: string[] = [];
  const everyWrite: string[] = [];
  for (let firstDomain = 0; firstDomain < domains; firstDomain += DOMAINS_PER_SERVICE) {
    const root = `services/svc_${firstDomain / DOMAINS_PER_SERVICE}`;
    const volumes: string[] = [];
    const queries: string[] = [];
    const writes: string[] = [];
    for (let index = firstDomain; index < Math.min(domains, firstDomain + DOMAINS_PER_SERVICE); index++) {
      const domain = domainOf(index, keyspace);
      files.push({ path: `${root}/schema/${String(index - firstDomain + 1).padStart(3, "0")}_${domain.entity}.cql`, content: schemaFile(domain, random) });
      if (handWritten) {
        const heading = `  # ---- ${domain.entity}: the ${domain.owner}'s ${domain.entity.replace(/\d+$/, "")}s ----`;
        everyVolume.push(heading, ...volumesOf(domain, random));
        everyQuery.push(heading, ...queriesOf(domain, random).map((query) => handWrittenQuery(`${domain.entity}_q${++queryCount}`, query, random)));
        everyWrite.push(writeOf(`${domain.entity}_create`, domain));
        writeCount++;
        continue;
      }
      volumes.push(...volumesOf(domain, random));
      for (const query of queriesOf(domain, random)) queries.push(yamlQuery(`Q${++queryCount}`, query));
      writes.push(writeOf(`W${++writeCount}`, domain));
    }
    if (handWritten) continue;
    files.push({
      path: `${root}/access-patterns.yaml`,
      content: [`version: 1`, `keyspace: ${keyspace}`, `cassandra: "5.0"`, `tables:`, ...volumes, `queries:`, ...queries, `writes:`, ...writes, ""].join("\n"),
    });
  }
  if (handWritten) {
    files.push({
      path: "access-patterns.yaml",
      content: [
        "# yaml-language-server: $schema=./node_modules/cql-review/schema/access-patterns.schema.json",
        "# Every read and write of the shop's services, with the volumes from production metrics.",
        "# Owners: each service team keeps its section; rates are peak per second unless noted.",
        "version: 1",
        `keyspace: ${keyspace}`,
        'cassandra: "5.0"',
        "",
        "tables:",
        ...everyVolume,
        "",
        "queries:",
        ...everyQuery,
        "",
        "writes:",
        ...everyWrite,
        "",
      ].join("\n"),
    });
  }
  return {
    files,
    tables: domains * TABLES_PER_DOMAIN,
    queries: queryCount,
    writes: writeCount,
    bytes: files.reduce((sum, file) => sum + file.content.length, 0),
  };
}
