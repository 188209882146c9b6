// What GitHub code scanning requires of an uploaded SARIF file, as checks shared by the SARIF
// renderer's tests and the CLI's.
import { SARIF_FINGERPRINT_KEY } from "../../src/report/sarif.js";

export type Json = Record<string, any>;

const LEVELS = ["none", "note", "warning", "error"];

/**
 * The checks GitHub code scanning documents for an upload ("SARIF support for code scanning" and
 * "SARIF results exceed limits"): what must be present, the level vocabulary, 1-based regions,
 * relative POSIX artifact URIs, fingerprints, and the per-run limits.
 */
export function githubProblems(log: Json): string[] {
  const problems: string[] = [];
  const problem = (where: string, what: string) => problems.push(`${where}: ${what}`);
  if (typeof log.$schema !== "string") problem("log", "$schema missing");
  if (log.version !== "2.1.0") problem("log", "version must be 2.1.0");
  if (!Array.isArray(log.runs) || log.runs.length === 0 || log.runs.length > 20) problem("log", "1 to 20 runs");
  for (const [runIndex, run] of (log.runs ?? []).entries()) {
    const driver = run.tool?.driver;
    if (!driver?.name) problem(`run ${runIndex}`, "tool.driver.name missing");
    const descriptors: Json[] = driver?.rules ?? [];
    if (descriptors.length > 25_000) problem(`run ${runIndex}`, "more than 25,000 rules");
    for (const rule of descriptors) {
      const where = `rule ${rule.id}`;
      if (!rule.id) problem(where, "id missing");
      if (!rule.shortDescription?.text) problem(where, "shortDescription.text missing");
      if (!rule.fullDescription?.text) problem(where, "fullDescription.text missing");
      if (!rule.help?.text) problem(where, "help.text missing");
      if (rule.defaultConfiguration && !LEVELS.includes(rule.defaultConfiguration.level)) problem(where, "bad default level");
      if ((rule.properties?.tags ?? []).length > 20) problem(where, "more than 20 tags");
    }
    if (!Array.isArray(run.results)) problem(`run ${runIndex}`, "results missing");
    if ((run.results ?? []).length > 25_000) problem(`run ${runIndex}`, "more than 25,000 results");
    for (const [resultIndex, result] of (run.results ?? []).entries()) {
      const where = `result ${resultIndex}`;
      if (typeof result.ruleId !== "string") problem(where, "ruleId missing");
      if (result.ruleIndex !== undefined && descriptors[result.ruleIndex]?.id !== result.ruleId) problem(where, "ruleIndex does not point at ruleId");
      if (!LEVELS.includes(result.level)) problem(where, `bad level ${result.level}`);
      if (!result.message?.text) problem(where, "message.text missing");
      if (!Array.isArray(result.locations) || result.locations.length === 0 || result.locations.length > 1_000) problem(where, "1 to 1,000 locations");
      if (typeof result.partialFingerprints?.[SARIF_FINGERPRINT_KEY] !== "string") problem(where, "partialFingerprints missing");
      for (const location of result.locations ?? []) checkPhysicalLocation(location.physicalLocation, where, problem);
      for (const fix of result.fixes ?? []) {
        if (!fix.description?.text) problem(where, "fix description missing");
        for (const change of fix.artifactChanges ?? []) {
          checkUri(change.artifactLocation?.uri, where, problem);
          for (const replacement of change.replacements ?? []) {
            checkRegion(replacement.deletedRegion, `${where} fix`, problem);
            if (typeof replacement.insertedContent?.text !== "string") problem(where, "insertedContent.text missing");
          }
        }
      }
    }
  }
  return problems;
}

function checkPhysicalLocation(location: Json | undefined, where: string, problem: (where: string, what: string) => void): void {
  if (!location) return problem(where, "physicalLocation missing");
  checkUri(location.artifactLocation?.uri, where, problem);
  checkRegion(location.region, where, problem);
}

function checkUri(uri: unknown, where: string, problem: (where: string, what: string) => void): void {
  if (typeof uri !== "string" || uri === "") return problem(where, "artifactLocation.uri missing");
  if (/^[a-z][a-z0-9+.-]*:/i.test(uri) || uri.startsWith("/") || uri.startsWith("./") || uri.includes("\\")) {
    problem(where, `uri ${uri} is not a relative POSIX path`);
  }
}

function checkRegion(region: Json | undefined, where: string, problem: (where: string, what: string) => void): void {
  if (!region) return problem(where, "region missing");
  const { startLine, startColumn, endLine, endColumn } = region;
  for (const [name, value] of Object.entries({ startLine, startColumn, endLine, endColumn })) {
    if (!Number.isInteger(value) || (value as number) < 1) problem(where, `${name} must be a 1-based integer`);
  }
  if (endLine < startLine || (endLine === startLine && endColumn <= startColumn)) problem(where, "region ends before it starts");
}
