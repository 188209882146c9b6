import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, loadConfig, type LoadedConfig } from "../../src/config.js";
import type { Finding } from "../../src/findings.js";
import { withCpuTime } from "../helpers/cpu-time.js";

const fixture = (name: string) => ({ path: ".github/cql-review.yml", content: readFileSync(new URL(`../fixtures/configs/${name}`, import.meta.url), "utf8") });
const load = (content: string): LoadedConfig => loadConfig({ path: ".github/cql-review.yml", content });

/** `line:column message`, the way a reader checks a finding against the file. */
const where = (f: Finding) => `${f.location.range.start.line}:${f.location.range.start.column} ${f.message}`;

describe("loadConfig", () => {
  it("gives the defaults, with no findings, when there is no config file", () => {
    const { config, findings } = loadConfig();
    expect(config).toEqual(DEFAULT_CONFIG);
    expect(findings).toEqual([]);
  });

  it("gives the defaults for an empty file or one holding only comments", () => {
    for (const content of ["", "   \n", "# nothing configured yet\n"]) {
      const { config, findings } = load(content);
      expect(config).toEqual(DEFAULT_CONFIG);
      expect(findings).toEqual([]);
    }
  });

  it("never hands out the shared defaults object, so a caller cannot change them for everyone", () => {
    const { config } = loadConfig();
    config.limits.partitionBytes = 1;
    config.schema.push("x");
    expect(DEFAULT_CONFIG.limits.partitionBytes).toBe(100_000_000);
    expect(DEFAULT_CONFIG.schema).toEqual(["**/*.cql"]);
  });

  it("applies every setting of a complete config", () => {
    const { config, findings } = loadConfig(fixture("full.yml"));
    expect(findings).toEqual([]);
    expect(config).toEqual({
      schema: ["db/**/*.cql", "migrations/*.{cql,CQL}"],
      manifest: ["docs/access-patterns.yaml"],
      cassandra: "4.1",
      failOn: "warning",
      unreviewed: "warn",
      limits: { partitionValues: 50_000, partitionBytes: 64 * 1024 * 1024, partitionsPerQuery: 4, rowsPerPartition: 20_000 },
      rules: {
        "query-needs-allow-filtering": { severity: "error" },
        "table-unbounded-partition": { severity: "warning", options: { horizon: "2y" } },
        "query-full-scan": { severity: "off" },
      },
      comments: { max: 10, event: "REQUEST_CHANGES" },
      ignore: ["vendor/**", "**/fixtures/**"],
      stats: DEFAULT_CONFIG.stats,
      code: DEFAULT_CONFIG.code,
    });
  });

  it("reads the globs of saved nodetool output (stats), one as text or a list", () => {
    expect(load("stats: ops/nodetool/*.txt\n").config.stats).toEqual(["ops/nodetool/*.txt"]);
    expect(load("stats: []\n").config.stats).toEqual([]);
    expect(loadConfig(undefined).config.stats).toEqual(["**/cassandra-stats/**/*.{txt,json,yaml,yml}"]);
  });

  it("keeps the positions of rule entries for the rule engine", () => {
    const { ruleLocations } = loadConfig(fixture("full.yml"));
    expect(Object.keys(ruleLocations)).toEqual(["query-needs-allow-filtering", "table-unbounded-partition", "query-full-scan"]);
    expect(ruleLocations["table-unbounded-partition"]!.range.start).toMatchObject({ line: 15, column: 3 });
    expect(ruleLocations["table-unbounded-partition"]!.file).toBe(".github/cql-review.yml");
  });

  it("accepts the short forms: one glob as text, comments as a number, sizes in decimal units", () => {
    const { config, findings } = load("schema: cql/*.cql\ncomments: 0\nlimits: { partition_bytes: 1.5GB }\n");
    expect(findings).toEqual([]);
    expect(config.schema).toEqual(["cql/*.cql"]);
    expect(config.comments).toEqual({ max: 0, event: "COMMENT" });
    expect(config.limits.partitionBytes).toBe(1_500_000_000);
  });

  it("reads an unquoted 5.0 (a YAML number) as Cassandra 5.0", () => {
    expect(load("cassandra: 5.0\n").config.cassandra).toBe("5.0");
    expect(load("cassandra: 3.11\n").config.cassandra).toBe("3.11");
    expect(load("cassandra: '4.0'\n").config.cassandra).toBe("4.0");
  });

  it("reads the model roots (models), and refuses globs, .. and absolute paths at the entry", () => {
    expect(load("models: [apps/shop, ./apps/chat/]\n").config.models).toEqual(["apps/shop", "./apps/chat/"]);
    expect(loadConfig().config.models).toBeUndefined();
    for (const bad of ["apps/*", "../elsewhere", "/srv/app", "apps/../x", " "]) {
      const { config, findings } = load(`models: [apps/shop, ${JSON.stringify(bad)}]\n`);
      expect(config.models, bad).toBeUndefined();
      expect(findings.map(where), bad).toEqual([expect.stringMatching(/^1:\d+ .*(directory inside the repository|directory such as)/)]);
    }
    const { findings } = load("models: []\n");
    expect(findings.map(where)).toEqual([expect.stringContaining("list at least one directory")]);
  });

  it("an ignore list replaces the default one, and [] reviews everything", () => {
    expect(load("ignore: []\n").config.ignore).toEqual([]);
    expect(load("ignore: build/**\n").config.ignore).toEqual(["build/**"]);
  });

  it("reports misspelt keys at the key, with the setting it probably meant", () => {
    const { config, findings } = loadConfig(fixture("typos.yml"));
    expect(findings.map(where)).toEqual([
      '1:1 fail_onn: unknown key (did you mean "fail_on"?)',
      '3:3 limits.partition_byte: unknown key (did you mean "partition_bytes"?)',
      '4:21 comments.evnt: unknown key (did you mean "event"?)',
    ]);
    expect(findings.every((f) => f.rule === "config-invalid" && f.severity === "error")).toBe(true);
    // The valid half of `comments` still applies.
    expect(config.comments.max).toBe(5);
    expect(config.failOn).toBe("error");
  });

  it("keeps the default of every invalid setting and the value of every valid one", () => {
    const { config, findings } = loadConfig(fixture("bad-values.yml"));
    expect(findings.map(where)).toEqual([
      '1:12 cassandra: expected one of "3.11", "4.0", "4.1", "5.0"',
      "2:10 fail_on: expected error, warning or never",
      "4:21 limits.partition_values: expected a whole number of values such as 100000",
      "5:20 limits.partition_bytes: expected a size such as 100MB, 64MiB or a number of bytes",
      "6:25 limits.partitions_per_query: expected a whole number of partitions such as 1",
      "9:20 rules.query-full-scan: expected off, info, warning or error",
      "10:30 rules.table-unbounded-partition: expected off, info, warning or error, or [level, options]",
      "12:18 comments.max: expected the most inline comments per review, a whole number such as 50",
      "13:9 schema: list at least one glob",
      "14:9 ignore: expected a glob such as **/*.cql, or a list of globs",
    ]);
    expect(config.cassandra).toBeUndefined();
    expect(config.failOn).toBe("error");
    expect(config.limits).toEqual({ ...DEFAULT_CONFIG.limits, rowsPerPartition: 5000 });
    expect(config.rules).toEqual({ "query-needs-allow-filtering": { severity: "info" } });
    expect(config.comments).toEqual({ max: 50, event: "REQUEST_CHANGES" });
    expect(config.schema).toEqual(DEFAULT_CONFIG.schema);
    expect(config.ignore).toEqual(DEFAULT_CONFIG.ignore);
  });

  it("reports a list instead of a mapping once, and uses the defaults", () => {
    const { config, findings } = loadConfig(fixture("list.yml"));
    expect(config).toEqual(DEFAULT_CONFIG);
    expect(findings.map(where)).toEqual([
      "1:1 the config file must be a mapping of settings (schema, manifest, cassandra, fail_on, unreviewed, limits, rules, comments, code, ignore), but it holds a list; the defaults are used",
    ]);
  });

  it("reports tab indentation at the tab and uses the defaults", () => {
    const { config, findings } = loadConfig(fixture("tabs.yml"));
    expect(config).toEqual(DEFAULT_CONFIG);
    expect(findings.map(where)).toEqual(["3:1 tab used for indentation: YAML indents with spaces only"]);
  });

  it("reports a duplicate key at its second occurrence", () => {
    const { config, findings } = loadConfig(fixture("duplicate.yml"));
    expect(findings.map(where)).toEqual(['3:1 duplicate key "fail_on": a key may appear only once in a mapping (the last one is used)']);
    expect(config.comments.max).toBe(5);
  });

  it("refuses an alias bomb quickly, at its first alias", () => {
    const { result: { config, findings }, cpuMs } = withCpuTime(() => loadConfig(fixture("alias-bomb.yml")));
    expect(cpuMs).toBeLessThan(2000);
    expect(config).toEqual(DEFAULT_CONFIG);
    expect(findings.map(where)).toEqual([
      '2:8 too many aliases: expanding the *references would build a huge document (an "alias bomb"); the config file was not read',
    ]);
  });

  it("drops a __proto__ key without touching any prototype, and still applies the rest", () => {
    const { config, findings } = loadConfig(fixture("proto.yml"));
    expect(findings.map(where)).toEqual(['1:1 __proto__: "__proto__" cannot be used as a key']);
    expect(config.failOn).toBe("error");
    expect(config.comments.max).toBe(3);
    expect(({} as Record<string, unknown>).fail_on).toBeUndefined();
    // A rule named like an Object.prototype member is an ordinary entry; absent ones stay absent.
    expect(config.rules.constructor).toEqual({ severity: "error" });
    expect(config.rules.toString).toBeUndefined();
  });

  it("refuses a rule id longer than YAML allows for a key, at the key, and uses the defaults", () => {
    const { config, findings } = load(`fail_on: warning\nrules:\n  ${"x".repeat(1025)}: off\n`);
    expect(findings.map(where)).toEqual(["3:3 a key may be at most 1,024 characters long (a YAML limit for keys written without `? `); shorten it"]);
    expect(findings[0]!.rule).toBe("config-invalid");
    expect(config).toEqual(DEFAULT_CONFIG);
  });

  it("refuses binary content and files over 1 MiB with one finding each", () => {
    const binary = load("fail_on: never\n\u0000\u0001\u0002");
    expect(binary.findings.map(where)).toEqual(["2:1 the config file looks like a binary file (it contains NUL bytes); it must be YAML text in UTF-8"]);
    expect(binary.config).toEqual(DEFAULT_CONFIG);

    const huge = load(`fail_on: never\n# ${"x".repeat(2 * 1024 * 1024)}\n`);
    expect(huge.findings.map(where)).toEqual(["1:1 the config file is 2 MiB, over the 1 MiB limit; it was not read"]);
    expect(huge.config.failOn).toBe("error");
  });

  it("refuses YAML's tagged values as rule options, where nothing else would check them", () => {
    const tagged = load(
      "rules:\n  table-unbounded-partition: [warning, { horizon: !!binary 2y }]\n  query-full-scan: [error, { since: !!timestamp 2001-12-14 }]\n  table-unread: [info, { horizon: 2y, tables: [a, b] }]\n",
    );
    expect(tagged.findings.map(where)).toEqual([
      "2:40 rules.table-unbounded-partition[1]: rule options must be plain YAML values: text, numbers, true or false, lists and mappings, not tagged values such as !!binary or !!timestamp",
      "3:28 rules.query-full-scan[1]: rule options must be plain YAML values: text, numbers, true or false, lists and mappings, not tagged values such as !!binary or !!timestamp",
    ]);
    // The refused settings fall back to the rule's defaults; the plain one is kept.
    expect(tagged.config.rules["table-unbounded-partition"]).toBeUndefined();
    expect(tagged.config.rules["query-full-scan"]).toBeUndefined();
    expect(tagged.config.rules["table-unread"]).toEqual({ severity: "info", options: { horizon: "2y", tables: ["a", "b"] } });
  });

  it("gives findings fingerprints that do not depend on line numbers", () => {
    const a = load("fail_on: sometimes\n").findings[0]!;
    const b = load("# a comment\n\nfail_on: sometimes\n").findings[0]!;
    expect(a.location.range.start.line).not.toBe(b.location.range.start.line);
    expect(a.fingerprint).toBe(b.fingerprint);
  });
});
