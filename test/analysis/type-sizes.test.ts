import { describe, expect, it } from "vitest";
import {
  DEFAULT_SIZES,
  counterContextBytes,
  engineFixedWidth,
  signedVintSize,
  sizeValue,
  vintSize,
} from "../../src/analysis/type-sizes.js";
import { columnType, type UserTypes } from "./estimator-helpers.js";

const address: UserTypes = {
  address: [
    { name: "street", type: "text" },
    { name: "city", type: "text" },
    { name: "state_or_province", type: "text" },
    { name: "postal_code", type: "text" },
    { name: "country", type: "text" },
  ],
};

const size = (type: string, bytes?: number, userTypes?: UserTypes) =>
  sizeValue(columnType(type, userTypes), bytes === undefined ? undefined : { kind: "bytes", bytes });

const simpleEngineBytes = (type: string, bytes?: number) => {
  const engine = size(type, bytes).engine;
  if (engine.kind !== "simple") throw new Error(`${type} is not a simple column`);
  return engine.valueBytes;
};

describe("vintSize (VIntCoding)", () => {
  it("takes one byte per 7 bits of the value", () => {
    expect([0, 1, 127].map(vintSize)).toEqual([1, 1, 1]);
    expect([128, 16_383].map(vintSize)).toEqual([2, 2]);
    expect(vintSize(16_384)).toBe(3);
    expect(vintSize(2 ** 28 - 1)).toBe(4);
    expect(vintSize(2 ** 28)).toBe(5);
    expect(vintSize(2 ** 42 - 1)).toBe(6);
    expect(vintSize(2 ** 49)).toBe(8);
  });

  it("zig-zags signed values first", () => {
    expect(signedVintSize(0)).toBe(1);
    expect(signedVintSize(-1)).toBe(1);
    expect(signedVintSize(63)).toBe(1);
    expect(signedVintSize(64)).toBe(2);
    expect(signedVintSize(-65)).toBe(2);
  });
});

describe("classic sizes (the Cassandra docs' sizing formula)", () => {
  it("fixes the size of fixed-width natives whatever the manifest says", () => {
    const sizes = ["boolean", "tinyint", "smallint", "int", "float", "date", "bigint", "double", "timestamp", "time", "counter", "uuid", "timeuuid"].map(
      (t) => size(t, 99).classicBytes,
    );
    expect(sizes).toEqual([1, 1, 2, 4, 4, 4, 8, 8, 8, 8, 8, 16, 16]);
  });

  it("takes variable-width sizes from the manifest, else from the stated defaults", () => {
    expect(size("text", 30)).toMatchObject({ classicBytes: 30, defaulted: false, cells: 1 });
    expect(size("text")).toMatchObject({ classicBytes: DEFAULT_SIZES.text, defaulted: true });
    expect(size("varchar").classicBytes).toBe(DEFAULT_SIZES.text);
    expect(size("blob").classicBytes).toBe(DEFAULT_SIZES.blob);
    expect(size("inet").classicBytes).toBe(16);
    expect(size("inet", 4).classicBytes).toBe(4);
    expect(size("varint").classicBytes).toBe(DEFAULT_SIZES.varint);
    expect(size("decimal").classicBytes).toBe(4 + DEFAULT_SIZES.varint);
    expect(size("duration").classicBytes).toBe(DEFAULT_SIZES.duration);
  });

  it("sizes frozen collections as 4 + Σ(4 + element) and maps as 4 + Σ(4 + key + 4 + value)", () => {
    const set = sizeValue(columnType("frozen<set<text>>"), { kind: "collection", items: 5, bytesPerItem: 15 });
    expect(set.classicBytes).toBe(99);
    expect(set.cells).toBe(1);
    const list = sizeValue(columnType("frozen<list<int>>"), { kind: "collection", items: 10, bytesPerItem: 4 });
    expect(list.classicBytes).toBe(4 + 10 * 8);
    const map = sizeValue(columnType("frozen<map<text, text>>"), { kind: "collection", items: 2, bytesPerItem: 20, keyBytes: 8 });
    expect(map.classicBytes).toBe(4 + 2 * (4 + 8 + 4 + 20));
  });

  it("gives a map's item bytes to its key when the value is fixed-width", () => {
    const map = sizeValue(columnType("map<text, int>"), { kind: "collection", items: 3, bytesPerItem: 10 });
    expect(map.classicBytes).toBe(4 + 3 * (4 + 10 + 4 + 4));
  });

  it("defaults a collection to a few items of default-sized elements", () => {
    const tags = size("set<text>");
    expect(tags.cells).toBe(DEFAULT_SIZES.collectionItems);
    expect(tags.classicBytes).toBe(4 + DEFAULT_SIZES.collectionItems * (4 + DEFAULT_SIZES.text));
    expect(tags.defaulted).toBe(true);
    // Fixed-width elements still default their count.
    expect(size("list<int>").defaulted).toBe(true);
  });

  it("sizes a non-frozen collection like a frozen one but counts one cell per element", () => {
    const frozen = sizeValue(columnType("frozen<set<text>>"), { kind: "collection", items: 5, bytesPerItem: 15 });
    const multiCell = sizeValue(columnType("set<text>"), { kind: "collection", items: 5, bytesPerItem: 15 });
    expect(multiCell.classicBytes).toBe(frozen.classicBytes);
    expect(multiCell.cells).toBe(5);
    expect(frozen.cells).toBe(1);
  });

  it("sizes UDTs and tuples as Σ(4 + field)", () => {
    expect(size("frozen<address>", undefined, address).classicBytes).toBe(5 * (4 + DEFAULT_SIZES.text));
    expect(size("frozen<address>", 85, address)).toMatchObject({ classicBytes: 85, defaulted: false });
    expect(size("tuple<int, text>").classicBytes).toBe(4 + 4 + 4 + DEFAULT_SIZES.text);
    const multiCell = size("address", undefined, address);
    expect(multiCell.cells).toBe(5);
    expect(multiCell.classicBytes).toBe(5 * (4 + DEFAULT_SIZES.text));
  });

  it("sizes vectors as 4·n for floats and 8·n for doubles", () => {
    expect(size("vector<float, 3>").classicBytes).toBe(12);
    expect(size("vector<double, 768>").classicBytes).toBe(6144);
  });

  it("sizes undeclared and custom types like a default blob", () => {
    expect(size("no_such_type")).toMatchObject({ classicBytes: DEFAULT_SIZES.blob, defaulted: true });
  });
});

describe("engine encodings (the 3.0+ storage format)", () => {
  it("writes declared fixed-width types raw and everything else with a length vint", () => {
    expect(simpleEngineBytes("boolean")).toBe(1);
    expect(simpleEngineBytes("int")).toBe(4);
    expect(simpleEngineBytes("timestamp")).toBe(8);
    expect(simpleEngineBytes("uuid")).toBe(16);
    // tinyint, smallint, date and time do not declare a fixed length in Cassandra.
    expect(simpleEngineBytes("tinyint")).toBe(2);
    expect(simpleEngineBytes("smallint")).toBe(3);
    expect(simpleEngineBytes("date")).toBe(5);
    expect(simpleEngineBytes("time")).toBe(9);
    expect(simpleEngineBytes("text", 30)).toBe(31);
    expect(simpleEngineBytes("text", 200)).toBe(202);
    expect(engineFixedWidth(columnType("vector<float, 3>"))).toBe(12);
    expect(engineFixedWidth(columnType("vector<text, 3>"))).toBeNull();
  });

  it("stores a counter as a 36-byte context per shard, length-prefixed", () => {
    expect(counterContextBytes(1)).toBe(36);
    expect(counterContextBytes(3)).toBe(2 + 3 * 34);
    expect(simpleEngineBytes("counter")).toBe(37);
  });

  it("stores a set's elements in cell paths with empty values", () => {
    const pois = sizeValue(columnType("set<text>"), { kind: "collection", items: 5, bytesPerItem: 15 });
    expect(pois.engine).toEqual({ kind: "complex", cells: [{ count: 5, pathBytes: 16, valueBytes: 0 }] });
  });

  it("keys list cells by a timeuuid path and map cells by the key", () => {
    const list = sizeValue(columnType("list<int>"), { kind: "collection", items: 4, bytesPerItem: 4 });
    expect(list.engine).toEqual({ kind: "complex", cells: [{ count: 4, pathBytes: 17, valueBytes: 4 }] });
    const map = sizeValue(columnType("map<text, text>"), { kind: "collection", items: 2, bytesPerItem: 20, keyBytes: 8 });
    expect(map.engine).toEqual({ kind: "complex", cells: [{ count: 2, pathBytes: 9, valueBytes: 21 }] });
  });

  it("spreads a stated total over a non-frozen collection's default item count", () => {
    const pois = size("set<text>", 99);
    expect(pois.classicBytes).toBe(99);
    expect(pois.cells).toBe(DEFAULT_SIZES.collectionItems);
    expect(pois.engine).toEqual({ kind: "complex", cells: [{ count: 5, pathBytes: 16, valueBytes: 0 }] });
  });

  it("keys non-frozen UDT cells by the field position", () => {
    const value = size("address", undefined, address);
    if (value.engine.kind !== "complex") throw new Error("expected a complex column");
    expect(value.engine.cells).toHaveLength(5);
    expect(value.engine.cells[0]).toEqual({ count: 1, pathBytes: 3, valueBytes: 1 + DEFAULT_SIZES.text });
  });

  it("spreads a stated UDT total over its variable-width fields", () => {
    const value = sizeValue(columnType("address", address), { kind: "bytes", bytes: 85 });
    expect(value.classicBytes).toBe(85);
    if (value.engine.kind !== "complex") throw new Error("expected a complex column");
    // (85 − 5 × 4) ÷ 5 = 13 bytes a field, written with a 1-byte length.
    expect(value.engine.cells.map((c) => c.valueBytes)).toEqual([14, 14, 14, 14, 14]);
  });

  it("length-prefixes frozen collections and UDTs as one value", () => {
    expect(simpleEngineBytes("frozen<set<int>>")).toBe(1 + 4 + DEFAULT_SIZES.collectionItems * 8);
    expect(sizeValue(columnType("frozen<address>", address), { kind: "bytes", bytes: 85 }).engine).toEqual({ kind: "simple", valueBytes: 86 });
  });
});
