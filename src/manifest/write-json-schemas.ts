// Build-time entry point (`npm run schemas`), not part of the pure core: writes the generated JSON
// Schemas into schema/ under the current directory (npm runs scripts at the package root).
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { JSON_SCHEMA_FILES, jsonSchemaText } from "./json-schema.js";

for (const [path, generate] of Object.entries(JSON_SCHEMA_FILES)) {
  const target = resolve(process.cwd(), path);
  writeFileSync(target, jsonSchemaText(generate()));
  console.log(`wrote ${path}`);
}
