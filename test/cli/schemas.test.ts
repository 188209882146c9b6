import { readdirSync, readFileSync } from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv } from "ajv";
import { describe, expect, it } from "vitest";
import { SCHEMA_BASE_URL } from "../../src/manifest/json-schema.js";

const SCHEMA_DIRECTORY = fileURLToPath(new URL("../../schema", import.meta.url));
const shipped = readdirSync(SCHEMA_DIRECTORY).filter((file) => file.endsWith(".json"));

describe("shipped JSON Schemas", () => {
  it("are the three documents the package ships", () => {
    expect(shipped.sort()).toEqual(["access-patterns.schema.json", "cql-review.schema.json", "report.schema.json"]);
  });

  it.each(shipped)("%s names itself by its published address ($id), as SchemaStore's catalogue expects", (file) => {
    const schema = JSON.parse(readFileSync(path.join(SCHEMA_DIRECTORY, file), "utf8"));
    expect(schema.$schema).toBe("http://json-schema.org/draft-07/schema#");
    expect(schema.$id).toBe(`${SCHEMA_BASE_URL}${file}`);
    expect(schema.$id).toMatch(/^https:\/\//);
    expect(schema.title).toEqual(expect.any(String));
    expect(schema.description).toEqual(expect.any(String));
    // strict mode rejects unknown keywords and ambiguous types (required-only branches of oneOf are fine)
    expect(() => new Ajv({ strict: true, strictRequired: false, allowUnionTypes: true }).compile(schema)).not.toThrow();
  });

  it("the config schema describes every setting, for editors' hover text", () => {
    const schema = JSON.parse(readFileSync(path.join(SCHEMA_DIRECTORY, "cql-review.schema.json"), "utf8"));
    const undescribed = Object.entries(schema.properties as Record<string, { description?: string }>)
      .filter(([, property]) => !property.description)
      .map(([key]) => key);
    expect(undescribed).toEqual([]);
    expect(schema.additionalProperties).toBe(false);
  });
});
