// Inputs the fuzz targets found, kept as plain tests so the fixes stay fixed.
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { parseCql } from "../../src/cql/index.js";

describe("parser positions (fuzz: parser)", () => {
  it("an unterminated string running over several lines to a final line break ends where the next line starts", () => {
    // chevrotain's end column for such a token pointed inside the string's second line
    const [diagnostic] = parseCql("SELECT 'ab\ncd\n").diagnostics;
    expect(diagnostic!.message).toMatch(/^unterminated string/);
    expect(diagnostic!.range.end).toEqual({ line: 3, column: 1, offset: 14 });
  });

  it("an unterminated block comment to the end of the file ends where the next line starts", () => {
    const [diagnostic] = parseCql("/* x\ny\n").diagnostics;
    expect(diagnostic!.message).toMatch(/^unterminated comment/);
    expect(diagnostic!.range.end).toEqual({ line: 3, column: 1, offset: 7 });
  });

  it("CRLF and lone CR line breaks count once each", () => {
    const [diagnostic] = parseCql("SELECT 'a\r\nb\rc\r\n").diagnostics;
    expect(diagnostic!.range.end).toEqual({ line: 4, column: 1, offset: 16 });
  });
});

describe("config values (fuzz: config)", () => {
  it("a !!binary rule option never reaches the config as a Buffer", () => {
    const { config, findings } = loadConfig({ path: ".cql-review.yml", content: "rules:\n  table-unbounded-partition: [warning, { horizon: !!binary 2y }]\n" });
    expect(findings.map((finding) => finding.message)).toEqual([expect.stringMatching(/^rules\.table-unbounded-partition\[1\]: rule options must be plain YAML values/)]);
    expect(JSON.stringify(config.rules)).toBe("{}");
  });
});
