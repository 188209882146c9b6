// `npm test` passes on a machine with nothing but Node: no test it runs may start a server the
// machine has to have installed. Such tests live in test/services/ (`npm run test:services`) or
// test/browser/ (`npm run test:browser`), which CI runs after installing the servers.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const TEST_ROOT = join(ROOT, "test");
/** What starts an installed server: a redis-server process, a Chromium. */
const STARTS_A_SERVICE = [/spawn(Sync)?\(\s*["'`]redis-server/, /\bchromium\.launch\(/, /from "playwright-core"/];
const APART = ["test/services/", "test/browser/"];

function typescriptFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" || entry.name === "artifacts" ? [] : typescriptFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

describe("npm test on a fresh machine", () => {
  // This file names the patterns it looks for; it is not one of them.
  const self = relative(ROOT, fileURLToPath(import.meta.url));
  const files = typescriptFiles(TEST_ROOT)
    .map((path) => relative(ROOT, path))
    .filter((path) => path !== self);

  it("starts no installed server outside test/services/ and test/browser/", () => {
    const offenders = files
      .filter((path) => !APART.some((prefix) => path.startsWith(prefix)))
      .filter((path) => STARTS_A_SERVICE.some((pattern) => pattern.test(readFileSync(join(ROOT, path), "utf8"))));
    expect(offenders).toEqual([]);
  });

  it("imports nothing from those folders in the files npm test runs", () => {
    const offenders = files
      .filter((path) => !APART.some((prefix) => path.startsWith(prefix)))
      .filter((path) => /from "[^"]*\/(services|browser)\/[^"]*"/.test(readFileSync(join(ROOT, path), "utf8")));
    expect(offenders).toEqual([]);
  });

  it("keeps the services' tests out of npm test's file pattern", () => {
    const inServices = files.filter((path) => path.startsWith("test/services/"));
    expect(inServices.length).toBeGreaterThan(0);
    expect(inServices.filter((path) => path.endsWith(".test.ts"))).toEqual([]);
  });
});
