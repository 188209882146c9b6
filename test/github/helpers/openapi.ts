// Validates request bodies sent to GitHub against GitHub's own OpenAPI description, so a test
// fails when we send a field GitHub would reject, not only when the snapshot changes.
import { createRequire } from "node:module";
import { Ajv, type ValidateFunction } from "ajv";

const require = createRequire(import.meta.url);

interface Operation {
  requestBody?: { content?: Record<string, { schema?: unknown }> };
}
interface Description {
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, unknown>;
}

let description: Description | undefined;
let ajv: Ajv | undefined;
const validators = new Map<string, { template: string; validate?: ValidateFunction }>();
const DOCUMENT_ID = "github-openapi";

function load(): { description: Description; ajv: Ajv } {
  if (!description || !ajv) {
    description = require("@octokit/openapi/generated/api.github.com.json") as Description;
    // OpenAPI 3.0 schemas: `nullable` is understood by Ajv; `example`, `x-*` and friends are ignored.
    ajv = new Ajv({ strict: false, allErrors: true, validateSchema: false, validateFormats: false });
    ajv.addSchema({ $id: DOCUMENT_ID, components: description.components }, DOCUMENT_ID);
  }
  return { description, ajv };
}

/** The path template (`/repos/{owner}/{repo}/pulls/{pull_number}/reviews`) a concrete path matches. */
export function findPathTemplate(method: string, path: string): string | undefined {
  const { description } = load();
  const segments = path.split("?")[0]!.split("/");
  const matches = Object.keys(description.paths).filter((template) => {
    if (!description.paths[template]![method.toLowerCase()]) return false;
    const parts = template.split("/");
    return parts.length === segments.length && parts.every((part, i) => part.startsWith("{") || part === segments[i]);
  });
  // Prefer the most literal template (`/repos/{o}/{r}/check-runs` over `/repos/{o}/{r}/{x}`).
  return matches.sort((a, b) => literalCount(b) - literalCount(a))[0];
}

function literalCount(template: string): number {
  return template.split("/").filter((part) => !part.startsWith("{")).length;
}

function rewriteRefs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rewriteRefs);
  if (schema && typeof schema === "object") {
    return Object.fromEntries(
      Object.entries(schema).map(([key, value]) =>
        key === "$ref" && typeof value === "string" && value.startsWith("#/") ? [key, `${DOCUMENT_ID}${value}`] : [key, rewriteRefs(value)],
      ),
    );
  }
  return schema;
}

/**
 * Throws when `body` does not satisfy the request-body schema of the operation `method path`,
 * or when the operation does not exist in GitHub's description at all.
 */
export function assertValidGitHubRequest(method: string, path: string, body: unknown): void {
  const key = `${method.toUpperCase()} ${path.split("?")[0]}`;
  let entry = validators.get(key);
  if (!entry) {
    const template = findPathTemplate(method, path);
    if (!template) throw new Error(`${key} is not an operation of GitHub's REST API`);
    const { description, ajv } = load();
    const schema = description.paths[template]![method.toLowerCase()]!.requestBody?.content?.["application/json"]?.schema;
    entry = { template, ...(schema ? { validate: ajv.compile(rewriteRefs(schema) as object) } : {}) };
    validators.set(key, entry);
  }
  if (!entry.validate) {
    if (body !== undefined && body !== "" && !(typeof body === "object" && body !== null && Object.keys(body).length === 0)) {
      throw new Error(`${key} (${entry.template}) takes no request body, but one was sent`);
    }
    return;
  }
  if (!entry.validate(body ?? {})) {
    throw new Error(
      `${key} (${entry.template}) body does not match GitHub's OpenAPI schema:\n${JSON.stringify(entry.validate.errors, null, 2)}\nbody: ${JSON.stringify(body).slice(0, 2000)}`,
    );
  }
}
