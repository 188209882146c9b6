// `WITH name = value AND …` options flattened into plain values, and the few options the model
// reads closely: replication, durable_writes, compaction and default_time_to_live.
import type { OptionEntry, Term } from "../cql/ast.js";
import type { OptionValue } from "./model.js";

/** A term as an option value: strings, numbers and booleans as such, maps as records, the rest as source text. */
export function optionValue(term: Term, sourceText: (term: Term) => string): OptionValue {
  switch (term.kind) {
    case "literal":
      switch (term.type) {
        case "string":
          return term.value;
        case "integer":
        case "float": {
          const n = Number(term.value);
          return Number.isFinite(n) ? n : term.value;
        }
        case "boolean":
          return term.value.toLowerCase() === "true";
        default:
          return term.value;
      }
    case "negate": {
      const inner = optionValue(term.operand, sourceText);
      return typeof inner === "number" ? -inner : sourceText(term);
    }
    case "map": {
      const record: { [key: string]: OptionValue } = {};
      for (const entry of term.entries) {
        const key = optionValue(entry.key, sourceText);
        record[typeof key === "object" ? sourceText(entry.key) : String(key)] = optionValue(entry.value, sourceText);
      }
      return record;
    }
    default:
      return sourceText(term);
  }
}

export function flattenOptions(entries: OptionEntry[], sourceText: (term: Term) => string): Record<string, OptionValue> {
  const options: Record<string, OptionValue> = {};
  for (const entry of entries) options[entry.name.name] = optionValue(entry.value, sourceText);
  return options;
}

/** `org.apache.cassandra.locator.NetworkTopologyStrategy` → `NetworkTopologyStrategy`. */
export function simpleClassName(className: string): string {
  const dot = className.lastIndexOf(".");
  return dot < 0 ? className : className.slice(dot + 1);
}

/** A number, or a string holding one (`'3'`); Cassandra accepts both in option maps. */
export function numberOf(value: OptionValue | undefined): number | undefined {
  if (typeof value === "number") return value;
  if (typeof value === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return undefined;
}

export function booleanOf(value: OptionValue | undefined): boolean | undefined {
  if (typeof value === "boolean") return value;
  if (typeof value === "string") {
    const lower = value.trim().toLowerCase();
    if (lower === "true") return true;
    if (lower === "false") return false;
  }
  return undefined;
}

export function isRecord(value: OptionValue | undefined): value is { [key: string]: OptionValue } {
  return typeof value === "object" && value !== null;
}

export interface Replication {
  /** simple class name; "" when the map names none */
  className: string;
  factors: Record<string, number>;
}

/**
 * The replication map: `replication_factor` for SimpleStrategy, one factor per data center for
 * NetworkTopologyStrategy. A transient factor `'3/1'` counts its full replicas (3).
 */
export function replicationOf(value: OptionValue | undefined): Replication {
  if (!isRecord(value)) return { className: "", factors: {} };
  const className = typeof value.class === "string" ? simpleClassName(value.class) : "";
  const factors: Record<string, number> = {};
  for (const [key, raw] of Object.entries(value)) {
    if (key === "class") continue;
    const factor = numberOf(raw) ?? (typeof raw === "string" ? numberOf(raw.split("/")[0]) : undefined);
    if (factor !== undefined) factors[key] = factor;
  }
  return { className, factors };
}

export function compactionOf(options: Record<string, OptionValue>): { className: string; options: Record<string, OptionValue> } | undefined {
  const compaction = options.compaction;
  if (!isRecord(compaction)) return undefined;
  const { class: className, ...rest } = compaction;
  return { className: typeof className === "string" ? simpleClassName(className) : "", options: rest };
}

export function defaultTtlOf(options: Record<string, OptionValue>): number {
  return numberOf(options.default_time_to_live) ?? 0;
}
