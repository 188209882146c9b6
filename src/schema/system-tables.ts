// Cassandra's own tables, which every cluster has and no schema file creates: what a driver's
// health check, a schema-introspection query or an admin page reads (`system.local`,
// `system.peers_v2`, `system_schema.tables`, `system_views.clients` …). Their keys decide how a
// query on them is planned, as for any table. The definitions follow Cassandra's source
// (org.apache.cassandra.db.SystemKeyspace, schema.SchemaKeyspace, auth.AuthKeyspace,
// repair.SystemDistributedKeyspace, tracing.TraceKeyspace and the virtual tables of
// db.virtual.SystemViewsKeyspace, https://github.com/apache/cassandra), written out here in CQL,
// with the columns every release from the first that has the table carries; columns a later
// release added are listed from that release.
import { parseCql } from "../cql/index.js";
import { buildSchema } from "./builder.js";
import type { CassandraVersion, TableModel } from "./model.js";

interface SystemTable {
  /** the first release with the table (or with these columns) */
  since: CassandraVersion;
  cql: string;
}

const ORDER: readonly CassandraVersion[] = ["3.11", "4.0", "4.1", "5.0"];

const TABLES: readonly SystemTable[] = [
  // system: the node's own state
  {
    since: "3.11",
    cql: `CREATE TABLE system.local (key text PRIMARY KEY, bootstrapped text, broadcast_address inet, cluster_name text, cql_version text,
      data_center text, gossip_generation int, host_id uuid, listen_address inet, native_protocol_version text, partitioner text, rack text,
      release_version text, rpc_address inet, schema_version uuid, tokens set<text>, truncated_at map<uuid, blob>)`,
  },
  { since: "4.0", cql: "ALTER TABLE system.local ADD (broadcast_port int, listen_port int, rpc_port int)" },
  {
    since: "3.11",
    cql: `CREATE TABLE system.peers (peer inet PRIMARY KEY, data_center text, host_id uuid, preferred_ip inet, rack text, release_version text,
      rpc_address inet, schema_version uuid, tokens set<text>)`,
  },
  {
    since: "4.0",
    cql: `CREATE TABLE system.peers_v2 (peer inet, peer_port int, data_center text, host_id uuid, preferred_ip inet, preferred_port int, rack text,
      release_version text, native_address inet, native_port int, schema_version uuid, tokens set<text>, PRIMARY KEY ((peer), peer_port))`,
  },
  {
    since: "3.11",
    cql: `CREATE TABLE system.size_estimates (keyspace_name text, table_name text, range_start text, range_end text, mean_partition_size bigint,
      partitions_count bigint, PRIMARY KEY ((keyspace_name), table_name, range_start, range_end))`,
  },
  {
    since: "4.0",
    cql: `CREATE TABLE system.table_estimates (keyspace_name text, table_name text, range_type text, range_start text, range_end text,
      mean_partition_size bigint, partitions_count bigint, PRIMARY KEY ((keyspace_name), table_name, range_type, range_start, range_end))`,
  },
  {
    since: "3.11",
    cql: `CREATE TABLE system.compaction_history (id uuid PRIMARY KEY, bytes_in bigint, bytes_out bigint, columnfamily_name text,
      compacted_at timestamp, keyspace_name text, rows_merged map<int, bigint>)`,
  },
  // system_schema: the schema itself
  { since: "3.11", cql: "CREATE TABLE system_schema.keyspaces (keyspace_name text PRIMARY KEY, durable_writes boolean, replication frozen<map<text, text>>)" },
  {
    since: "3.11",
    cql: `CREATE TABLE system_schema.tables (keyspace_name text, table_name text, bloom_filter_fp_chance double, caching frozen<map<text, text>>,
      comment text, compaction frozen<map<text, text>>, compression frozen<map<text, text>>, crc_check_chance double,
      dclocal_read_repair_chance double, default_time_to_live int, extensions frozen<map<text, blob>>, flags frozen<set<text>>,
      gc_grace_seconds int, id uuid, max_index_interval int, memtable_flush_period_in_ms int, min_index_interval int,
      read_repair_chance double, speculative_retry text, cdc boolean, PRIMARY KEY ((keyspace_name), table_name))`,
  },
  { since: "4.0", cql: "ALTER TABLE system_schema.tables ADD (additional_write_policy text, read_repair text)" },
  {
    since: "3.11",
    cql: `CREATE TABLE system_schema.columns (keyspace_name text, table_name text, column_name text, clustering_order text,
      column_name_bytes blob, kind text, position int, type text, PRIMARY KEY ((keyspace_name), table_name, column_name))`,
  },
  {
    since: "3.11",
    cql: `CREATE TABLE system_schema.dropped_columns (keyspace_name text, table_name text, column_name text, dropped_time timestamp, type text,
      PRIMARY KEY ((keyspace_name), table_name, column_name))`,
  },
  {
    since: "3.11",
    cql: `CREATE TABLE system_schema.triggers (keyspace_name text, table_name text, trigger_name text, options frozen<map<text, text>>,
      PRIMARY KEY ((keyspace_name), table_name, trigger_name))`,
  },
  {
    since: "3.11",
    cql: `CREATE TABLE system_schema.views (keyspace_name text, view_name text, base_table_id uuid, base_table_name text, where_clause text,
      include_all_columns boolean, bloom_filter_fp_chance double, caching frozen<map<text, text>>, comment text,
      compaction frozen<map<text, text>>, compression frozen<map<text, text>>, default_time_to_live int, gc_grace_seconds int, id uuid,
      speculative_retry text, PRIMARY KEY ((keyspace_name), view_name))`,
  },
  {
    since: "3.11",
    cql: `CREATE TABLE system_schema.indexes (keyspace_name text, table_name text, index_name text, kind text, options frozen<map<text, text>>,
      PRIMARY KEY ((keyspace_name), table_name, index_name))`,
  },
  {
    since: "3.11",
    cql: `CREATE TABLE system_schema.types (keyspace_name text, type_name text, field_names frozen<list<text>>, field_types frozen<list<text>>,
      PRIMARY KEY ((keyspace_name), type_name))`,
  },
  {
    since: "3.11",
    cql: `CREATE TABLE system_schema.functions (keyspace_name text, function_name text, argument_types frozen<list<text>>,
      argument_names frozen<list<text>>, body text, language text, return_type text, called_on_null_input boolean,
      PRIMARY KEY ((keyspace_name), function_name, argument_types))`,
  },
  {
    since: "3.11",
    cql: `CREATE TABLE system_schema.aggregates (keyspace_name text, aggregate_name text, argument_types frozen<list<text>>, final_func text,
      initcond text, return_type text, state_func text, state_type text, PRIMARY KEY ((keyspace_name), aggregate_name, argument_types))`,
  },
  // system_auth: roles and permissions
  {
    since: "3.11",
    cql: `CREATE TABLE system_auth.roles (role text PRIMARY KEY, can_login boolean, is_superuser boolean, member_of set<text>,
      salted_hash text)`,
  },
  { since: "3.11", cql: "CREATE TABLE system_auth.role_members (role text, member text, PRIMARY KEY ((role), member))" },
  {
    since: "3.11",
    cql: "CREATE TABLE system_auth.role_permissions (role text, resource text, permissions set<text>, PRIMARY KEY ((role), resource))",
  },
  {
    since: "3.11",
    cql: "CREATE TABLE system_auth.resource_role_permissons_index (resource text, role text, PRIMARY KEY ((resource), role))",
  },
  { since: "4.0", cql: "CREATE TABLE system_auth.network_permissions (role text PRIMARY KEY, dcs frozen<set<text>>)" },
  // system_distributed: repair history and view builds
  {
    since: "3.11",
    cql: `CREATE TABLE system_distributed.repair_history (keyspace_name text, columnfamily_name text, id timeuuid, parent_id timeuuid,
      range_begin text, range_end text, coordinator inet, participants set<inet>, exception_message text, exception_stacktrace text,
      status text, started_at timestamp, finished_at timestamp, PRIMARY KEY ((keyspace_name, columnfamily_name), id))`,
  },
  {
    since: "3.11",
    cql: `CREATE TABLE system_distributed.parent_repair_history (parent_id timeuuid PRIMARY KEY, keyspace_name text,
      columnfamily_names set<text>, started_at timestamp, finished_at timestamp, exception_message text, exception_stacktrace text,
      requested_ranges set<text>, successful_ranges set<text>, options map<text, text>)`,
  },
  {
    since: "3.11",
    cql: `CREATE TABLE system_distributed.view_build_status (keyspace_name text, view_name text, host_id uuid, status text,
      PRIMARY KEY ((keyspace_name, view_name), host_id))`,
  },
  // system_traces: query tracing
  {
    since: "3.11",
    cql: `CREATE TABLE system_traces.sessions (session_id uuid PRIMARY KEY, command text, client inet, coordinator inet, duration int,
      parameters map<text, text>, request text, started_at timestamp)`,
  },
  {
    since: "3.11",
    cql: `CREATE TABLE system_traces.events (session_id uuid, event_id timeuuid, activity text, source inet, source_elapsed int, thread text,
      PRIMARY KEY ((session_id), event_id))`,
  },
  // system_views: the virtual tables (Cassandra 4.0 and later)
  {
    since: "4.0",
    cql: `CREATE TABLE system_views.clients (address inet, port int, hostname text, username text, connection_stage text, protocol_version int,
      driver_name text, driver_version text, request_count bigint, ssl_enabled boolean, ssl_protocol text, ssl_cipher_suite text,
      PRIMARY KEY ((address), port))`,
  },
  { since: "4.1", cql: "ALTER TABLE system_views.clients ADD client_options map<text, text>" },
  { since: "4.0", cql: "CREATE TABLE system_views.settings (name text PRIMARY KEY, value text)" },
  {
    since: "4.0",
    cql: `CREATE TABLE system_views.caches (name text PRIMARY KEY, capacity_bytes bigint, entry_count int, hit_count bigint, hit_ratio double,
      recent_hit_rate_per_second bigint, recent_request_rate_per_second bigint, request_count bigint, size_bytes bigint)`,
  },
  {
    since: "4.0",
    cql: `CREATE TABLE system_views.thread_pools (name text PRIMARY KEY, active_tasks int, active_tasks_limit int, blocked_tasks bigint,
      blocked_tasks_all_time bigint, completed_tasks bigint, pending_tasks int)`,
  },
  {
    since: "4.0",
    cql: `CREATE TABLE system_views.sstable_tasks (keyspace_name text, table_name text, task_id uuid, kind text, progress bigint, total bigint,
      unit text, PRIMARY KEY ((keyspace_name), table_name, task_id))`,
  },
  {
    since: "4.1",
    cql: "CREATE TABLE system_views.system_properties (name text PRIMARY KEY, value text)",
  },
];

const catalogs = new Map<CassandraVersion, ReadonlyMap<string, TableModel>>();

/** The keyspaces the tables above are in: a name in any other keyspace is none of Cassandra's tables. */
const SYSTEM_KEYSPACES: ReadonlySet<string> = new Set(TABLES.map((table) => /^(?:CREATE|ALTER) TABLE (\w+)\./.exec(table.cql)![1]!));

/** Cassandra's own tables in a release, by qualified name (`system.local`). */
export interface BuiltInTables {
  get(qualifiedName: string): TableModel | undefined;
  has(qualifiedName: string): boolean;
}

/**
 * Cassandra's own tables in a release. The catalog is parsed the first time a name in one of their
 * keyspaces is looked up: most models never read them, and parsing the catalog is a noticeable
 * part of a short command's start (docs/performance.md).
 */
export function systemTables(version: CassandraVersion): BuiltInTables {
  const inSystemKeyspace = (qualifiedName: string) => SYSTEM_KEYSPACES.has(qualifiedName.slice(0, qualifiedName.indexOf(".")));
  return {
    get: (qualifiedName) => (inSystemKeyspace(qualifiedName) ? catalog(version).get(qualifiedName) : undefined),
    has: (qualifiedName) => inSystemKeyspace(qualifiedName) && catalog(version).has(qualifiedName),
  };
}

function catalog(version: CassandraVersion): ReadonlyMap<string, TableModel> {
  let tables = catalogs.get(version);
  if (tables) return tables;
  const release = ORDER.indexOf(version);
  const text = TABLES.filter((table) => ORDER.indexOf(table.since) <= release)
    .map((table) => `${table.cql};\n`)
    .join("");
  const built = buildSchema([{ path: `cassandra-${version}-system-tables.cql`, text, parse: parseCql(text) }], { inOrder: true });
  tables = built.schema.tables;
  catalogs.set(version, tables);
  return tables;
}

/**
 * Keyspaces whose tables each node keeps for itself (LocalStrategy, and the virtual tables): a
 * query reads the coordinator's own copy, so reading all of one (every peer of `system.peers_v2`)
 * walks no token ring. system_auth, system_distributed and system_traces are replicated like any
 * keyspace, and are not among them.
 */
const NODE_LOCAL_KEYSPACES: ReadonlySet<string> = new Set(["system", "system_schema", "system_views", "system_virtual_schema"]);

/** Whether a table, by qualified name, is one of Cassandra's own tables that each node keeps locally. */
export function isNodeLocalTable(qualifiedName: string): boolean {
  return NODE_LOCAL_KEYSPACES.has(qualifiedName.slice(0, qualifiedName.indexOf(".")));
}
