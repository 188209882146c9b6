// JSON Schemas of the manifest and the repository config, generated from the zod schemas so the
// editor's view and the review's view can never differ. Draft-07: the draft that both the VS Code
// YAML extension (yaml-language-server) and JetBrains IDEs support fully; their 2019-09/2020-12
// support is partial or recent. The committed files in schema/ are checked for drift by a test.
import * as z from "zod";
import { configSchema } from "../config/schema.js";
import { manifestSchema, querySchema } from "./schema.js";

export type JsonSchema = Record<string, unknown>;

/**
 * Where the shipped schemas are published: the raw files of the default branch. `$id` names each
 * one by that address, which editors, SchemaStore's catalogue and `$ref`s from other schemas use.
 */
export const SCHEMA_BASE_URL = "https://raw.githubusercontent.com/cql-review/cql-review/main/schema/";

function generate(schema: z.ZodType, file: string, title: string, override?: (zodSchema: unknown, jsonSchema: JsonSchema) => void): JsonSchema {
  const generated = z.toJSONSchema(schema, {
    target: "draft-07",
    // The schema describes the YAML as written, before transforms (`2_000_000`, `in` → `IN`).
    io: "input",
    // Refinements (max ≥ avg, one query form) have no JSON Schema form; the review still checks them.
    unrepresentable: "any",
    override: override ? (context) => override(context.zodSchema, context.jsonSchema as JsonSchema) : undefined,
  }) as JsonSchema;
  const { $schema, ...rest } = generated;
  return { $schema, $id: `${SCHEMA_BASE_URL}${file}`, title, ...rest };
}

/** The JSON Schema of `access-patterns.yaml`. */
export function manifestJsonSchema(): JsonSchema {
  return generate(manifestSchema, "access-patterns.schema.json", "cql-review access-patterns manifest", (zodSchema, jsonSchema) => {
    if (zodSchema === querySchema) {
      // A query is written in exactly one form (or only points at code); editors flag both or neither as the review does.
      jsonSchema.oneOf = [
        { required: ["cql"], not: { anyOf: [{ required: ["select"] }, { required: ["where"] }, { required: ["order_by"] }, { required: ["limit"] }] } },
        { required: ["select", "where"], not: { required: ["cql"] } },
        // Only a reference to a statement of the code, which gives the CQL (as `cql-review init` drafts it).
        { required: ["code"], not: { anyOf: [{ required: ["cql"] }, { required: ["select"] }, { required: ["where"] }, { required: ["order_by"] }, { required: ["limit"] }] } },
      ];
    }
  });
}

/** The JSON Schema of `.github/cql-review.yml`. */
export function configJsonSchema(): JsonSchema {
  return generate(configSchema, "cql-review.schema.json", "cql-review repository configuration");
}

/** The committed files and how to generate each, relative to the repository root. */
export const JSON_SCHEMA_FILES: Readonly<Record<string, () => JsonSchema>> = {
  "schema/access-patterns.schema.json": manifestJsonSchema,
  "schema/cql-review.schema.json": configJsonSchema,
};

/** The text written to disk: two-space indentation and a final newline. */
export function jsonSchemaText(schema: JsonSchema): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}
