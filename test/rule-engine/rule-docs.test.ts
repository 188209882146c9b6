// Every rule has a doc in a fixed shape, and its examples behave as the doc says: the bad example
// reports the rule through the real pipeline, the good example does not. Docs cannot drift.
import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { rules } from "../../rules/index.js";
import type { SourceFile } from "../../src/review.js";
import { analyse } from "../../src/review.js";
import { grammars } from "../../src/code/grammars.js";
import { readCode } from "../../src/code/read.js";
import { loadConfig } from "../../src/config.js";
import { runRules } from "../../src/rule-engine/engine.js";
import type { RuleModule } from "../../src/rule-engine/types.js";

const RULES_DIR = new URL("../../rules/", import.meta.url);

const SECTIONS = ["Why it matters", "Bad example", "Good example", "How to fix", "Options", "When not to use it"] as const;

/**
 * Rules no correct rule can trigger: their bad example is reviewed with one extra rule that
 * fails on every model, standing for the bug the doc describes.
 */
const FAULTY_RULE: RuleModule = {
  meta: {
    id: "faulty-rule-for-docs",
    category: "table",
    defaultSeverity: "warning",
    description: "Fails on every model.",
    messages: {},
    fixable: false,
  },
  check() {
    throw new Error("a bug in a rule");
  },
};
const NEEDS_FAULTY_RULE = new Set(["internal-error"]);

interface CodeBlock {
  language: string;
  /** what follows the language in the info string: a path, or `repeat=N` */
  info: string;
  content: string;
}

export interface RuleDoc {
  title: string;
  description: string;
  sections: { heading: string; body: string }[];
}

export function parseRuleDoc(text: string): RuleDoc {
  const lines = text.split("\n");
  const title = lines[0]?.startsWith("# ") ? lines[0].slice(2).trim() : "";
  const sections: RuleDoc["sections"] = [];
  const intro: string[] = [];
  let current: { heading: string; body: string[] } | undefined;
  let inFence = false;
  for (const line of lines.slice(1)) {
    if (line.startsWith("```")) inFence = !inFence;
    if (!inFence && line.startsWith("## ")) {
      if (current) sections.push({ heading: current.heading, body: current.body.join("\n") });
      current = { heading: line.slice(3).trim(), body: [] };
      continue;
    }
    (current ? current.body : intro).push(line);
  }
  if (current) sections.push({ heading: current.heading, body: current.body.join("\n") });
  return { title, description: intro.join("\n").trim(), sections };
}

export function codeBlocks(markdown: string): CodeBlock[] {
  const blocks: CodeBlock[] = [];
  const fence = /^```(\S+)[ \t]*(.*)\n([\s\S]*?)^```[ \t]*$/gm;
  for (const match of markdown.matchAll(fence)) {
    blocks.push({ language: match[1]!, info: match[2]!.trim(), content: match[3]! });
  }
  return blocks;
}

/** The files an example stands for: its CQL, its manifest, and its config. */
function exampleInput(body: string): { files: SourceFile[]; configFile?: SourceFile } {
  const files: SourceFile[] = [];
  let configFile: SourceFile | undefined;
  for (const block of codeBlocks(body)) {
    if (block.language === "cql") {
      const repeat = /^repeat=(\d+)$/.exec(block.info);
      files.push({ path: "schema/example.cql", content: repeat ? block.content.repeat(Number(repeat[1])) : block.content });
    } else if (block.language === "yaml" && block.info === ".github/cql-review.yml") {
      configFile = { path: block.info, content: block.content };
    } else if (STATS_LANGUAGES.includes(block.language) && block.info !== "") {
      // saved nodetool output, at the path its info string gives (rules about production figures)
      files.push({ path: block.info, content: block.content });
    } else if (block.language === "yaml") {
      files.push({ path: "access-patterns.yaml", content: block.content });
    } else if (CODE_LANGUAGES.includes(block.language) && block.info !== "") {
      // application code, at the path its info string gives (rules about model files)
      files.push({ path: block.info, content: block.content });
    }
  }
  return { files, ...(configFile ? { configFile } : {}) };
}

const CODE_LANGUAGES = ["java", "kotlin", "go", "python", "javascript", "typescript"];
/** Blocks of saved nodetool output: `text`, `json` or `yaml` with a path in the info string. */
const STATS_LANGUAGES = ["text", "json", "yaml"];

async function rulesReported(body: string, extraRules: RuleModule[] = []): Promise<string[]> {
  const input = exampleInput(body);
  const code = await readCode(input.files, loadConfig(input.configFile).config, (language) => grammars.parser(language));
  const model = analyse({ ...input, code });
  return runRules(model, { rules: [...rules, ...extraRules] }).map((f) => f.rule);
}

/** An example must show its rule, not a typo: these would mean the example itself is broken. */
const BROKEN_INPUT = ["cql-syntax-error", "schema-invalid", "manifest-invalid", "config-invalid", "internal-error"];

describe("rule docs", () => {
  it("every rule has a doc and every doc has a rule", () => {
    const docs = readdirSync(RULES_DIR).filter((f) => f.endsWith(".md") && f !== "README.md").map((f) => f.slice(0, -3));
    expect(docs.sort()).toEqual(rules.map((r) => r.meta.id).sort());
  });

  for (const rule of rules) {
    const { id } = rule.meta;
    describe(id, () => {
      const doc = parseRuleDoc(readFileSync(new URL(`${id}.md`, RULES_DIR), "utf8"));
      const section = (heading: string) => doc.sections.find((s) => s.heading === heading)?.body ?? "";

      it("has the title, the rule's own one-line description, and the sections in order", () => {
        expect(doc.title).toBe(id);
        expect(doc.description).toBe(rule.meta.description);
        expect(doc.sections.map((s) => s.heading)).toEqual([...SECTIONS]);
        for (const { heading, body } of doc.sections) expect(body.trim(), `section "${heading}"`).not.toBe("");
      });

      it("names a public source of why it matters, and no text outside the repository", () => {
        // An address, Cassandra's source, or the project's own docs: a reader can open each of them.
        expect(section("Why it matters")).toMatch(/<https:\/\/[^>\s]+>|\]\(https:\/\/[^)\s]+\)|apache\/cassandra|\]\(\.\.\/docs\/[\w-]+\.md[^)]*\)/);
        expect(doc.sections.map((s) => s.body).join("\n")).not.toMatch(/\bseed 00\d|\bDESIGN\s+§|cassandra-queries\.md|partition-sizing\.md|STYLE\.md/i);
      });

      it("gives each example as a cql block, with an optional manifest or config", () => {
        for (const heading of ["Bad example", "Good example"]) {
          const blocks = codeBlocks(section(heading));
          expect(blocks.filter((b) => b.language === "cql"), heading).toHaveLength(1);
          expect(blocks.every((b) => b.language === "cql" || b.language === "yaml" || CODE_LANGUAGES.includes(b.language) || (STATS_LANGUAGES.includes(b.language) && b.info !== "")), heading).toBe(true);
        }
      });

      it(`the bad example reports ${id}`, async () => {
        const reported = await rulesReported(section("Bad example"), NEEDS_FAULTY_RULE.has(id) ? [FAULTY_RULE] : []);
        expect(reported).toContain(id);
        const otherInputProblems = reported.filter((rule) => rule !== id && BROKEN_INPUT.includes(rule));
        expect(otherInputProblems, "other input problems in the bad example").toEqual([]);
      });

      it(`the good example does not report ${id}, nor any input problem`, async () => {
        const reported = await rulesReported(section("Good example"));
        expect(reported).not.toContain(id);
        expect(reported.filter((rule) => BROKEN_INPUT.includes(rule))).toEqual([]);
      });
    });
  }
});
