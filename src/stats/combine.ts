// Several nodes' files, one figure per table: the worst node for maxima (the largest partition
// lives on some replica, and that replica is the one that suffers), the median node for means
// and percentiles (one odd node should not move the typical figure). Each figure keeps the file
// and line it was read from, so a finding can name it.
import { MEASURE_NAMES, WORST_NODE_MEASURES, type MeasuredFigure, type NodeTableStats, type TableMeasurements } from "./types.js";

/** `keyspace.table`, as the schema model names tables. */
export function measuredTableName(stats: { keyspace: string; table: string }): string {
  return `${stats.keyspace}.${stats.table}`;
}

export function combineStats(nodeStats: readonly NodeTableStats[]): Map<string, TableMeasurements> {
  const byTable = new Map<string, NodeTableStats[]>();
  for (const stats of nodeStats) {
    const name = measuredTableName(stats);
    const list = byTable.get(name);
    if (list) list.push(stats);
    else byTable.set(name, [stats]);
  }
  const combined = new Map<string, TableMeasurements>();
  for (const [name, list] of [...byTable].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const first = list[0]!;
    const measurements: TableMeasurements = {
      keyspace: first.keyspace,
      table: first.table,
      figures: {},
      files: [...new Set(list.map((stats) => stats.file))].sort(),
      sections: list.map((stats) => ({ file: stats.file, line: stats.line })),
    };
    for (const measure of MEASURE_NAMES) {
      const given = list
        .flatMap((stats) => {
          const figure = stats.figures[measure];
          return figure ? [{ ...figure, file: stats.file, format: stats.format }] : [];
        })
        // By value, then by file: the same files give the same choice in any order.
        .sort((a, b) => a.value - b.value || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) || a.line - b.line);
      if (given.length === 0) continue;
      const worst = WORST_NODE_MEASURES.has(measure);
      // The lower median of an even count: a figure some node really reported.
      const chosen = worst ? given[given.length - 1]! : given[Math.floor((given.length - 1) / 2)]!;
      // A node saves one file of each command: tablestats and tablehistograms of one node both give
      // the largest partition, and count once.
      const perFormat = new Map<string, number>();
      for (const entry of given) perFormat.set(entry.format, (perFormat.get(entry.format) ?? 0) + 1);
      const nodes = [...perFormat.values()].reduce((most, count) => Math.max(most, count), 0);
      const figure: MeasuredFigure = {
        value: chosen.value,
        file: chosen.file,
        line: chosen.line,
        nodes,
        from: nodes === 1 ? "one node" : worst ? "worst node" : "median node",
      };
      measurements.figures[measure] = figure;
    }
    combined.set(name, measurements);
  }
  return combined;
}
