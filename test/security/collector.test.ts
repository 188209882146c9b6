// The collector caps what it fetches before fetching, reads identical blobs once, never sends an
// empty query, and uses a partial GraphQL answer while reporting what failed.
import { Octokit } from "@octokit/rest";
import { describe, expect, it } from "vitest";
import { collectPullRequest } from "../../src/github/api/collect.js";
import { realCore } from "../../src/github/worker/core.js";
import { REVIEW_LIMITS } from "../../src/review.js";
import { captureEachTest, nockGraphqlFiles, nockTree, type RepositoryState } from "../github/helpers/github-mock.js";
import { BASE_SHA, DEFAULT_BRANCH, HEAD_SHA, OWNER, PR_NUMBER, REPO } from "../github/helpers/payloads.js";

const pr = { owner: OWNER, repo: REPO, number: PR_NUMBER, headSha: HEAD_SHA, baseSha: BASE_SHA, defaultBranch: DEFAULT_BRANCH };
const github = () => new Octokit({ request: { retries: 0 } });
const collect = () => collectPullRequest(github(), realCore, pr, { forReview: false });
const table = "CREATE TABLE shop.t (id uuid PRIMARY KEY);\n";

describe("the collector", () => {
  const capture = captureEachTest({ installationToken: false });

  it("reads 1,000 paths holding the same blob in one query", async () => {
    const head = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`schema/copy${String(i).padStart(4, "0")}.cql`, table]));
    nockTree(capture(), head);
    nockGraphqlFiles(capture(), { base: {}, head });
    const collected = await collect();
    const queries = capture().graphqlQueries();
    expect(queries).toHaveLength(1);
    expect(Object.keys(queries[0]!.variables).filter((name) => /^e\d+$/.test(name))).toHaveLength(1);
    expect(collected.files).toHaveLength(1_000);
    expect(collected.files.every((file) => file.content === table)).toBe(true);
  });

  it("caps the files it fetches, naming each file left out", async () => {
    const count = REVIEW_LIMITS.filesPerReview + 3;
    const head = Object.fromEntries(Array.from({ length: count }, (_, i) => [`schema/t${String(i).padStart(5, "0")}.cql`, `CREATE TABLE shop.t${i} (id uuid PRIMARY KEY);\n`]));
    nockTree(capture(), head);
    nockGraphqlFiles(capture(), { base: {}, head }, Math.ceil(REVIEW_LIMITS.filesPerReview / 250));
    const collected = await collect();
    const requested = capture().graphqlQueries().flatMap((q) => Object.keys(q.variables).filter((name) => /^e\d+$/.test(name)));
    expect(requested).toHaveLength(REVIEW_LIMITS.filesPerReview);
    expect(collected.files).toHaveLength(REVIEW_LIMITS.filesPerReview);
    const left = collected.findings.filter((f) => f.fingerprint.startsWith("input-limit-exceeded:review-files:"));
    expect(left.map((f) => f.location.file)).toEqual(Object.keys(head).slice(REVIEW_LIMITS.filesPerReview));
  });

  it("leaves files out by bytes, from the tree's sizes", async () => {
    const size = REVIEW_LIMITS.fileBytes - 1;
    const count = Math.floor(REVIEW_LIMITS.bytesPerReview / size) + 1;
    const head = Object.fromEntries(Array.from({ length: count }, (_, i) => [`schema/big${i}.cql`, `-- ${i}\n`]));
    const sizes = Object.fromEntries(Object.keys(head).map((path) => [path, size]));
    nockTree(capture(), head, { sizes });
    nockGraphqlFiles(capture(), { base: {}, head });
    const collected = await collect();
    expect(collected.files).toHaveLength(count - 1);
    expect(collected.findings.map((f) => f.fingerprint)).toEqual([`input-limit-exceeded:review-size:schema/big${count - 1}.cql`]);
  });

  it("never sends an empty query: extra globs that only match files over the size limit", async () => {
    const head = { "db/huge.cql": table, "schema/ok.cql": table.replace("shop.t", "shop.u") };
    const state: RepositoryState = { base: {}, head, config: "schema: ['db/*.cql', 'schema/*.cql']\n" };
    nockTree(capture(), head, { sizes: { "db/huge.cql": 5 * 1024 * 1024 } });
    nockGraphqlFiles(capture(), state);
    const collected = await collect();
    expect(capture().graphqlQueries()).toHaveLength(1);
    expect(collected.files.map((f) => f.path)).toEqual(["schema/ok.cql"]);
    expect(collected.findings.map((f) => f.fingerprint)).toEqual(["input-limit-exceeded:file-size:db/huge.cql"]);
  });

  it("a binary or truncated config is reported and not used", async () => {
    for (const override of [{ isBinary: true, text: null }, { isTruncated: true }]) {
      const head = { "schema/ok.cql": table };
      const state: RepositoryState = {
        base: {},
        head,
        config: "fail_on: never\n",
        blobOverrides: { [`${DEFAULT_BRANCH}:.github/cql-review.yml`]: override },
      };
      nockTree(capture(), head);
      nockGraphqlFiles(capture(), state);
      const collected = await collect();
      expect(collected.configFile).toBeUndefined();
      expect(collected.config.failOn).toBe("error");
      expect(collected.findings).toMatchObject([{ rule: "input-limit-exceeded", location: { file: ".github/cql-review.yml" } }]);
      expect(collected.findings[0]!.message).toMatch(/the default settings were used; it was not reviewed\.$/);
    }
  });

  it("a partial GraphQL answer: the blobs that came back are used, the ones that failed are reported", async () => {
    const head = { "schema/a.cql": table, "schema/b.cql": table.replace("shop.t", "shop.b") };
    nockTree(capture(), head);
    capture()
      .scope()
      .post("/graphql")
      .reply(200, (_uri, body) => {
        capture().record("POST", "/graphql", body);
        const { variables } = body as { variables: Record<string, string> };
        const failing = Object.entries(variables).find(([, expression]) => expression.endsWith(":schema/b.cql"))![0];
        const working = Object.entries(variables).find(([, expression]) => expression.endsWith(":schema/a.cql"))![0];
        return {
          data: { repository: { [`f${working.slice(1)}`]: { text: head["schema/a.cql"], isBinary: false, byteSize: 40, isTruncated: false }, [`f${failing.slice(1)}`]: null, config: null } },
          errors: [{ message: "Something went wrong", path: ["repository", `f${failing.slice(1)}`] }],
        };
      });
    const collected = await collect();
    expect(collected.files.map((f) => f.path)).toEqual(["schema/a.cql"]);
    expect(collected.findings.map((f) => [f.location.file, f.fingerprint])).toEqual([["schema/b.cql", "input-limit-exceeded:unreadable:schema/b.cql"]]);
  });
});
