// A deterministic generator of a large, realistic CQL schema for benchmarks: keyspaces, user
// types, thousands of tables (composite keys, clustering orders, collections, frozen UDTs, static
// columns, options maps), indexes, materialized views, and DML (inserts, updates, deletes,
// selects, batches), with the comments real schema files carry.

/** mulberry32: a small seeded PRNG, so every run generates the same text. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ENTITIES = ["user", "video", "device", "sensor", "order", "payment", "account", "session", "message", "comment", "product", "shipment", "invoice", "alert", "playlist", "ticket"];
const ATTRIBUTES = ["name", "email", "status", "title", "description", "region", "country", "category", "kind", "source", "label", "owner_id", "version", "priority", "amount", "score", "rating", "tags", "notes", "updated_by"];
const SCALAR_TYPES = ["text", "int", "bigint", "uuid", "timeuuid", "timestamp", "double", "float", "boolean", "decimal", "date", "inet", "blob", "varint", "smallint", "tinyint", "time", "duration", "ascii"];
const COMPACTION = [
  "{'class': 'SizeTieredCompactionStrategy', 'min_threshold': 4, 'max_threshold': 32}",
  "{'class': 'LeveledCompactionStrategy', 'sstable_size_in_mb': 160}",
  "{'class': 'TimeWindowCompactionStrategy', 'compaction_window_unit': 'DAYS', 'compaction_window_size': 1}",
  "{'class': 'UnifiedCompactionStrategy', 'scaling_parameters': 'T4'}",
];

export interface GeneratedSchema {
  text: string;
  tables: number;
  statements: number;
}

/** About `targetBytes` of CQL (it stops after the first table group that passes the target). */
export function generateCql(targetBytes: number, seed = 42): GeneratedSchema {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const chunks: string[] = [];
  let size = 0;
  let tables = 0;
  let statements = 0;
  const emit = (text: string, count = 1) => {
    chunks.push(text);
    size += text.length;
    statements += count;
  };

  for (let keyspaceIndex = 0; size < targetBytes; keyspaceIndex++) {
    const keyspace = `app_${keyspaceIndex}`;
    emit(
      `-- Keyspace ${keyspaceIndex}: one bounded context of the application.\n` +
        `CREATE KEYSPACE IF NOT EXISTS ${keyspace}\n` +
        `  WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3, 'dc2': 3}\n` +
        `  AND durable_writes = true;\n\nUSE ${keyspace};\n\n`,
      2,
    );
    emit(
      `CREATE TYPE IF NOT EXISTS ${keyspace}.address (\n  street text,\n  city text,\n  zip text,\n  country text\n);\n\n` +
        `CREATE TYPE IF NOT EXISTS ${keyspace}.money (amount decimal, currency ascii);\n\n`,
      2,
    );
    for (let t = 0; t < 40 && size < targetBytes; t++, tables++) {
      const entity = pick(ENTITIES);
      const table = `${entity}s_by_${pick(ATTRIBUTES)}_${tables}`;
      const partition = next() < 0.4 ? [`${entity}_id`, "bucket"] : [`${entity}_id`];
      const clustering = next() < 0.7 ? ["created_at", ...(next() < 0.3 ? ["event_id"] : [])] : [];
      const columns: string[] = [];
      columns.push(`  ${entity}_id uuid`);
      if (partition.length > 1) columns.push("  bucket int");
      if (clustering.includes("created_at")) columns.push("  created_at timestamp");
      if (clustering.includes("event_id")) columns.push("  event_id timeuuid");
      const attributeCount = 4 + Math.floor(next() * 8);
      for (let a = 0; a < attributeCount; a++) {
        const roll = next();
        const name = `${pick(ATTRIBUTES)}_${a}`;
        if (roll < 0.08) columns.push(`  ${name} set<text>`);
        else if (roll < 0.14) columns.push(`  ${name} map<text, frozen<list<int>>>`);
        else if (roll < 0.18) columns.push(`  ${name} frozen<address>`);
        else if (roll < 0.21) columns.push(`  ${name} list<frozen<money>>`);
        else if (roll < 0.23 && clustering.length > 0) columns.push(`  ${name} text static`);
        else if (roll < 0.25) columns.push(`  ${name} tuple<int, text, timestamp>`);
        else columns.push(`  ${name} ${pick(SCALAR_TYPES)}`);
      }
      const key = partition.length > 1 ? `(${partition.join(", ")})` : partition[0];
      columns.push(`  PRIMARY KEY (${[key, ...clustering].join(", ")})`);
      let options = `\n) WITH compaction = ${pick(COMPACTION)}\n  AND gc_grace_seconds = ${86400 * (1 + Math.floor(next() * 10))}`;
      if (clustering.length > 0) options += `\n  AND CLUSTERING ORDER BY (${clustering.map((c) => `${c} DESC`).join(", ")})`;
      if (next() < 0.5) options += `\n  AND default_time_to_live = ${3600 * Math.floor(1 + next() * 720)}`;
      if (next() < 0.3) options += `\n  AND caching = {'keys': 'ALL', 'rows_per_partition': 'NONE'}\n  AND comment = 'Owned by the ${entity} team; see the runbook.'`;
      emit(`// ${table}: read by the ${entity} service.\nCREATE TABLE IF NOT EXISTS ${table} (\n${columns.join(",\n")}${options};\n\n`);

      if (next() < 0.2) {
        emit(`CREATE INDEX IF NOT EXISTS ${table}_status_idx ON ${table} (${columns[columns.length - 2]!.trim().split(" ")[0]}) USING 'sai';\n`);
      }
      if (next() < 0.05 && clustering.length > 0) {
        emit(
          `CREATE MATERIALIZED VIEW IF NOT EXISTS ${table}_mv AS\n  SELECT * FROM ${table}\n  WHERE ${partition.map((p) => `${p} IS NOT NULL`).join(" AND ")}${clustering.map((c) => ` AND ${c} IS NOT NULL`).join("")}\n  PRIMARY KEY ((${partition.join(", ")})${clustering.map((c) => `, ${c}`).join("")})\n  WITH CLUSTERING ORDER BY (${clustering[0]} ASC);\n`,
        );
      }
      const values = partition.map((p) => (p === "bucket" ? String(Math.floor(next() * 100)) : "123e4567-e89b-12d3-a456-426614174000"));
      emit(
        `INSERT INTO ${table} (${partition.join(", ")}) VALUES (${values.join(", ")}) IF NOT EXISTS USING TTL 86400;\n` +
          `SELECT * FROM ${table} WHERE ${partition.map((p) => `${p} = ?`).join(" AND ")}${clustering.length > 0 ? ` AND ${clustering[0]} >= '2024-01-01' ORDER BY ${clustering[0]} DESC` : ""} LIMIT 100;\n`,
        2,
      );
      if (next() < 0.3) {
        emit(
          `BEGIN UNLOGGED BATCH USING TIMESTAMP 1700000000000000\n` +
            `  UPDATE ${table} SET ${columns[partition.length + clustering.length]!.trim().split(" ")[0]} = null WHERE ${partition.map((p) => `${p} = ?`).join(" AND ")};\n` +
            `  DELETE FROM ${table} WHERE ${partition.map((p) => `${p} = ?`).join(" AND ")} IF EXISTS;\n` +
            `APPLY BATCH;\n\n`,
        );
      }
    }
  }
  return { text: chunks.join(""), tables, statements };
}
