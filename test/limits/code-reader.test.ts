// The hostile code of a pull request: a builder chain nested thousands of calls deep, hundreds of
// paths sharing one large blob, files with more syntax than a review can walk, and a WebAssembly
// module that aborts. The work is measured in counts (tree-sitter's parent searches, parses), not
// in time: each case is read in one pass, within the code limits, and a broken module never
// reaches a later review.
import type { Node, Parser } from "web-tree-sitter";
import { describe, expect, it } from "vitest";
import { CODE_LIMITS, extractStatements } from "../../src/code/extract.js";
import { createGrammars, grammars } from "../../src/code/grammars.js";
import { readCode } from "../../src/code/read.js";
import type { CodeFile, CodeLanguage } from "../../src/code/types.js";
import { loadConfig } from "../../src/config.js";
import { review } from "../../src/review.js";

const HEADER = `package shop;
import static com.datastax.oss.driver.api.querybuilder.QueryBuilder.*;
import com.datastax.oss.driver.api.core.CqlSession;
`;

/** One method per chain, each chain `steps` relations long, until the file holds `bytes`. */
function chains(bytes: number, steps: number): string {
  let text = `${HEADER}class Dao {\n  static final String C = "c";\n  CqlSession session;\n`;
  for (let method = 0; text.length < bytes; method++) {
    text += `  void m${method}() {\n    session.execute(selectFrom("shop", "t").all()`;
    text += `.whereColumn(C).isEqualTo(bindMarker())`.repeat(steps);
    text += `.build());\n  }\n`;
  }
  return `${text}}\n`;
}

/** Methods each running a constant statement, until the file holds `bytes`. */
function statements(bytes: number): string {
  let text = `${HEADER}class Dao {\n  CqlSession session;\n`;
  for (let i = 0; text.length < bytes; i++) text += `  static final String Q${i} = "SELECT * FROM shop.t WHERE k = ?";\n  void m${i}() { session.execute(Q${i}); }\n`;
  return `${text}}\n`;
}

/**
 * Counts tree-sitter's own `parent` searches (each one walks down from the root) while `run`
 * reads, and throws past `allowed`, so a reader that climbs that way fails fast instead of for minutes.
 */
async function countingParentSearches<T>(allowed: number, run: () => Promise<T>): Promise<{ result: T; searches: number }> {
  const parser = await grammars.parser("java");
  const tree = parser.parse("class A {}")!;
  const prototype = Object.getPrototypeOf(tree.rootNode) as Node;
  tree.delete();
  const original = Object.getOwnPropertyDescriptor(prototype, "parent")!;
  let searches = 0;
  Object.defineProperty(prototype, "parent", {
    ...original,
    get(this: Node) {
      if (++searches > allowed) throw new Error(`more than ${allowed} parent searches`);
      return original.get!.call(this);
    },
  });
  try {
    return { result: await run(), searches };
  } finally {
    Object.defineProperty(prototype, "parent", original);
  }
}

/** `grammars.parser`, counting the parses of the parsers it hands out. */
function countingParses(): { parserFor: (language: CodeLanguage) => Promise<Parser>; parses: () => number } {
  let parses = 0;
  return {
    parses: () => parses,
    parserFor: async (language) => {
      const parser = await grammars.parser(language);
      const parse = parser.parse.bind(parser);
      parser.parse = (input, oldTree, options) => {
        parses++;
        return parse(input, oldTree, options);
      };
      return parser;
    },
  };
}

const read = (files: CodeFile[], parserFor = (language: CodeLanguage) => grammars.parser(language)) => extractStatements(files, parserFor);

describe("the code reader on hostile input", () => {
  it("reads 200 KB of long builder chains without one search of tree-sitter's parent", async () => {
    const content = chains(200 * 1024, 300);
    const methods = content.split("void m").length - 1;
    const { result, searches } = await countingParentSearches(1_000, () => read([{ path: "src/Dao.java", content }]));
    expect(result.skipped).toEqual([]);
    expect(result.statements).toHaveLength(methods);
    expect(result.statements[0]!.cql).toMatch(/^SELECT \* FROM shop\.t WHERE c = \? AND c = \?/);
    expect(searches).toBe(0);
  });

  it("lists a chain nested deeper than the limit as not reviewed, with the reason, and fails the gate", async () => {
    // One method: a chain of 11,000 relations, 450 KB.
    const content = `${HEADER}class Dao {\n  CqlSession session;\n  void m() {\n    session.execute(selectFrom("shop", "t").all()${".whereColumn(\"c\").isEqualTo(bindMarker())".repeat(11_000)}.build());\n  }\n}\n`;
    expect(content.length).toBeLessThan(CODE_LIMITS.fileBytes);
    const sources = [{ path: "src/Dao.java", content }];
    const { result: code, searches } = await countingParentSearches(1_000, () => readCode(sources, loadConfig(undefined).config, (language) => grammars.parser(language)));
    expect(searches).toBe(0);
    expect(code!.skipped).toEqual([{ file: "src/Dao.java", reason: `its syntax nests more than ${CODE_LIMITS.treeDepth} deep, over the limit per code file` }]);
    const result = review({ files: sources, code: code! });
    expect(result.unreviewed.map((u) => u.file)).toEqual(["src/Dao.java"]);
    expect(result.gateFails).toBe(true);
  });

  it("parses one blob shared by 300 paths once, with the statements at every path", async () => {
    const content = `${HEADER}class Dao {\n  CqlSession session;\n  static final String FIND = "SELECT * FROM shop.t WHERE k = ?";\n  void find() { session.execute(FIND); }\n  void all() { session.execute("SELECT * FROM shop.t"); }\n}\n`;
    const files = Array.from({ length: 300 }, (_, i) => ({ path: `module${i}/src/Dao.java`, content }));
    const { parserFor, parses } = countingParses();
    const result = await read(files, parserFor);
    expect(parses()).toBe(1);
    expect(result.files.map((f) => f.path)).toEqual(files.map((f) => f.path));
    for (const { path } of files) {
      expect(result.statements.filter((s) => s.file === path).map((s) => `${s.id} ${s.range.start.line} ${s.cql}`)).toEqual([
        `${path}#Dao.find 6 SELECT * FROM shop.t WHERE k = ?`,
        `${path}#Dao.all 8 SELECT * FROM shop.t`,
      ]);
    }
    expect(new Set(result.statements.map((s) => s.id)).size).toBe(600);
  });

  it("parses a large blob shared by 300 paths once, and lists the copies past the statements limit", async () => {
    const content = statements(387 * 1024);
    const files = Array.from({ length: 300 }, (_, i) => ({ path: `m${i}/Dao.java`, content }));
    const { parserFor, parses } = countingParses();
    const result = await read(files, parserFor);
    expect(parses()).toBe(1);
    const each = result.statements.filter((s) => s.file === "m0/Dao.java").length;
    expect(each).toBeGreaterThan(3_000);
    const kept = Math.floor(CODE_LIMITS.statementsPerReview / each);
    expect(result.statements).toHaveLength(kept * each);
    expect(result.files).toHaveLength(kept);
    expect(result.skipped).toHaveLength(300 - kept);
    expect(result.skipped[0]).toEqual({
      file: `m${kept}/Dao.java`,
      reason: `it is a copy of m0/Dao.java, whose ${each} statements would take the review past the limit of ${CODE_LIMITS.statementsPerReview} statements read from code`,
    });
  });

  it("does not walk a file with more syntax nodes than the limit, nor the files past the review's nodes and bytes", async () => {
    // `0,` is two nodes: 500 KB of them is over the nodes limit of one file.
    const dense = (name: string, bytes: number) => `class ${name} {\n  int[] a = {${"0,".repeat(bytes / 2)}0};\n}\n`;
    const overOneFile = await read([{ path: "Dense.java", content: dense("Dense", 500 * 1024) }]);
    expect(overOneFile.skipped).toEqual([{ file: "Dense.java", reason: `more than ${CODE_LIMITS.nodesPerFile} syntax nodes, over the limit per code file` }]);
    // A comment is one node: the bytes of a review run out before its nodes.
    const comment = (i: number) => `// ${i}\n/* ${"x".repeat(CODE_LIMITS.fileBytes - 64)} */\nclass C${i} {}\n`;
    const count = Math.ceil(CODE_LIMITS.bytesPerReview / (CODE_LIMITS.fileBytes - 64)) + 1;
    const overBytes = await read(Array.from({ length: count }, (_, i) => ({ path: `c${i}.java`, content: comment(i) })));
    expect(overBytes.files.length).toBe(count - overBytes.skipped.length);
    expect(overBytes.skipped.length).toBeGreaterThan(0);
    expect(overBytes.skipped[0]!.reason).toMatch(new RegExp(`over the ${CODE_LIMITS.bytesPerReview}-byte limit per review$`));
  });
});

describe("a WebAssembly module that aborts", () => {
  it("is thrown away: the next parser comes from a fresh instance and parses", async () => {
    const own = createGrammars();
    const broken = await own.parser("java");
    // An abort inside the module, as Emscripten raises it when WebAssembly memory runs out mid-parse.
    expect(() =>
      broken.parse(() => {
        throw new (globalThis as unknown as { WebAssembly: { RuntimeError: ErrorConstructor } }).WebAssembly.RuntimeError("Aborted(OOM)");
      }),
    ).toThrow("Aborted(OOM)");
    const fresh = await own.parser("java");
    expect(fresh.constructor).not.toBe(broken.constructor);
    const tree = fresh.parse("class A { void m() {} }")!;
    expect(tree.rootNode.type).toBe("program");
    tree.delete();
    // Still the same instance while it works.
    expect((await own.parser("go")).constructor).toBe(fresh.constructor);
  });

  it("fails the file it was parsing, and the next file of the language is read with a fresh parser", async () => {
    const own = createGrammars();
    let first = true;
    const parserFor = async (language: CodeLanguage) => {
      const parser = await own.parser(language);
      if (first) {
        first = false;
        const parse = parser.parse.bind(parser);
        parser.parse = (input, ...rest) =>
          parse(() => {
            throw new (globalThis as unknown as { WebAssembly: { RuntimeError: ErrorConstructor } }).WebAssembly.RuntimeError("Aborted(OOM)");
          }, ...rest) ?? parse(input, ...rest);
      }
      return parser;
    };
    const dao = (name: string) => `${HEADER}class ${name} {\n  CqlSession session;\n  void find() { session.execute("SELECT * FROM shop.t WHERE k = ?"); }\n}\n`;
    const result = await read([{ path: "A.java", content: dao("A") }, { path: "B.java", content: dao("B") }], parserFor);
    expect(result.skipped).toEqual([{ file: "A.java", reason: expect.stringContaining("tree-sitter failed on it (Aborted(OOM)"), failed: true }]);
    expect(result.statements.map((s) => `${s.file} ${s.cql}`)).toEqual(["B.java SELECT * FROM shop.t WHERE k = ?"]);
  });
});
