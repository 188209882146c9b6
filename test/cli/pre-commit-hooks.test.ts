import { readFileSync } from "node:fs";
import * as path from "node:path";
import { parse as parseYaml } from "yaml";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "./run-cli.js";

const hooks = parseYaml(readFileSync(path.join(REPO_ROOT, ".pre-commit-hooks.yaml"), "utf8")) as Record<string, unknown>[];
const packageJson = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { bin: Record<string, string> };

describe(".pre-commit-hooks.yaml", () => {
  const [hook] = hooks;

  it("declares one node hook that runs the package's own binary on the whole repository", () => {
    expect(hooks).toHaveLength(1);
    expect(hook).toMatchObject({ id: "cql-review", language: "node", entry: "cql-review check", args: ["."], pass_filenames: false });
    expect(Object.keys(packageJson.bin)).toContain(String(hook.entry).split(" ")[0]);
  });

  it("runs when a schema file, a manifest, the config or application code changes, and not otherwise", () => {
    // pre-commit matches `files` with Python's re.search on repository-relative paths
    const files = new RegExp(String(hook.files));
    const modelFiles = ["src/main/java/UserDao.java", "app/Repo.kt", "build.gradle.kts", "store/users.go", "app/dao.py", "lib/db.js", "lib/db.mjs", "src/app.ts", "src/view.tsx"];
    for (const changed of ["db/schema.cql", "schema/001_init.cql", "access-patterns.yaml", "svc/access-patterns.yml", ".github/cql-review.yml", ...modelFiles]) {
      expect(files.test(changed), changed).toBe(true);
    }
    for (const unrelated of ["README.md", "my-access-patterns.yaml", "notes.cql.txt", "go.mod", "app.json", "style.css", "src/app.ts.orig"]) expect(files.test(unrelated), unrelated).toBe(false);
  });
});
