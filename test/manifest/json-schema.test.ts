import { readFileSync } from "node:fs";
import { Ajv } from "ajv";
import { parse } from "yaml";
import { describe, expect, it } from "vitest";
import { configJsonSchema, JSON_SCHEMA_FILES, jsonSchemaText, manifestJsonSchema } from "../../src/manifest/json-schema.js";

const repoFile = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), "utf8");
/** YAML as an editor's YAML 1.2 parser sees it, which is what the JSON Schema is applied to. */
const yamlFixture = (path: string): unknown => parse(readFileSync(new URL(`../fixtures/${path}`, import.meta.url), "utf8"));

function validator(schema: Record<string, unknown>) {
  // Ajv's default strictness: unknown keywords and formats are errors, as they would be to editors.
  const ajv = new Ajv({ allErrors: true });
  return ajv.compile(schema);
}

describe("committed JSON Schemas", () => {
  for (const [path, generate] of Object.entries(JSON_SCHEMA_FILES)) {
    it(`${path} matches the zod schema it is generated from`, () => {
      expect(repoFile(path), `${path} is stale: regenerate it with \`npm run schemas\` and commit the result`).toBe(jsonSchemaText(generate()));
    });
  }

  it("are draft-07 documents with a title and a description on every property of the manifest", () => {
    const schema = manifestJsonSchema();
    expect(schema.$schema).toBe("http://json-schema.org/draft-07/schema#");
    expect(schema.title).toBe("cql-review access-patterns manifest");
    const missing: string[] = [];
    const visit = (node: unknown, path: string): void => {
      if (!node || typeof node !== "object") return;
      const properties = (node as { properties?: Record<string, unknown> }).properties;
      for (const [key, child] of Object.entries(properties ?? {})) {
        if (!(child as { description?: string }).description) missing.push(`${path}.${key}`);
        visit(child, `${path}.${key}`);
      }
      for (const key of ["items", "additionalProperties"]) visit((node as Record<string, unknown>)[key], `${path}[${key}]`);
      for (const key of ["anyOf", "oneOf"]) for (const option of ((node as Record<string, unknown[]>)[key] ?? [])) visit(option, path);
    };
    visit(schema, "manifest");
    expect(missing).toEqual([]);
  });
});

describe("the manifest JSON Schema, as an editor applies it", () => {
  const validate = validator(manifestJsonSchema());

  it("accepts a complete, valid manifest and the shipped example", () => {
    expect(validate(yamlFixture("manifests/killrvideo.yaml")), JSON.stringify(validate.errors)).toBe(true);
    const example = parse(repoFile("examples/iot/access-patterns.yaml"));
    expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
  });

  it("rejects a misspelt key, a wrong operator and a query written in both forms", () => {
    const broken = {
      version: 1,
      tables: { videos: { growht: "5/day" } },
      queries: [
        { id: "Q1", select: ["a"], where: { email: "LIKE" } },
        { id: "Q2", cql: "SELECT a FROM t", select: ["a"], where: { a: "=" } },
      ],
    };
    expect(validate(broken)).toBe(false);
    const problems = (validate.errors ?? []).map((e) => `${e.instancePath} ${e.keyword}`);
    expect(problems).toContain("/tables/videos additionalProperties");
    expect(problems).toContain("/queries/0/where/email anyOf");
    expect(problems).toContain("/queries/1 oneOf");
  });

  it("rejects a query in neither form and accepts operators in any letter case", () => {
    expect(validate({ version: 1, queries: [{ id: "Q1", description: "nothing to run" }] })).toBe(false);
    expect(validate({ version: 1, queries: [{ id: "Q1", select: ["a"], where: { a: "in", b: "contains key" } }] })).toBe(true);
  });

  it("accepts a query that only points at a statement of the code, as the review does", () => {
    const code = "src/main/java/com/example/VideoDao.java#VideoDao.findByUser";
    expect(validate({ version: 1, queries: [{ id: "Q1", code, rate: "5/s" }] }), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ version: 1, queries: [{ id: "Q1", code, cql: "SELECT a FROM t WHERE k = ?" }] })).toBe(true);
    // half an abstract form is still wrong
    expect(validate({ version: 1, queries: [{ id: "Q1", code, order_by: { a: "desc" } }] })).toBe(false);
  });
});

describe("the config JSON Schema", () => {
  const validate = validator(configJsonSchema());

  it("accepts a complete config and the shipped example", () => {
    expect(validate(yamlFixture("configs/full.yml")), JSON.stringify(validate.errors)).toBe(true);
    expect(validate(parse(repoFile("examples/iot/.github/cql-review.yml"))), JSON.stringify(validate.errors)).toBe(true);
  });

  it("rejects unknown keys and invalid values", () => {
    expect(validate(yamlFixture("configs/typos.yml"))).toBe(false);
    expect(validate({ fail_on: "sometimes" })).toBe(false);
    expect(validate({ limits: { partition_bytes: "100 MBs" } })).toBe(false);
    expect(validate({ rules: { "query-full-scan": "warn" } })).toBe(false);
  });
});
