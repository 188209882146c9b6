import { describe, expect, it } from "vitest";
import { combineStats } from "../../src/stats/combine.js";
import type { NodeTableStats } from "../../src/stats/types.js";

const node = (file: string, figures: NodeTableStats["figures"], table = "events"): NodeTableStats => ({
  keyspace: "iot",
  table,
  file,
  format: "tablestats",
  line: 3,
  figures,
});

describe("combineStats", () => {
  it("takes maxima from the worst node and means and percentiles from the median node", () => {
    const combined = combineStats([
      node("stats/n1.txt", { partitionBytesMax: { value: 20_000_000, line: 30 }, partitionBytesMean: { value: 9000, line: 31 }, tombstonesPerSliceMax: { value: 4, line: 40 } }),
      node("stats/n3.txt", { partitionBytesMax: { value: 140_000_000, line: 30 }, partitionBytesMean: { value: 400_000, line: 31 }, tombstonesPerSliceMax: { value: 2, line: 40 } }),
      node("stats/n2.txt", { partitionBytesMax: { value: 35_000_000, line: 30 }, partitionBytesMean: { value: 11_000, line: 31 } }),
    ]).get("iot.events")!;
    expect(combined.figures.partitionBytesMax).toEqual({ value: 140_000_000, file: "stats/n3.txt", line: 30, nodes: 3, from: "worst node" });
    // One node's odd mean does not move the typical figure.
    expect(combined.figures.partitionBytesMean).toEqual({ value: 11_000, file: "stats/n2.txt", line: 31, nodes: 3, from: "median node" });
    expect(combined.figures.tombstonesPerSliceMax).toMatchObject({ value: 4, file: "stats/n1.txt", nodes: 2 });
    expect(combined.files).toEqual(["stats/n1.txt", "stats/n2.txt", "stats/n3.txt"]);
  });

  it("a node's tablestats and tablehistograms count as one node", () => {
    const histograms: NodeTableStats = { ...node("stats/n1-histograms.txt", { partitionBytesMax: { value: 30_000_000, line: 10 } }), format: "tablehistograms" };
    const combined = combineStats([node("stats/n1.txt", { partitionBytesMax: { value: 29_000_000, line: 30 } }), histograms]).get("iot.events")!;
    expect(combined.figures.partitionBytesMax).toEqual({ value: 30_000_000, file: "stats/n1-histograms.txt", line: 10, nodes: 1, from: "one node" });
  });

  it("an even count takes the lower median, a figure some node reported; one file is one node", () => {
    const combined = combineStats([
      node("b.txt", { partitionBytesMean: { value: 300, line: 1 } }),
      node("a.txt", { partitionBytesMean: { value: 100, line: 1 } }),
      node("a.txt", { partitionBytesMean: { value: 7, line: 9 } }, "other"),
    ]);
    expect(combined.get("iot.events")!.figures.partitionBytesMean).toMatchObject({ value: 100, file: "a.txt", from: "median node" });
    expect(combined.get("iot.other")!.figures.partitionBytesMean).toMatchObject({ value: 7, nodes: 1, from: "one node" });
  });
});
