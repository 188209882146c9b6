// A stand-in for the pure core, so the GitHub layer is tested on its own: the test says which
// findings the files produce; config, gate and rendering follow the contracts of src/review.ts
// and src/report/markdown.ts in their simplest honest form.
import { parse } from "yaml";
import { DEFAULT_CONFIG, type ReviewConfig } from "../../../src/config.js";
import { compareFindings, type Finding } from "../../../src/findings.js";
import type { ReviewCore } from "../../../src/github/port.js";
import type { Review, ReviewInput, SourceFile } from "../../../src/review.js";

export type FindingsOf = (files: SourceFile[]) => Finding[];

const MARKER = /<!-- cql-review:fingerprint=([^\s>]+) -->/;

export function fakeCore(findingsOf: FindingsOf, overrides: Partial<ReviewCore> = {}): ReviewCore & { inputs: ReviewInput[] } {
  const inputs: ReviewInput[] = [];
  const core: ReviewCore & { inputs: ReviewInput[] } = {
    inputs,
    loadConfig(file) {
      if (!file) return { config: DEFAULT_CONFIG, findings: [] };
      const raw = (parse(file.content) ?? {}) as Record<string, any>;
      const config: ReviewConfig = {
        ...DEFAULT_CONFIG,
        ...(raw.schema ? { schema: [raw.schema].flat() } : {}),
        ...(raw.manifest ? { manifest: [raw.manifest].flat() } : {}),
        ...(raw.fail_on ? { failOn: raw.fail_on } : {}),
        comments: {
          max: typeof raw.comments === "number" ? raw.comments : (raw.comments?.max ?? DEFAULT_CONFIG.comments.max),
          event: raw.comments?.event ?? DEFAULT_CONFIG.comments.event,
        },
      };
      return { config, findings: [] };
    },
    matchesAny(path, globs) {
      return globs.some((glob) => globToRegExp(glob).test(path));
    },
    review(input) {
      inputs.push(input);
      const { config } = core.loadConfig(input.configFile);
      const baseFingerprints = input.baseFiles ? new Set(findingsOf(input.baseFiles).map((f) => f.fingerprint)) : undefined;
      const findings = findingsOf(input.files)
        .map((f) => (baseFingerprints ? { ...f, existing: baseFingerprints.has(f.fingerprint) } : f))
        .sort(compareFindings);
      const fresh = findings.filter((f) => !f.existing);
      return {
        config,
        findings,
        summary: {
          errors: findings.filter((f) => f.severity === "error").length,
          warnings: findings.filter((f) => f.severity === "warning").length,
          infos: findings.filter((f) => f.severity === "info").length,
        },
        gateFails:
          config.failOn !== "never" &&
          fresh.some((f) => f.severity === "error" || (config.failOn === "warning" && f.severity === "warning")),
      } as Review;
    },
    renderCheckSummary(review, options) {
      return `${review.findings.length} findings`.slice(0, options?.maxLength ?? 65_000);
    },
    renderFindingComment(finding, options) {
      const suggestion = options?.suggestion !== undefined ? `\n\n\`\`\`suggestion\n${options.suggestion}\n\`\`\`` : "";
      return `**${finding.rule}**: ${finding.message}${suggestion}\n\n<!-- cql-review:fingerprint=${finding.fingerprint} -->`;
    },
    readFingerprintMarker(body) {
      return MARKER.exec(body)?.[1];
    },
    ruleDocUrl(id) {
      return `https://github.com/cql-review/cql-review/blob/main/rules/${id}.md`;
    },
    explainMarkdown(review, request) {
      return `explained \`${request}\` over ${review.findings.length} findings`;
    },
    ...overrides,
  };
  return core;
}

/** `**` any depth, `*` within a segment, `{a,b}` alternatives: enough for the default globs. */
function globToRegExp(glob: string): RegExp {
  let source = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*" && glob[i + 1] === "*") {
      source += glob[i + 2] === "/" ? "(?:.*/)?" : ".*";
      i += glob[i + 2] === "/" ? 2 : 1;
    } else if (c === "*") source += "[^/]*";
    else if (c === "{") source += "(?:";
    else if (c === "}") source += ")";
    else if (c === "," && source.includes("(?:")) source += "|";
    else source += c.replace(/[.+?^$()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}
