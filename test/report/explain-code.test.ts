// explain() of statements of the application's code: by full id or by function, the same plan as a
// manifest query with the code's place, a clear answer for statements built at run time, and the
// terminal, Markdown and command-line forms of those answers.
import * as nodeFs from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { describe, expect, it } from "vitest";
import { explain, parseExplainRequest, type ExplainAnswer } from "../../src/explain.js";
import { renderExplainText } from "../../src/report/explain-text.js";
import { renderExplainJson } from "../../src/report/json.js";
import { renderExplainMarkdown } from "../../src/report/markdown.js";
import { reviewWithCode } from "../code/review-with-code.js";
import { runCli } from "../cli/run-cli.js";

const SHOP = "src/main/java/com/example/shop/UserDao.java";
const ADMIN = "src/main/java/com/example/admin/UserDao.java";

const FILES = {
  "schema/shop.cql": `CREATE TABLE shop.users (user_id uuid PRIMARY KEY, email text, name text);
CREATE TABLE shop.users_by_email (email text PRIMARY KEY, user_id uuid);
`,
  "access-patterns.yaml": `version: 1
keyspace: shop
queries:
  - id: user-by-email
    code: ${SHOP}#UserDao.findByEmail
    rate: 50/s
`,
  [SHOP]: `package com.example.shop;

import com.datastax.oss.driver.api.core.CqlSession;
import java.util.UUID;

public class UserDao {
    private static final String BY_EMAIL =
        "SELECT user_id FROM users_by_email WHERE email = ?";
    private final CqlSession session;

    public UserDao(CqlSession session) { this.session = session; }

    public void findByEmail(String email) {
        session.execute(session.prepare(BY_EMAIL).bind(email));
    }

    public void findByName(String name) {
        session.execute(session.prepare("SELECT user_id FROM users WHERE name = ?").bind(name));
    }

    public void findById(UUID id) {
        session.execute(session.prepare("SELECT name FROM users WHERE user_id = ?").bind(id));
    }

    public void add(UUID id, String name) {
        session.execute(session.prepare("INSERT INTO users (user_id, name) VALUES (?, ?)").bind(id, name));
    }

    public void search(String name) {
        session.execute("SELECT user_id FROM users WHERE name = '" + name + "'");
    }
}
`,
  [ADMIN]: `package com.example.admin;

import com.datastax.oss.driver.api.core.CqlSession;
import java.util.UUID;

public class UserDao {
    private final CqlSession session;

    public UserDao(CqlSession session) { this.session = session; }

    public void findById(UUID id) {
        session.execute(session.prepare("SELECT email FROM users WHERE user_id = ?").bind(id));
    }
}
`,
};

const reviewed = await reviewWithCode(FILES);

function expectKind<K extends ExplainAnswer["kind"]>(answer: ExplainAnswer, kind: K): Extract<ExplainAnswer, { kind: K }> {
  expect(answer.kind).toBe(kind);
  return answer as Extract<ExplainAnswer, { kind: K }>;
}

const ask = (text: string): ExplainAnswer => {
  const request = parseExplainRequest(text);
  if ("error" in request) throw new Error(request.error);
  return explain(reviewed, request);
};

describe("parseExplainRequest with statements of the code", () => {
  it.each([
    [`${SHOP}#UserDao.findByEmail`, `${SHOP}#UserDao.findByEmail`],
    ["UserDao.findByEmail", "UserDao.findByEmail"],
    ["`UserDao.findByEmail~2`", "UserDao.findByEmail~2"],
    ["/cql explain app/queries.py#(top level)~3", "app/queries.py#(top level)~3"],
    ["web/dao.js#$load", "web/dao.js#$load"],
  ])("reads %j as a query id", (text, id) => {
    expect(parseExplainRequest(text)).toEqual({ kind: "query", id });
  });

  it("still refuses what is no id", () => {
    for (const text of ["a#b c", "x.java#A.b <img src=x>", "#UserDao.find"]) expect(parseExplainRequest(text)).toHaveProperty("error");
  });
});

describe("explain a statement of the code", () => {
  it("answers the function of a statement a manifest entry describes with that entry's plan and the code's place", () => {
    const answer = expectKind(ask("UserDao.findByEmail"), "query");
    expect(answer).toMatchObject({ id: "user-by-email", table: "shop.users_by_email", ratePerSecond: 50, cql: "SELECT user_id FROM users_by_email WHERE email = ?" });
    expect(answer.plan.verdict).toBe("single-partition");
    // the text is written in the constant (line 8), the driver runs it at line 14
    expect(answer.code).toEqual({ id: `${SHOP}#UserDao.findByEmail`, file: SHOP, line: 8, api: "session.prepare", call: { file: SHOP, line: 14 } });
  });

  it("answers an implicit statement by its full id, its file and function, or its function in any case", () => {
    for (const name of [`${SHOP}#UserDao.findByName`, "shop/UserDao.java#UserDao.findByName", "userdao.findbyname"]) {
      const answer = expectKind(ask(name), "query");
      expect(answer.id).toBe(`${SHOP}#UserDao.findByName`);
      expect(answer.plan.verdict).toBe("needs-allow-filtering");
      expect(answer.code).toMatchObject({ file: SHOP, line: 18 });
      expect(answer.findings.map((finding) => finding.rule)).toContain("query-needs-allow-filtering");
    }
  });

  it("asks for the full id when a function name is in several files", () => {
    const answer = expectKind(ask("UserDao.findById"), "not-found");
    expect(answer.message).toBe("2 statements of the code are named UserDao.findById: give the one you mean in full.");
    expect(answer.known).toEqual([`${ADMIN}#UserDao.findById`, `${SHOP}#UserDao.findById`]);
    expect(expectKind(ask(`admin/UserDao.java#UserDao.findById`), "query").table).toBe("shop.users");
  });

  it("says a statement built at run time is not analysed, why, and where", () => {
    const answer = expectKind(ask("UserDao.search"), "code-dynamic");
    expect(answer.code).toMatchObject({ id: `${SHOP}#UserDao.search`, file: SHOP, line: 30, api: "session.execute" });
    expect(answer.reason).toBe("name is not a constant of the code read");
    expect(answer.start).toMatch(/^SELECT user_id FROM users WHERE name = '/);
  });

  it("says a write is not a query", () => {
    expect(expectKind(ask("UserDao.add"), "not-found").message).toBe(`UserDao.add runs INSERT, not a SELECT (${SHOP}:26): explain plans reads only.`);
  });

  it("suggests the code's statements by their function for a misspelt one", () => {
    const answer = expectKind(ask("UserDao.findByNmae"), "not-found");
    expect(answer.message).toBe("No query UserDao.findByNmae in the access-patterns manifest or the application's code.");
    expect(answer.known[0]).toBe(`${SHOP}#UserDao.findByName`);
  });
});

describe("rendering the answers about code", () => {
  it("shows the code's place in the terminal and on GitHub", () => {
    const answer = ask("UserDao.findByEmail");
    expect(renderExplainText(answer, { color: false })).toContain(`\n  in the code: ${SHOP}:8 (session.prepare, run at ${SHOP}:14), ${SHOP}#UserDao.findByEmail\n`);
    expect(renderExplainMarkdown(answer)).toContain(
      `\n\nIn the code: \`${SHOP}:8\` (\`session.prepare\`, run at \`${SHOP}:14\`) · \`${SHOP}#UserDao.findByEmail\`\n\n`,
    );
    expect(JSON.parse(renderExplainJson(answer)).answer.code).toMatchObject({ file: SHOP, line: 8 });
  });

  it("renders a statement built at run time as one clear answer", () => {
    const answer = ask("UserDao.search");
    expect(renderExplainText(answer, { color: false })).toBe(
      `${SHOP}#UserDao.search\n  built at run time, not analysed: name is not a constant of the code read\n  at ${SHOP}:30 (session.execute), starting ${(answer as { start: string }).start}\n`,
    );
    const markdown = renderExplainMarkdown(answer);
    expect(markdown).toMatch(/^### `src\/main\/java\/com\/example\/shop\/UserDao\.java#UserDao\.search`\n\nBuilt at run time, not analysed: name is not a constant of the code read, at `[^`]+:30` \(`session\.execute`\), starting `/);
    expect(JSON.parse(renderExplainJson(answer)).answer).toMatchObject({ kind: "code-dynamic", reason: "name is not a constant of the code read" });
  });
});

describe("cql-review explain of code statements", () => {
  it("explains by function from the command line, and exits 1 for a statement built at run time", async () => {
    const project = await nodeFs.mkdtemp(path.join(tmpdir(), "cql-review-explain-code-"));
    try {
      for (const [file, content] of Object.entries(FILES)) {
        await nodeFs.mkdir(path.dirname(path.join(project, file)), { recursive: true });
        await nodeFs.writeFile(path.join(project, file), content);
      }
      const found = await runCli(["explain", "UserDao.findByName"], { cwd: project });
      expect(found.stderr).toBe("");
      expect(found.code).toBe(0);
      expect(found.stdout).toContain(`  in the code: ${SHOP}:18 (session.prepare)\n`);
      const dynamic = await runCli(["explain", ".", `${SHOP}#UserDao.search`], { cwd: project });
      expect(dynamic.code).toBe(1);
      expect(dynamic.stdout).toContain("built at run time, not analysed");
    } finally {
      await nodeFs.rm(project, { recursive: true, force: true });
    }
  });
});
