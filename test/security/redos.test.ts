// Every regular expression of the project may meet text from a repository, a pull request or a
// comment, so each must run in linear time. The TypeScript compiler finds every RegExp literal
// (and `new RegExp("literal")`) in src/ and rules/, and recheck (its pure-JavaScript backend: no
// native binary or JVM needed in CI) checks each for super-linear backtracking.
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { checkSync } from "recheck";
import ts from "typescript";
import { projectSources } from "../helpers/source-files.js";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");

/**
 * Patterns recheck flags that are safe where they are used, each with the reason. Keyed by
 * `file: /source/flags`. Keep it empty unless a pattern truly cannot be written linearly.
 */
const ALLOWED: Record<string, string> = {
  "src/cql/tokens.ts: /\\/\\*[\\s\\S]*?\\*\\//":
    "a lexer token, tried at one position at a time: a `/*` without its end fails once, then UnterminatedBlockComment takes the rest of the file (the lexer test below feeds 200k of them)",
  "src/cql/tokens.ts: /\\d+(?:\\.(?!\\.)\\d*(?:[eE][+-]?\\d+)?|[eE][+-]?\\d+)/":
    "a lexer token, tried at one position at a time: on a digit run it fails once and IntegerLiteral then takes the whole run (the lexer test below feeds 500k digits)",
  "src/report/neutralise.ts: /[@＠]|#(?=\\p{N})|:(?=\\/\\/)|gh-(?=\\p{N})|www(?=\\.)|(?:mailto|xmpp)(?=:)|\\b(?=[0-9]*[a-f])[0-9a-f]{7,40}\\b/giu":
    "every alternative is a fixed trigger or starts at a word boundary, and the hex lookahead stops at the first non-digit; recheck's fuzzer flags it on some runs only, and its attack string runs in linear time (the neutraliser test in linear-text.test.ts)",
  "src/report/figures.ts: /0+$/": "applied only to the two-digit fraction of a number formatted by toFixed(2)",
  "src/rule-engine/rule-index.ts: /\\s*\\n\\s*/g": "applied only to the descriptions of the project's own rules, never to repository text",
};

interface FoundRegExp {
  file: string;
  line: number;
  source: string;
  flags: string;
}

/** The RegExp literals of one file and `new RegExp(...)`/`RegExp(...)` calls whose arguments are string literals. */
function regExpsIn(path: string): FoundRegExp[] {
  const text = readFileSync(path, "utf8");
  const file = relative(ROOT, path);
  const sourceFile = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found: FoundRegExp[] = [];
  const lineOf = (node: ts.Node) => sourceFile.getLineAndCharacterOfPosition(node.getStart(sourceFile)).line + 1;
  const visit = (node: ts.Node): void => {
    if (ts.isRegularExpressionLiteral(node)) {
      const literal = node.text;
      const end = literal.lastIndexOf("/");
      found.push({ file, line: lineOf(node), source: literal.slice(1, end), flags: literal.slice(end + 1) });
    } else if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && ts.isIdentifier(node.expression) && node.expression.text === "RegExp") {
      const [pattern, flags] = node.arguments ?? [];
      if (pattern && ts.isStringLiteralLike(pattern)) {
        found.push({ file, line: lineOf(node), source: pattern.text, flags: flags && ts.isStringLiteralLike(flags) ? flags.text : "" });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

const regExps = projectSources().map((file) => join(ROOT, file)).flatMap(regExpsIn);

describe("regular expressions are linear-time", () => {
  it("finds the project's regular expressions", () => {
    // A broken finder would pass vacuously.
    expect(regExps.length).toBeGreaterThan(50);
    expect(regExps.some((r) => r.file === join("src", "github", "worker", "commands.ts"))).toBe(true);
  });

  it("recheck finds none vulnerable outside the allow-list", () => {
    process.env.RECHECK_SYNC_BACKEND = "pure";
    const vulnerable: string[] = [];
    const seen = new Map<string, string>();
    for (const regExp of regExps) {
      const key = `/${regExp.source}/${regExp.flags}`;
      let status = seen.get(key);
      if (status === undefined) {
        // Step limits only, no wall-clock ones: recheck's per-attack timeouts (1 s by default) turn
        // a slow machine into a "vulnerable" verdict, which made this test flaky under load.
        const diagnostics = checkSync(regExp.source, regExp.flags, {
          timeout: 60_000,
          randomSeed: 2026,
          attackTimeout: null,
          incubationTimeout: null,
          seedingTimeout: null,
        });
        status = diagnostics.status === "vulnerable" ? `vulnerable (${diagnostics.complexity.summary}, attack ${JSON.stringify(diagnostics.attack.pattern)})` : diagnostics.status;
        seen.set(key, status);
      }
      if (status.startsWith("vulnerable") && !Object.prototype.hasOwnProperty.call(ALLOWED, `${regExp.file}: ${key}`)) {
        vulnerable.push(`${regExp.file}:${regExp.line} ${key} ${status}`);
      }
    }
    expect(vulnerable).toEqual([]);
  }, 300_000);

  it("every allow-list entry gives a reason and still names a pattern of the code", () => {
    const present = new Set(regExps.map((r) => `${r.file}: /${r.source}/${r.flags}`));
    for (const [key, reason] of Object.entries(ALLOWED)) {
      expect(reason.trim().length, key).toBeGreaterThan(20);
      expect(present.has(key), key).toBe(true);
    }
  });
});
