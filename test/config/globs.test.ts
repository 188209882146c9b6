import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../src/config.js";
import { matchesAny } from "../../src/globs.js";

describe("matchesAny", () => {
  it("finds schema files at the root, in folders and in dot folders with the default glob", () => {
    for (const path of ["schema.cql", "db/cql/001_users.cql", ".cassandra/keyspace.cql", ".github/seed.cql"]) {
      expect(matchesAny(path, DEFAULT_CONFIG.schema), path).toBe(true);
    }
    expect(matchesAny("schema.cql.bak", DEFAULT_CONFIG.schema)).toBe(false);
    expect(matchesAny("README.md", DEFAULT_CONFIG.schema)).toBe(false);
  });

  it("expands braces: the default manifest glob finds .yaml and .yml, nothing else", () => {
    expect(matchesAny("access-patterns.yaml", DEFAULT_CONFIG.manifest)).toBe(true);
    expect(matchesAny("services/video/access-patterns.yml", DEFAULT_CONFIG.manifest)).toBe(true);
    expect(matchesAny("access-patterns.json", DEFAULT_CONFIG.manifest)).toBe(false);
    expect(matchesAny("my-access-patterns.yaml", DEFAULT_CONFIG.manifest)).toBe(false);
  });

  it("leaves out node_modules at any depth with the default ignore glob", () => {
    expect(matchesAny("node_modules/pkg/schema.cql", DEFAULT_CONFIG.ignore)).toBe(true);
    expect(matchesAny("web/node_modules/pkg/schema.cql", DEFAULT_CONFIG.ignore)).toBe(true);
    expect(matchesAny("web/src/schema.cql", DEFAULT_CONFIG.ignore)).toBe(false);
  });

  it("matches single-star globs within one folder only", () => {
    expect(matchesAny("db/users.cql", ["db/*.cql"])).toBe(true);
    expect(matchesAny("db/old/users.cql", ["db/*.cql"])).toBe(false);
  });

  it("treats a leading ./ in a glob or a path as the repository root", () => {
    expect(matchesAny("./db/users.cql", ["db/*.cql"])).toBe(true);
    expect(matchesAny("db/users.cql", ["./db/*.cql"])).toBe(true);
  });

  it("matches nothing with no globs, and is true when any of several globs matches", () => {
    expect(matchesAny("a.cql", [])).toBe(false);
    expect(matchesAny("b/a.cql", ["x/**", "b/*.cql"])).toBe(true);
  });

  it("never throws on a malformed glob", () => {
    expect(() => matchesAny("a.cql", ["[", "{a,", "**/*.cql"])).not.toThrow();
    expect(matchesAny("a.cql", ["[", "**/*.cql"])).toBe(true);
  });
});
