// Byte sizes of CQL values: the classic `sizeOf` of the Cassandra docs' sizing
// formula (https://cassandra.apache.org/doc/latest/cassandra/developing/data-modeling/data-modeling_refining.html), and how the 3.0+
// storage engine encodes the same value (§6). Facts from apache/cassandra: AbstractType
// `valueLengthIfFixed`, the type serializers, CollectionType's cell-path serializer, VIntCoding and
// CounterContext.
import type { NativeTypeName } from "../cql/ast.js";
import type { ColumnSize } from "../manifest/types.js";
import type { ColumnType } from "../schema/model.js";

/**
 * Sizes assumed when the manifest states none. Estimates name every column sized this way
 * (`defaultedColumns`), so a reader knows which figures to state for real.
 */
export const DEFAULT_SIZES = {
  /** text, varchar, ascii: a name, a code, a short label; emails, titles and bodies should be stated */
  text: 16,
  /** blob: a hash or a small serialized payload; images and documents should be stated */
  blob: 64,
  /** varint: minimal two's complement of a value in a bigint's range */
  varint: 8,
  /** decimal: 4-byte scale plus an unscaled integer as wide as the varint default */
  decimal: 12,
  /** inet: IPv6 (16) rather than IPv4 (4), so the worst partition is not understated */
  inet: 16,
  /** duration: three vints; 1 + 1 + 7 covers months, days and nanoseconds up to several hours */
  duration: 9,
  /** elements of a collection: collections are meant to stay small (a few tags, phones, addresses) */
  collectionItems: 5,
  /** counter shards: one global shard per counter, as a counter updated through one leader has */
  counterShards: 1,
} as const;

/** Classic sizeOf of the natives whose size the type fixes (the Cassandra docs' sizing formula). */
const CLASSIC_FIXED: Partial<Record<NativeTypeName, number>> = {
  boolean: 1,
  tinyint: 1,
  smallint: 2,
  int: 4,
  float: 4,
  date: 4,
  bigint: 8,
  double: 8,
  timestamp: 8,
  time: 8,
  counter: 8,
  uuid: 16,
  timeuuid: 16,
};

/**
 * The natives the engine writes without a length (`valueLengthIfFixed` ≠ -1). tinyint, smallint,
 * date and time are fixed in size but not declared so, hence written with a length vint.
 */
const ENGINE_FIXED: Partial<Record<NativeTypeName, number>> = {
  boolean: 1,
  int: 4,
  float: 4,
  bigint: 8,
  double: 8,
  timestamp: 8,
  uuid: 16,
  timeuuid: 16,
};

const VARIABLE_DEFAULTS: Partial<Record<NativeTypeName, number>> = {
  text: DEFAULT_SIZES.text,
  varchar: DEFAULT_SIZES.text,
  ascii: DEFAULT_SIZES.text,
  blob: DEFAULT_SIZES.blob,
  varint: DEFAULT_SIZES.varint,
  decimal: DEFAULT_SIZES.decimal,
  inet: DEFAULT_SIZES.inet,
  duration: DEFAULT_SIZES.duration,
};

/** Bytes of an unsigned vint (VIntCoding.computeUnsignedVIntSize): 7 bits a byte, 9 bytes at most. */
export function vintSize(value: number): number {
  const v = Math.max(0, Math.floor(value));
  const bits = v === 0 ? 1 : Math.floor(Math.log2(v)) + 1;
  return Math.min(9, Math.floor((63 + 9 * bits) / 64));
}

/** Bytes of a signed vint (zig-zag encoded first), as durations use. */
export function signedVintSize(value: number): number {
  return vintSize(value >= 0 ? 2 * value : -2 * value - 1);
}

/** Bytes of a counter context of `shards` global shards: count + index per shard + (id, clock, count). */
export function counterContextBytes(shards: number = DEFAULT_SIZES.counterShards): number {
  return 2 + shards * (2 + 16 + 8 + 8);
}

/** How the engine writes the column's data inside a row (cell headers and timestamps excluded). */
export type EngineEncoding =
  | {
      kind: "simple";
      /** enc(v): raw bytes for fixed-width types, vint(length) + bytes otherwise */
      valueBytes: number;
    }
  | {
      /** a non-frozen collection or UDT: one cell per element (field) */
      kind: "complex";
      /** groups of identical cells: each cell is flags + path (vint length + bytes) + value */
      cells: { count: number; pathBytes: number; valueBytes: number }[];
    };

export interface SizedValue {
  /** classic sizeOf, bytes */
  classicBytes: number;
  /** cells the engine stores: 1, or one per element (field) of a non-frozen collection (UDT) */
  cells: number;
  engine: EngineEncoding;
  /** some size or item count came from DEFAULT_SIZES rather than the manifest */
  defaulted: boolean;
}

/** A value's classic size and its engine encoding, from the manifest's figure when there is one. */
export function sizeValue(type: ColumnType, size?: ColumnSize): SizedValue {
  if ((type.kind === "list" || type.kind === "set" || type.kind === "map") && !type.frozen) {
    return sizeMultiCellCollection(type, size);
  }
  if (type.kind === "udt" && !type.frozen) return sizeMultiCellUserType(type, size);
  const measured = measure(type, size);
  return {
    classicBytes: measured.classic,
    cells: 1,
    engine: { kind: "simple", valueBytes: measured.encoded },
    defaulted: measured.defaulted,
  };
}

/** Whether the engine writes values of this type without a length. */
export function engineFixedWidth(type: ColumnType): number | null {
  if (type.kind === "native") return ENGINE_FIXED[type.name] ?? null;
  if (type.kind === "vector") {
    const element = engineFixedWidth(type.element);
    return element === null ? null : element * type.dimension;
  }
  return null;
}

interface Measured {
  /** classic sizeOf: the serialized value's length */
  classic: number;
  /** enc(v) */
  encoded: number;
  defaulted: boolean;
}

function variableLength(classic: number, defaulted: boolean): Measured {
  const bytes = Math.max(0, Math.round(classic));
  return { classic: classic, encoded: vintSize(bytes) + bytes, defaulted };
}

/** Reads a manifest size as a total byte count (a collection figure becomes items × bytes). */
function totalBytes(size: ColumnSize | undefined): number | undefined {
  if (!size) return undefined;
  if (size.kind === "bytes") return size.bytes;
  return size.items * (size.bytesPerItem + (size.keyBytes ?? 0));
}

function measure(type: ColumnType, size?: ColumnSize): Measured {
  switch (type.kind) {
    case "native":
      return measureNative(type.name, size);
    case "list":
    case "set":
    case "map": {
      const given = size?.kind === "bytes" ? size.bytes : undefined;
      if (given !== undefined) return variableLength(given, false);
      const elements = collectionElements(type, size);
      return variableLength(elements.classic, elements.defaulted);
    }
    case "tuple":
    case "udt": {
      const given = totalBytes(size);
      if (given !== undefined) return variableLength(given, false);
      const fields = type.kind === "tuple" ? type.elements : type.fields.map((f) => f.type);
      let classic = 0;
      let defaulted = false;
      for (const field of fields) {
        const m = measure(field);
        classic += 4 + m.classic;
        defaulted ||= m.defaulted;
      }
      return variableLength(classic, defaulted);
    }
    case "vector": {
      const fixed = engineFixedWidth(type);
      if (fixed !== null) return { classic: fixed, encoded: fixed, defaulted: false };
      // Variable-width elements are each written with a vint length (VectorType).
      const perElement = size?.kind === "collection" ? size.bytesPerItem : undefined;
      const element = measure(type.element, perElement === undefined ? undefined : { kind: "bytes", bytes: perElement });
      const elementBytes = Math.round(element.classic);
      const classic = type.dimension * (vintSize(elementBytes) + elementBytes);
      return variableLength(classic, element.defaulted);
    }
    case "custom":
    case "unknown": {
      const given = totalBytes(size);
      return variableLength(given ?? DEFAULT_SIZES.blob, given === undefined);
    }
  }
}

function measureNative(name: NativeTypeName, size?: ColumnSize): Measured {
  if (name === "counter") {
    const context = counterContextBytes();
    return { classic: CLASSIC_FIXED.counter ?? 8, encoded: vintSize(context) + context, defaulted: false };
  }
  const fixed = CLASSIC_FIXED[name];
  if (fixed !== undefined) {
    const engine = ENGINE_FIXED[name];
    return { classic: fixed, encoded: engine ?? vintSize(fixed) + fixed, defaulted: false };
  }
  const given = totalBytes(size);
  return variableLength(given ?? VARIABLE_DEFAULTS[name] ?? DEFAULT_SIZES.blob, given === undefined);
}

interface CollectionElements {
  items: number;
  /** bytes of one element (list/set) or one value (map) */
  element: Measured;
  /** maps: bytes of one key */
  key?: Measured;
  /** the frozen serialized size: 4 + Σ(4 + element) or 4 + Σ(4 + key + 4 + value) */
  classic: number;
  defaulted: boolean;
}

/**
 * Elements of a collection from a `{ items, bytes, keyBytes }` figure, a total byte figure, or the
 * defaults. The item figure sizes the variable-width part: a map's value, or its key when the
 * value is fixed-width and no key size is given.
 */
function collectionElements(
  type: Extract<ColumnType, { kind: "list" | "set" | "map" }>,
  size?: ColumnSize,
): CollectionElements {
  const valueType = type.kind === "map" ? type.value : type.element;
  const items = size?.kind === "collection" ? Math.max(0, size.items) : DEFAULT_SIZES.collectionItems;
  const itemsDefaulted = size?.kind !== "collection";

  let perItem: number | undefined;
  let perKey: number | undefined;
  if (size?.kind === "collection") {
    perItem = size.bytesPerItem;
    perKey = size.keyBytes;
  } else if (size?.kind === "bytes" && items > 0) {
    // A total figure: spread what is left after the count and length prefixes over the items.
    const overhead = type.kind === "map" ? 8 : 4;
    const share = Math.max(0, (size.bytes - 4) / items - overhead);
    if (type.kind === "map") {
      const keyFixed = fixedClassic(type.key);
      const valueFixed = fixedClassic(type.value);
      if (keyFixed !== null) perItem = Math.max(0, share - keyFixed);
      else if (valueFixed !== null) perKey = Math.max(0, share - valueFixed);
      else {
        perKey = share / 2;
        perItem = share / 2;
      }
    } else perItem = share;
  }

  if (type.kind === "map" && perKey === undefined && perItem !== undefined && fixedClassic(type.value) !== null) {
    perKey = perItem;
  }
  const element = measure(valueType, perItem === undefined ? undefined : { kind: "bytes", bytes: perItem });
  const key = type.kind === "map" ? measure(type.key, perKey === undefined ? undefined : { kind: "bytes", bytes: perKey }) : undefined;
  const perEntry = key ? 4 + key.classic + 4 + element.classic : 4 + element.classic;
  const defaulted = element.defaulted || (key?.defaulted ?? false) || (itemsDefaulted && size?.kind !== "bytes");
  return { items, element, key, classic: 4 + items * perEntry, defaulted };
}

/** The classic size when the type alone fixes it. */
function fixedClassic(type: ColumnType): number | null {
  if (type.kind === "native") return CLASSIC_FIXED[type.name] ?? null;
  return engineFixedWidth(type);
}

function sizeMultiCellCollection(type: Extract<ColumnType, { kind: "list" | "set" | "map" }>, size?: ColumnSize): SizedValue {
  const elements = collectionElements(type, size);
  const classicBytes = size?.kind === "bytes" ? size.bytes : elements.classic;
  let pathBytes: number;
  let valueBytes: number;
  if (type.kind === "list") {
    // A list cell's path is a timeuuid; its value is the element.
    pathBytes = vintSize(16) + 16;
    valueBytes = elements.element.encoded;
  } else if (type.kind === "set") {
    // A set cell's path is the element (always length-prefixed); its value is empty and not written.
    const element = Math.round(elements.element.classic);
    pathBytes = vintSize(element) + element;
    valueBytes = 0;
  } else {
    const key = Math.round(elements.key?.classic ?? 0);
    pathBytes = vintSize(key) + key;
    valueBytes = elements.element.encoded;
  }
  return {
    classicBytes,
    cells: elements.items,
    engine: { kind: "complex", cells: [{ count: elements.items, pathBytes, valueBytes }] },
    defaulted: size?.kind === "bytes" ? false : elements.defaulted,
  };
}

function sizeMultiCellUserType(type: Extract<ColumnType, { kind: "udt" }>, size?: ColumnSize): SizedValue {
  const variableField = type.fields.map((f) => fixedClassic(f.type) === null);
  let sized = type.fields.map((f) => measure(f.type));
  const given = totalBytes(size);
  if (given !== undefined) {
    // Spread the stated total over the variable-width fields; fixed-width fields keep their size.
    const variableCount = variableField.filter(Boolean).length;
    const fixedTotal = sized.reduce((sum, m, i) => sum + 4 + (variableField[i] ? 0 : m.classic), 0);
    const share = variableCount > 0 ? Math.max(0, (given - fixedTotal) / variableCount) : 0;
    sized = sized.map((m, i) => (variableField[i] ? variableLength(share, false) : m));
  }
  const classicBytes = given ?? sized.reduce((sum, m) => sum + 4 + m.classic, 0);
  // A field's cell path is its position as a 2-byte short, length-prefixed.
  const pathBytes = vintSize(2) + 2;
  return {
    classicBytes,
    cells: sized.length,
    engine: { kind: "complex", cells: sized.map((m) => ({ count: 1, pathBytes, valueBytes: m.encoded })) },
    defaulted: given === undefined && sized.some((m) => m.defaulted),
  };
}
