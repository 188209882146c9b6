// Which files are application code to read, and which grammars a change needs.
import { describe, expect, it } from "vitest";
import { isCodeFile, languagesToRead, readCode } from "../../src/code/read.js";
import { defaultConfig, loadConfig } from "../../src/config.js";

describe("isCodeFile", () => {
  const config = defaultConfig();

  it("takes the host languages' files anywhere, and leaves tests, vendored and built code out", () => {
    const read = ["src/main/java/com/example/VideoDao.java", "internal/store/events.go", "app/models.py", "src/users.js", "src/orders.ts", "web/App.tsx"];
    const left = ["src/test/java/com/example/VideoDaoTest.java", "internal/store/events_test.go", "tests/test_models.py", "src/users.test.js", "vendor/github.com/gocql/gocql/session.go", "node_modules/cassandra-driver/index.js", "types/index.d.ts", "schema/videos.cql", "README.md"];
    expect(read.filter((path) => isCodeFile(path, config))).toEqual(read);
    expect(left.filter((path) => isCodeFile(path, config))).toEqual([]);
  });

  it("follows the config: off, other globs, fewer languages", () => {
    expect(isCodeFile("app/models.py", loadConfig({ path: ".github/cql-review.yml", content: "code: false\n" }).config)).toBe(false);
    const onlyGo = loadConfig({ path: ".github/cql-review.yml", content: "code: { files: 'services/**', languages: [go] }\n" }).config;
    expect(isCodeFile("services/store/events.go", onlyGo)).toBe(true);
    expect(isCodeFile("internal/store/events.go", onlyGo)).toBe(false);
    expect(isCodeFile("services/app.py", onlyGo)).toBe(false);
  });

  it("reports a misspelt code setting at its line", () => {
    const { findings } = loadConfig({ path: ".github/cql-review.yml", content: "code:\n  languages: [cobol]\n" });
    expect(findings.map((f) => `${f.location.range.start.line} ${f.message}`)).toEqual([expect.stringContaining("2 ")]);
  });
});

describe("languagesToRead", () => {
  it("needs a grammar only for languages with a file that names a Cassandra driver", () => {
    const files = [
      { path: "a.go", content: 'import "github.com/gocql/gocql"' },
      { path: "b.go", content: "package b" },
      { path: "c.py", content: "import requests" },
    ];
    expect([...languagesToRead(files)]).toEqual(["go"]);
  });

  it("loads no grammar for a change without such a file", async () => {
    const asked: string[] = [];
    const result = await readCode([{ path: "c.py", content: "print('SELECT 1')" }], defaultConfig(), async (language) => {
      asked.push(language);
      throw new Error("not expected");
    });
    expect(asked).toEqual([]);
    expect(result?.statements).toEqual([]);
  });
});
