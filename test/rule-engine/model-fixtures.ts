// Hand-built analysed models for engine tests that need no parsing.
import { DEFAULT_CONFIG, type ReviewConfig } from "../../src/config.js";
import type { SourceRange } from "../../src/cql/ast.js";
import type { Finding } from "../../src/findings.js";
import type { AnalysedModel } from "../../src/rule-engine/model.js";
import type { RuleModule } from "../../src/rule-engine/types.js";
import { emptySchema } from "../../src/schema/model.js";

export function rangeAt(line: number, column = 1, length = 1): SourceRange {
  // Offsets only need to be consistent within a test: 100 characters per line.
  const offset = (line - 1) * 100 + column - 1;
  return { start: { line, column, offset }, end: { line, column: column + length, offset: offset + length } };
}

export function emptyModel(overrides: Partial<AnalysedModel> = {}): AnalysedModel {
  return {
    version: "5.0",
    config: structuredClone(DEFAULT_CONFIG),
    schemaFiles: [],
    manifestFiles: [],
    schema: emptySchema(),
    queries: [],
    estimates: new Map(),
    inputFindings: [],
    ...overrides,
  };
}

export function withRules(model: AnalysedModel, rules: ReviewConfig["rules"]): AnalysedModel {
  return { ...model, config: { ...model.config, rules } };
}

export function inputFinding(rule: string, line: number, entity: string, overrides: Partial<Finding> = {}): Finding {
  return {
    rule,
    severity: "error",
    location: { file: "schema/tables.cql", range: rangeAt(line) },
    message: `${rule} at line ${line}`,
    fingerprint: `${rule}:${entity}`,
    ...overrides,
  };
}

/** A rule that reports one finding per entry of `lines`, on schema/tables.cql. */
export function lineRule(id: string, lines: number[], options: Partial<RuleModule["meta"]> = {}): RuleModule {
  return {
    meta: {
      id,
      category: "table",
      defaultSeverity: "warning",
      description: `test rule ${id}`,
      messages: { found: "{what} found on line {line}" },
      fixable: false,
      ...options,
    },
    check(context) {
      for (const line of lines) {
        context.report({
          messageId: "found",
          data: { what: "thing", line },
          file: "schema/tables.cql",
          range: rangeAt(line),
          entity: `line:${line}`,
        });
      }
    },
  };
}
