import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { detectFormat, parseStatsFile, readFigure } from "../../src/stats/parse.js";

const FIXTURES = new URL("../fixtures/stats/", import.meta.url);
const read = (name: string) => ({ path: `stats/${name}`, content: readFileSync(new URL(name, FIXTURES), "utf8") });
const values = (figures: Record<string, { value: number } | undefined>) =>
  Object.fromEntries(Object.entries(figures).map(([name, figure]) => [name, figure?.value]));

// The same two tables, as each version and form prints them.
const TABLESTATS = [
  ["3.11-plain.txt", "tablestats"],
  ["3.11-human.txt", "tablestats"],
  ["3.11.json", "tablestats-json"],
  ["3.11.yaml", "tablestats-yaml"],
  ["4.0-plain.txt", "tablestats"],
  ["4.0-human.txt", "tablestats"],
  ["4.0.json", "tablestats-json"],
  ["4.0.yaml", "tablestats-yaml"],
  ["4.1-plain.txt", "tablestats"],
  ["4.1-human.txt", "tablestats"],
  ["4.1.json", "tablestats-json"],
  ["4.1.yaml", "tablestats-yaml"],
  ["5.0-plain.txt", "tablestats"],
  ["5.0-human.txt", "tablestats"],
  ["5.0-sorted.txt", "tablestats"],
  ["5.0.json", "tablestats-json"],
  ["5.0.yaml", "tablestats-yaml"],
] as const;

describe("parseStatsFile: nodetool tablestats", () => {
  for (const [name, format] of TABLESTATS) {
    it(`reads ${name}`, () => {
      const parsed = parseStatsFile(read(name));
      expect(parsed.findings.map((f) => f.message)).toEqual([]);
      expect(parsed.format).toBe(format);
      const byName = new Map(parsed.tables.map((table) => [`${table.keyspace}.${table.table}`, table]));
      // Secondary indexes (`Table (index): carts.carts_by_sku`) are not tables of the schema.
      expect([...byName.keys()].sort()).toEqual(["shop.carts", "shop.orders_by_customer"]);
      const orders = byName.get("shop.orders_by_customer")!;
      expect(values(orders.figures)).toMatchObject({
        sstables: 11,
        partitions: 210_400,
        partitionBytesMax: 52_066_354,
        partitionBytesMean: 10_841,
        liveCellsPerSliceAverage: 18,
        liveCellsPerSliceMax: 1109,
        tombstonesPerSliceMax: 0,
      });
      // NaN (no reads in the window) is no figure.
      expect(orders.figures.tombstonesPerSliceAverage).toBeUndefined();
      const carts = byName.get("shop.carts")!;
      expect(values(carts.figures)).toMatchObject({ partitionBytesMax: 8239, tombstonesPerSliceAverage: 1, tombstonesPerSliceMax: 2 });
      if (name.startsWith("4.1") || name.startsWith("5.0")) expect(carts.figures.droppableTombstoneRatio?.value).toBe(0.0012);
      else expect(carts.figures.droppableTombstoneRatio).toBeUndefined();
    });
  }

  it("remembers the line of each figure and of the table's section", () => {
    const parsed = parseStatsFile(read("3.11-plain.txt"));
    const orders = parsed.tables.find((t) => t.table === "orders_by_customer")!;
    const lines = read("3.11-plain.txt").content.split("\n");
    expect(lines[orders.line - 1]).toContain("Table: orders_by_customer");
    expect(lines[orders.figures.partitionBytesMax!.line - 1]).toContain("Compacted partition maximum bytes: 52066354");
    const json = parseStatsFile(read("5.0.json")).tables.find((t) => t.table === "orders_by_customer")!;
    expect(read("5.0.json").content.split("\n")[json.figures.partitionBytesMax!.line - 1]).toContain('"compacted_partition_maximum_bytes" : 52066354');
  });
});

describe("parseStatsFile: nodetool tablehistograms", () => {
  it("reads the percentiles of partition size and cell count (3.11 column order)", () => {
    const parsed = parseStatsFile(read("histograms-3.11.txt"));
    expect(parsed.findings).toEqual([]);
    expect(parsed.format).toBe("tablehistograms");
    expect(parsed.tables).toHaveLength(1);
    expect(values(parsed.tables[0]!.figures)).toEqual({
      partitionBytesP50: 9887,
      partitionBytesP99: 379_022,
      partitionBytesMax: 52_066_354,
      cellsP50: 258,
      cellsP99: 9887,
      cellsMax: 1_358_102,
    });
  });

  it("reads several tables (4.0+ column order), and a table without SSTables gives no figures", () => {
    const parsed = parseStatsFile(read("histograms-5.0.txt"));
    expect(parsed.findings).toEqual([]);
    expect(parsed.tables.map((t) => t.table)).toEqual(["carts", "audit_log"]);
    expect(values(parsed.tables[0]!.figures)).toMatchObject({ partitionBytesMax: 8239, cellsMax: 215, cellsP99: 124 });
    expect(parsed.tables[1]!.figures).toEqual({});
  });
});

describe("parseStatsFile: bad input", () => {
  const messages = (path: string, content: string) => parseStatsFile({ path, content }).findings.map((f) => [f.location.range.start.line, f.message]);

  it("a file cut off in the middle of a table says where", () => {
    const whole = read("4.0-plain.txt").content;
    const cut = whole.slice(0, whole.indexOf("Compacted partition maximum bytes: 52066354") + "Compacted partition maximum bytes: 5206".length);
    const parsed = parseStatsFile({ path: "stats/node1.txt", content: cut });
    const lastLine = cut.split("\n").length;
    expect(parsed.findings.map((f) => f.location.range.start.line)).toEqual([lastLine, lastLine - 1]);
    expect(parsed.findings[0]!.message).toMatch(/^stats\/node1\.txt:\d+: the file ends without a line break/);
    expect(parsed.findings[1]!.message).toMatch(/section of shop\.orders_by_customer \(line \d+\) ends before "Maximum tombstones per slice/);
    // The cut figure is not read; the rest of the file is.
    const orders = parsed.tables.find((t) => t.table === "orders_by_customer")!;
    expect(orders.figures.partitionBytesMax).toBeUndefined();
    expect(orders.figures.sstables?.value).toBe(11);
    expect(parsed.tables.find((t) => t.table === "carts")!.figures.partitionBytesMax?.value).toBe(8239);
  });

  it("a garbled line and a value that is no figure are named with their lines", () => {
    const text = read("3.11-plain.txt").content.replace("Compacted partition mean bytes: 1331", "Compacted partition mean bytes: 13x1").replace("\t\tPending flushes: 0\n", "\t\t%%%garbage\n");
    expect(messages("stats/n.txt", text)).toEqual([
      [25, 'stats/n.txt:25: "%%%garbage" is not a line of nodetool tablestats output; the file looks garbled'],
      [35, 'stats/n.txt:35: "Compacted partition mean bytes" has "13x1", which is not a figure'],
    ]);
  });

  it("an unknown format is one finding at its first line", () => {
    expect(messages("stats/notes.txt", "\n\nDatacenter: dc1\n=======\nUN  10.0.0.1  1.2 GiB\n")).toEqual([
      [3, "stats/notes.txt:3: this is not output of nodetool tablestats (plain, -H, -F json or -F yaml) or nodetool tablehistograms, so the file was not read"],
    ]);
    expect(messages("stats/empty.txt", "")).toEqual([[1, "stats/empty.txt:1: the file is empty; it holds no nodetool output"]]);
  });

  it("JSON that does not parse gives its line", () => {
    const text = read("4.0.json").content;
    const broken = text.slice(0, text.indexOf('"sstable_count"'));
    const found = parseStatsFile({ path: "stats/n.json", content: broken }).findings;
    expect(found).toHaveLength(1);
    expect(found[0]!.message).toMatch(/^stats\/n\.json:\d+: not valid JSON: /);
  });

  it("histograms that stop early are reported", () => {
    const text = read("histograms-3.11.txt").content.split("\n").slice(0, 7).join("\n") + "\n";
    expect(messages("stats/h.txt", text)).toEqual([
      [7, "stats/h.txt:7: the histograms of shop.orders_by_customer (line 1) stop after 4 of the 7 rows (50% to Max): the output looks cut off"],
    ]);
  });

  it("a file of garbage says so a few times, not once per line", () => {
    const text = `Total number of tables: 3\n${"x y z\n".repeat(200)}`;
    const found = parseStatsFile({ path: "g.txt", content: text }).findings;
    expect(found).toHaveLength(5);
    expect(found.at(-1)!.message).toMatch(/\(\d+ more problems in this file are not shown\)$/);
  });
});

describe("readFigure and detectFormat", () => {
  it("reads numbers, NaN and the sizes -H prints", () => {
    expect(readFigure("52066354")).toBe(52_066_354);
    expect(readFigure("NaN")).toBeNull();
    expect(readFigure("1.5 MiB")).toBe(1.5 * 1024 * 1024);
    expect(readFigure("0B")).toBe(0);
    expect(readFigure("12 bytes")).toBe(12);
    expect(readFigure("1.200KiB")).toBeCloseTo(1228.8);
    expect(readFigure("twelve")).toBeUndefined();
    expect(readFigure("3 parsecs")).toBeUndefined();
  });

  it("tells the formats apart", () => {
    expect(detectFormat('{\n  "ks" : {')).toBe("tablestats-json");
    expect(detectFormat("ks/t histograms\nPercentile")).toBe("tablehistograms");
    expect(detectFormat("Total number of tables: 3\n")).toBe("tablestats");
    expect(detectFormat("ks:\n  tables:\n    t:\n")).toBe("tablestats-yaml");
    expect(detectFormat("hello")).toBeUndefined();
  });
});
