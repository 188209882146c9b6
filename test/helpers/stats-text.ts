// Saved `nodetool tablestats` output for tests, in Cassandra 5.0's plain layout (TableStatsPrinter),
// with the figures a case needs and the rest plausible.
export interface TableFigures {
  keyspace: string;
  table: string;
  partitions?: number;
  meanBytes?: number;
  maxBytes?: number;
  tombstonesAverage?: number | "NaN";
  tombstonesMax?: number;
}

export function tablestatsText(...tables: TableFigures[]): string {
  const keyspaces = [...new Set(tables.map((t) => t.keyspace))];
  const lines = [`Total number of tables: ${tables.length + 40}`, "----------------"];
  for (const keyspace of keyspaces) {
    lines.push(`Keyspace: ${keyspace}`, "\tRead Count: 1200", "\tRead Latency: 0.5 ms", "\tWrite Count: 5400", "\tWrite Latency: 0.04 ms", "\tPending Flushes: 0");
    for (const t of tables.filter((table) => table.keyspace === keyspace)) {
      const figure = (label: string, value: string | number) => lines.push(`\t\t${label}: ${value}`);
      figure("Table", t.table);
      figure("SSTable count", 6);
      figure("Old SSTable count", 0);
      figure("Max SSTable size", "210.000MiB");
      figure("Space used (live)", 1_073_741_824);
      figure("Space used (total)", 1_073_741_824);
      figure("Space used by snapshots (total)", 0);
      figure("SSTable Compression Ratio", "0.41000");
      figure("Number of partitions (estimate)", t.partitions ?? 25_000);
      figure("Memtable cell count", 1200);
      figure("Memtable data size", 91_000);
      figure("Memtable switch count", 40);
      figure("Speculative retries", 0);
      figure("Local read count", 1200);
      figure("Local read latency", "0.410 ms");
      figure("Local write count", 5400);
      figure("Local write latency", "0.030 ms");
      figure("Local read/write ratio", "0.22222");
      figure("Pending flushes", 0);
      figure("Percent repaired", 0.0);
      figure("Bytes repaired", "0B");
      figure("Bytes unrepaired", "1.000GiB");
      figure("Bytes pending repair", "0B");
      figure("Bloom filter false positives", 0);
      figure("Bloom filter false ratio", "0.00000");
      figure("Bloom filter space used", 31_000);
      figure("Compacted partition minimum bytes", 180);
      figure("Compacted partition maximum bytes", t.maxBytes ?? 20_501);
      figure("Compacted partition mean bytes", t.meanBytes ?? 2_299);
      figure("Average live cells per slice (last five minutes)", "20.0");
      figure("Maximum live cells per slice (last five minutes)", 310);
      figure("Average tombstones per slice (last five minutes)", t.tombstonesAverage ?? "NaN");
      figure("Maximum tombstones per slice (last five minutes)", t.tombstonesMax ?? 0);
      figure("Droppable tombstone ratio", "0.00000");
      lines.push("");
    }
    lines.push("----------------");
  }
  return `${lines.join("\n")}\n`;
}
