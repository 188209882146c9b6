// A grammar that cannot be loaded (a build without its WASM file) never crashes the review: every
// code file of that language is listed as not reviewed, with the reason, and the gate does not pass
// on what it did not read. A file past the code limits is reported the same way, as a limit.
import { describe, expect, it } from "vitest";
import { CODE_LIMITS } from "../../src/code/extract.js";
import { grammarPath, grammars } from "../../src/code/grammars.js";
import { readCode } from "../../src/code/read.js";
import { loadConfig } from "../../src/config.js";
import { review, type SourceFile } from "../../src/review.js";
import { APP, DAO, QUERIES } from "./app-fixtures.js";

const PYTHON = "app/videos.py";
const PYTHON_APP = `from cassandra.cluster import Cluster

session = Cluster().connect("shop")

def videos_of(user_id):
    return session.execute("SELECT video_id, title FROM videos_by_user WHERE user_id = %s", [user_id])
`;

async function reviewWithoutJavaGrammar(configText?: string) {
  const sources: SourceFile[] = Object.entries({ ...APP, [PYTHON]: PYTHON_APP }).map(([path, content]) => ({ path, content }));
  const configFile = configText === undefined ? undefined : { path: ".github/cql-review.yml", content: configText };
  const code = await readCode(sources, loadConfig(configFile).config, async (language) => {
    if (language === "java") throw new Error("tree-sitter-java.wasm is neither in dist/src/code/grammars nor in an installed tree-sitter-java package");
    return grammars.parser(language);
  });
  return review({ files: sources, ...(configFile ? { configFile } : {}), ...(code ? { code } : {}) });
}

describe("a grammar that cannot be loaded", () => {
  it("lists every code file of its language as not reviewed, with the reason, and fails the gate", async () => {
    const result = await reviewWithoutJavaGrammar();
    expect(result.unreviewed.map((u) => u.file).sort()).toEqual([DAO, QUERIES].sort());
    for (const unreviewed of result.unreviewed) {
      expect(unreviewed.reason).toContain(`${unreviewed.file} was not read as application code: the java grammar could not be loaded (tree-sitter-java.wasm is neither in`);
      expect(unreviewed.reason).toContain("The statements in it were not reviewed.");
    }
    expect(result.findings.filter((f) => f.location.file === DAO).map((f) => f.rule)).toEqual(["internal-error"]);
    expect(result.gateFails).toBe(true);
  });

  it("still reviews the languages whose grammars load", async () => {
    const result = await reviewWithoutJavaGrammar();
    expect(result.queries.map((q) => q.location.file)).toEqual([PYTHON]);
    expect(result.model.code?.extraction.files.map((f) => f.path)).toEqual([PYTHON]);
  });

  it("with `unreviewed: warn` the gate passes but the files are still listed", async () => {
    const result = await reviewWithoutJavaGrammar("unreviewed: warn\n");
    expect(result.unreviewed.map((u) => u.file).sort()).toEqual([DAO, QUERIES].sort());
    expect(result.gateFails).toBe(false);
  });

  it("names both places it looked when a grammar package is not installed", () => {
    expect(() => grammarPath({ module: "tree-sitter-not-installed", file: "tree-sitter-not-installed.wasm" })).toThrow(
      /^tree-sitter-not-installed\.wasm is neither in .*src\/code\/grammars nor in an installed tree-sitter-not-installed package$/,
    );
  });
});

describe("a code file past the limits", () => {
  it("is listed as not reviewed under input-limit-exceeded, and fails the gate", async () => {
    const padded = `${APP[DAO]}\n${"// padding\n".repeat(Math.ceil(CODE_LIMITS.fileBytes / 11))}`;
    const sources: SourceFile[] = Object.entries({ ...APP, [DAO]: padded }).map(([path, content]) => ({ path, content }));
    const code = await readCode(sources, loadConfig(undefined).config, (language) => grammars.parser(language));
    const result = review({ files: sources, ...(code ? { code } : {}) });
    expect(result.findings.filter((f) => f.location.file === DAO).map((f) => [f.rule, f.severity])).toEqual([["input-limit-exceeded", "warning"]]);
    expect(result.unreviewed).toEqual([{ file: DAO, reason: `${DAO} was not read as application code: ${padded.length} bytes, over the ${CODE_LIMITS.fileBytes}-byte limit per code file. The statements in it were not reviewed.` }]);
    expect(result.gateFails).toBe(true);
  });
});
