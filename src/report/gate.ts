// Why the gate fails or passes, in words every renderer shares: the check summary's first line
// and the terminal's last line say the same thing.
import type { Finding, Severity } from "../findings.js";
import { rootOf } from "../manifest/model-roots.js";
import { gateFails, UNREVIEWED_RULES, type ModelReview, type Review } from "../review.js";
import { formatCount } from "./figures.js";

export function plural(count: number, one: string, many: string): string {
  return `${formatCount(count)} ${count === 1 ? one : many}`;
}

/** Whether this finding on its own fails the gate (a new finding at `fail_on`, or a part left unreviewed). */
export function failsGate(finding: Finding, review: Review): boolean {
  return gateFails([finding], review.config);
}

/** "2 new errors and 1 new warning" ("2 errors and 1 warning" when `fresh` is false: nothing was compared with a base) */
export function newSeverityCounts(findings: readonly Finding[], fresh = true): string {
  const severities: Severity[] = ["error", "warning", "info"];
  const adjective = fresh ? "new " : "";
  const parts = severities.flatMap((severity) => {
    const count = findings.filter((finding) => finding.severity === severity).length;
    return count === 0 ? [] : [plural(count, `${adjective}${severity}`, `${adjective}${severity}s`)];
  });
  return parts.length <= 1 ? (parts[0] ?? "") : `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}`;
}

/** Why the gate says what it says: "17 new errors in this change; 1 part of it not reviewed". */
export function gateReason(review: Review): string {
  const fresh = review.findings.filter((finding) => !finding.existing);
  // Without a base nothing was compared: every finding is simply there, none is "new in this change".
  const compared = review.changed !== undefined || review.findings.some((finding) => finding.existing !== undefined);
  if (!review.gateFails) {
    if (fresh.length === 0) return compared ? "nothing new" : "nothing found";
    return `${newSeverityCounts(fresh, compared)}, ${fresh.length === 1 ? "which does not fail it" : "none of which fails it"}`;
  }
  const newAtFailOn = review.findings.filter((finding) => failsGate(finding, review) && !UNREVIEWED_RULES.has(finding.rule));
  const notRead = review.config.unreviewed === "fail" ? review.unreviewed.length : 0;
  const why = [
    ...(newAtFailOn.length > 0 ? [compared ? `${newSeverityCounts(newAtFailOn)} in this change` : newSeverityCounts(newAtFailOn, false)] : []),
    ...(notRead > 0 ? [`${plural(notRead, "part", "parts")} ${compared ? "of it " : ""}not reviewed`] : []),
  ];
  return why.length > 0 ? why.join("; ") : compared ? "findings new in this change" : "findings at the gate's level";
}

/** The findings of a review with several models, by model: first those of none (the config file), then each model's in order. */
export function findingsByModel(review: Review, findings: readonly Finding[] = review.findings): { model?: ModelReview; findings: Finding[] }[] {
  const models = review.models ?? [];
  const roots = models.flatMap((model) => (model.root === undefined ? [] : [model.root]));
  const groups: { model?: ModelReview; findings: Finding[] }[] = [{ findings: [] }, ...models.map((model) => ({ model, findings: [] as Finding[] }))];
  for (const finding of findings) {
    const root = finding.location.file === "" ? null : rootOf(finding.location.file, roots);
    const group = root === null ? undefined : groups.find((candidate) => candidate.model?.review && candidate.model.root === root);
    (group ?? groups[0]!).findings.push(finding);
  }
  return groups;
}

/** "models reviewed: a, b; not reviewed (nothing in them changed): c", each name quoted by `quote`; "" for a single model. */
export function modelsNote(review: Review, quote: (name: string) => string): string {
  if (!review.models) return "";
  const reviewed = review.models.filter((model) => model.review).map((model) => quote(model.name));
  const skipped = review.models.filter((model) => !model.review);
  const reasons = [...new Set(skipped.map((model) => model.skipped ?? "not reviewed"))];
  return [
    `${reviewed.length === 1 ? "model" : "models"} reviewed: ${reviewed.join(", ")}`,
    ...reasons.map((reason) => `not reviewed (${reason}): ${skipped.filter((model) => (model.skipped ?? "not reviewed") === reason).map((model) => quote(model.name)).join(", ")}`),
  ].join("; ");
}
