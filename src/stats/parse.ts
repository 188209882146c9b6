// Reads one file of `nodetool tablestats` (plain, -H, -F json, -F yaml) or `nodetool
// tablehistograms` output, as Cassandra 3.11 to 5.0 print them. The formats are those of
// Cassandra's TableStatsPrinter, TableStatsHolder and TableHistograms (apache/cassandra,
// src/java/org/apache/cassandra/tools/nodetool/). Pure and total: a file it cannot read gives a
// `stats-invalid` finding with its line, never an exception.
import { pointRange, type Finding } from "../findings.js";
import { readYamlWithPositions } from "../manifest/yaml-positions.js";
import type { SourceFile } from "../source-file.js";
import type { MeasureName, NodeTableStats, StatsFormat } from "./types.js";

export const STATS_RULE = "stats-invalid";

export interface ParsedStatsFile {
  file: string;
  /** undefined when the file is no format cql-review reads */
  format?: StatsFormat;
  tables: NodeTableStats[];
  findings: Finding[];
}

/** The plain (and -H) printer's labels, as every version from 3.11 to 5.0 writes them. */
const PLAIN_LABELS: Record<string, MeasureName> = {
  "SSTable count": "sstables",
  "Number of partitions (estimate)": "partitions",
  "Compacted partition maximum bytes": "partitionBytesMax",
  "Compacted partition mean bytes": "partitionBytesMean",
  "Average live cells per slice (last five minutes)": "liveCellsPerSliceAverage",
  "Maximum live cells per slice (last five minutes)": "liveCellsPerSliceMax",
  "Average tombstones per slice (last five minutes)": "tombstonesPerSliceAverage",
  "Maximum tombstones per slice (last five minutes)": "tombstonesPerSliceMax",
  "Droppable tombstone ratio": "droppableTombstoneRatio",
};

/** The -F json / -F yaml keys (TableStatsHolder.convertStatsTableToMap). */
const MAP_KEYS: Record<string, MeasureName> = {
  sstable_count: "sstables",
  number_of_partitions_estimate: "partitions",
  compacted_partition_maximum_bytes: "partitionBytesMax",
  compacted_partition_mean_bytes: "partitionBytesMean",
  average_live_cells_per_slice_last_five_minutes: "liveCellsPerSliceAverage",
  maximum_live_cells_per_slice_last_five_minutes: "liveCellsPerSliceMax",
  average_tombstones_per_slice_last_five_minutes: "tombstonesPerSliceAverage",
  maximum_tombstones_per_slice_last_five_minutes: "tombstonesPerSliceMax",
  droppable_tombstone_ratio: "droppableTombstoneRatio",
};

/** The last figure every version prints for a table: a section without it was cut off. */
const LAST_PLAIN_LABEL = "Maximum tombstones per slice (last five minutes)";
const SECTION_END_KEY = "maximum_tombstones_per_slice_last_five_minutes";

/** Rows of a tablehistograms table, in the order TableHistograms prints them. */
const HISTOGRAM_ROWS = ["50%", "75%", "95%", "98%", "99%", "Min", "Max"] as const;
const HISTOGRAM_FIGURES: Partial<Record<(typeof HISTOGRAM_ROWS)[number], { bytes: MeasureName; cells: MeasureName }>> = {
  "50%": { bytes: "partitionBytesP50", cells: "cellsP50" },
  "99%": { bytes: "partitionBytesP99", cells: "cellsP99" },
  Max: { bytes: "partitionBytesMax", cells: "cellsMax" },
};

/** Most problems reported per file: a file of garbage says so a few times, not once per line. */
const MAX_FINDINGS_PER_FILE = 5;

const UNITS: Record<string, number> = {
  b: 1,
  byte: 1,
  bytes: 1,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
  tib: 1024 ** 4,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
};

/**
 * A figure as nodetool writes it: a number, `NaN` (no reads in the window: no figure), or with -H a
 * size such as `1.5 MiB` (FileUtils.stringifyFileSize) or `0B` (FBUtilities.prettyPrintMemory).
 * Returns null for NaN, undefined for text that is no figure.
 */
export function readFigure(text: string): number | null | undefined {
  const trimmed = text.trim();
  if (/^(NaN|\.nan|null)$/i.test(trimmed)) return null;
  const match = /^(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)\s*([A-Za-z]+)?$/.exec(trimmed);
  if (!match) return undefined;
  const scale = match[2] === undefined ? 1 : UNITS[match[2].toLowerCase()];
  if (scale === undefined) return undefined;
  const value = Number(match[1]) * scale;
  return Number.isFinite(value) ? value : undefined;
}

interface Lines {
  lines: string[];
  starts: number[];
}

function splitLines(text: string): Lines {
  const lines = text.split("\n");
  const starts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    starts.push(offset);
    offset += line.length + 1;
  }
  return { lines: lines.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line)), starts };
}

/** Which printer wrote the text, from its first lines; undefined when none did. */
export function detectFormat(text: string): StatsFormat | undefined {
  const start = text.trimStart();
  if (start.startsWith("{")) return "tablestats-json";
  if (/^[^\s/]+\/[^\s/]+ histograms[ \t]*\r?$/m.test(text)) return "tablehistograms";
  if (/^Total number of tables: \d+/m.test(text) || /^Keyspace ?: \S/m.test(text) || /^\t+Table(?: \(index\))?: \S/m.test(text)) return "tablestats";
  if (/^total_number_of_tables:/m.test(text) || /^[ ]+tables:[ \t]*\r?$/m.test(text)) return "tablestats-yaml";
  return undefined;
}

class Reporter {
  readonly findings: Finding[] = [];
  private dropped = 0;
  constructor(
    private readonly file: string,
    private readonly lines: Lines,
  ) {}

  report(line: number, message: string, entity: string, column = 1): void {
    if (this.findings.length >= MAX_FINDINGS_PER_FILE) {
      this.dropped++;
      return;
    }
    const offset = (this.lines.starts[line - 1] ?? 0) + column - 1;
    this.findings.push({
      rule: STATS_RULE,
      severity: "warning",
      location: { file: this.file, range: pointRange(line, column, offset) },
      message: `${this.file}:${line}: ${message}`,
      fingerprint: `${STATS_RULE}:${this.file}#${entity}`,
    });
  }

  /** Says how many problems were left out, on the last one shown. */
  finish(): Finding[] {
    const last = this.findings.at(-1);
    if (last && this.dropped > 0) last.message += ` (${this.dropped} more problems in this file are not shown)`;
    return this.findings;
  }
}

/** Reads one stats file. */
export function parseStatsFile(file: SourceFile): ParsedStatsFile {
  const lines = splitLines(file.content);
  const reporter = new Reporter(file.path, lines);
  const format = detectFormat(file.content);
  let tables: NodeTableStats[] = [];
  if (format === undefined) {
    const first = lines.lines.findIndex((line) => line.trim() !== "");
    reporter.report(
      first === -1 ? 1 : first + 1,
      first === -1
        ? "the file is empty; it holds no nodetool output"
        : "this is not output of nodetool tablestats (plain, -H, -F json or -F yaml) or nodetool tablehistograms, so the file was not read",
      "format",
    );
  } else if (format === "tablestats") {
    tables = parsePlain(file, lines, reporter);
  } else if (format === "tablehistograms") {
    tables = parseHistograms(file, lines, reporter);
  } else {
    tables = parseMap(file, format, reporter);
  }
  return { file: file.path, ...(format ? { format } : {}), tables, findings: reporter.finish() };
}

/**
 * nodetool ends its output with a line break: without one, the last line may have been cut in the
 * middle of a number, and is not read.
 */
function lastReadableLine(file: SourceFile, lines: Lines, reporter: Reporter): number {
  let last = lines.lines.length;
  while (last > 0 && lines.lines[last - 1]!.trim() === "") last--;
  // Only whitespace after the last line break: the text was written whole.
  if (last > 0 && !file.content.slice(file.content.trimEnd().length).includes("\n")) {
    reporter.report(last, "the file ends without a line break, in the middle of a line: it looks cut off, and its last line was not read", "cut-off");
    last--;
  }
  return last;
}

function splitQualified(name: string, keyspace: string | undefined): { keyspace: string; table: string } | undefined {
  if (keyspace !== undefined) return { keyspace, table: name };
  const dot = name.indexOf(".");
  if (dot <= 0 || dot === name.length - 1) return undefined;
  return { keyspace: name.slice(0, dot), table: name.slice(dot + 1) };
}

function parsePlain(file: SourceFile, lines: Lines, reporter: Reporter): NodeTableStats[] {
  const tables: NodeTableStats[] = [];
  const last = lastReadableLine(file, lines, reporter);
  let keyspace: string | undefined;
  let current: NodeTableStats | undefined;
  let currentIsIndex = false;
  let sawLastLabel = false;
  /** inside the 4.1+ "Top partitions by …" lists, whose rows are key and figure, not labels */
  let inTopList = false;
  const close = (endLine: number): void => {
    if (current && !sawLastLabel) {
      reporter.report(
        endLine,
        `the section of ${current.keyspace}.${current.table} (line ${current.line}) ends before "${LAST_PLAIN_LABEL}": the output looks cut off, so the figures after line ${endLine} are missing`,
        `cut-off:${current.keyspace}.${current.table}`,
      );
    }
    if (current && !currentIsIndex) tables.push(current);
    current = undefined;
  };
  for (let index = 0; index < last; index++) {
    const lineNumber = index + 1;
    const line = lines.lines[index]!;
    const trimmed = line.trim();
    if (trimmed === "" || /^-+$/.test(trimmed) || /^Total number of tables: /.test(trimmed)) {
      inTopList = false;
      continue;
    }
    const keyspaceMatch = /^Keyspace ?: (.+)$/.exec(line);
    if (keyspaceMatch) {
      close(lineNumber - 1);
      keyspace = keyspaceMatch[1]!.trim();
      inTopList = false;
      continue;
    }
    const tableMatch = /^\s+Table( \(index\))?: (.+)$/.exec(line);
    if (tableMatch) {
      close(lineNumber - 1);
      inTopList = false;
      const name = splitQualified(tableMatch[2]!.trim(), keyspace);
      if (!name) {
        reporter.report(lineNumber, `"${trimmed.slice(0, 80)}" names no keyspace (expected "Keyspace: …" before it, or keyspace.table)`, `table-name:${lineNumber}`);
        continue;
      }
      current = { ...name, file: file.path, format: "tablestats", line: lineNumber, figures: {} };
      currentIsIndex = tableMatch[1] !== undefined;
      sawLastLabel = false;
      continue;
    }
    if (/^\s*Top partitions by .*:$/.test(line)) {
      inTopList = true;
      continue;
    }
    if (inTopList && /^\s/.test(line) && !/^\s+[A-Z][A-Za-z /()-]*: /.test(line)) continue;
    inTopList = false;
    const labelled = /^\s*([A-Za-z][^:]*): ?(.*)$/.exec(line);
    if (!labelled) {
      reporter.report(lineNumber, `"${trimmed.slice(0, 80)}" is not a line of nodetool tablestats output; the file looks garbled`, `garbled:${lineNumber}`);
      continue;
    }
    const label = labelled[1]!.trim();
    if (label === LAST_PLAIN_LABEL) sawLastLabel = true;
    const measure = PLAIN_LABELS[label];
    if (!measure || !current) continue;
    const value = readFigure(labelled[2]!);
    if (value === undefined) {
      reporter.report(lineNumber, `"${label}" has "${labelled[2]!.trim().slice(0, 40)}", which is not a figure`, `figure:${current.keyspace}.${current.table}.${measure}`, label.length + 3);
      continue;
    }
    if (value !== null) current.figures[measure] = { value, line: lineNumber };
  }
  close(last);
  if (tables.length === 0 && reporter.findings.length === 0) reporter.report(1, "the output describes no table", "no-table");
  return tables;
}

function parseHistograms(file: SourceFile, lines: Lines, reporter: Reporter): NodeTableStats[] {
  const tables: NodeTableStats[] = [];
  const last = lastReadableLine(file, lines, reporter);
  let current: NodeTableStats | undefined;
  let rows = 0;
  const close = (endLine: number): void => {
    if (current && rows < HISTOGRAM_ROWS.length) {
      reporter.report(
        endLine,
        `the histograms of ${current.keyspace}.${current.table} (line ${current.line}) stop after ${rows} of the ${HISTOGRAM_ROWS.length} rows (50% to Max): the output looks cut off`,
        `cut-off:${current.keyspace}.${current.table}`,
      );
    }
    if (current) tables.push(current);
    current = undefined;
  };
  for (let index = 0; index < last; index++) {
    const lineNumber = index + 1;
    const line = lines.lines[index]!;
    const trimmed = line.trim();
    if (trimmed === "") continue;
    const header = /^([^\s/]+)\/([^\s/]+) histograms$/.exec(trimmed);
    if (header) {
      close(lineNumber - 1);
      current = { keyspace: header[1]!, table: header[2]!, file: file.path, format: "tablehistograms", line: lineNumber, figures: {} };
      rows = 0;
      continue;
    }
    // The column titles, and the notes TableHistograms prints when it cannot give percentiles.
    if (/^Percentile\b/.test(trimmed) || /^\(micros\)/.test(trimmed) || /^No SSTables exists/.test(trimmed) || /are larger than \d+, unable to calculate percentiles$/.test(trimmed)) {
      continue;
    }
    const row = /^(50%|75%|95%|98%|99%|Min|Max)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)$/.exec(trimmed);
    if (!row || !current) {
      reporter.report(lineNumber, `"${trimmed.slice(0, 80)}" is not a line of nodetool tablehistograms output; the file looks garbled`, `garbled:${lineNumber}`);
      continue;
    }
    const name = row[1] as (typeof HISTOGRAM_ROWS)[number];
    if (HISTOGRAM_ROWS[rows] !== name) {
      reporter.report(lineNumber, `the row "${name}" is out of order (expected ${HISTOGRAM_ROWS[rows] ?? "a new table"}); the file looks garbled`, `order:${lineNumber}`);
      continue;
    }
    rows++;
    const figures = HISTOGRAM_FIGURES[name];
    if (!figures) continue;
    const bytes = readFigure(row[5]!);
    const cells = readFigure(row[6]!);
    if (bytes === undefined || cells === undefined) {
      reporter.report(lineNumber, `the row "${name}" has a partition size or cell count that is not a figure`, `figure:${current.keyspace}.${current.table}.${name}`);
      continue;
    }
    if (bytes !== null) current.figures[figures.bytes] = { value: bytes, line: lineNumber };
    if (cells !== null) current.figures[figures.cells] = { value: cells, line: lineNumber };
  }
  close(last);
  return tables;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A table's map: TableStatsHolder always writes these keys. */
function isTableMap(value: unknown): value is Record<string, unknown> {
  return isRecord(value) && ("sstable_count" in value || "compacted_partition_maximum_bytes" in value || "space_used_live" in value);
}

function parseMap(file: SourceFile, format: "tablestats-json" | "tablestats-yaml", reporter: Reporter): NodeTableStats[] {
  const yaml = readYamlWithPositions(file, { rule: STATS_RULE, noun: "stats file" });
  // The first syntax error is the one to fix; those after it follow from it.
  for (const finding of yaml.findings.slice(0, 1)) {
    reporter.report(finding.location.range.start.line, `${format === "tablestats-json" ? "not valid JSON" : "not valid YAML"}: ${finding.message}`, `syntax:${finding.location.range.start.line}`, finding.location.range.start.column);
  }
  if (yaml.findings.length > 0 || !isRecord(yaml.data)) {
    if (yaml.findings.length === 0) reporter.report(1, "the file holds no mapping of keyspaces and tables, as nodetool tablestats -F json/yaml writes", "shape");
    return [];
  }
  const lineOf = (path: string[]): number => yaml.locate(path, "key").start.line;
  const tables: NodeTableStats[] = [];
  const readTable = (path: string[], keyspace: string, table: string, data: Record<string, unknown>): void => {
    // Secondary indexes are listed as `table.index`: they are not tables of the schema.
    if (table.includes(".")) return;
    const stats: NodeTableStats = { keyspace, table, file: file.path, format, line: lineOf(path), figures: {} };
    for (const [key, measure] of Object.entries(MAP_KEYS)) {
      if (!(key in data)) continue;
      const raw = data[key];
      const value = typeof raw === "number" ? (Number.isFinite(raw) ? raw : null) : typeof raw === "string" ? readFigure(raw) : raw === null ? null : undefined;
      if (value === undefined) {
        reporter.report(lineOf([...path, key]), `${key} of ${keyspace}.${table} is not a figure`, `figure:${keyspace}.${table}.${key}`);
        continue;
      }
      if (value !== null) stats.figures[measure] = { value, line: lineOf([...path, key]) };
    }
    if (!(SECTION_END_KEY in data)) {
      reporter.report(stats.line, `${keyspace}.${table} has no ${SECTION_END_KEY}: the output looks cut off or edited`, `cut-off:${keyspace}.${table}`);
    }
    tables.push(stats);
  };
  for (const [key, value] of Object.entries(yaml.data)) {
    if (key === "total_number_of_tables") continue;
    if (isTableMap(value)) {
      // `-s`/`-t` (sorted) output: tables by `keyspace.table`, no keyspace level.
      const name = splitQualified(key, undefined);
      if (name) readTable([key], name.keyspace, name.table, value);
      else reporter.report(lineOf([key]), `"${key}" is neither a keyspace nor keyspace.table`, `shape:${key}`);
      continue;
    }
    if (!isRecord(value) || !isRecord(value["tables"])) {
      reporter.report(lineOf([key]), `"${key}" holds no "tables" mapping, as nodetool tablestats -F ${format === "tablestats-json" ? "json" : "yaml"} writes for a keyspace`, `shape:${key}`);
      continue;
    }
    for (const [table, data] of Object.entries(value["tables"])) {
      if (isRecord(data)) readTable([key, "tables", table], key, table, data);
      else reporter.report(lineOf([key, "tables", table]), `${key}.${table} holds no figures`, `shape:${key}.${table}`);
    }
  }
  if (tables.length === 0 && reporter.findings.length === 0) reporter.report(1, "the output describes no table", "no-table");
  return tables;
}
