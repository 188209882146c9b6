// Several models in one repository: each manifest directory (or each directory the config's
// `models:` lists) is one application's model, reviewed apart; the gate is the union.
import { describe, expect, it } from "vitest";
import { grammars } from "../src/code/grammars.js";
import { readCode } from "../src/code/read.js";
import { defaultConfig } from "../src/config.js";
import { review, type ReviewInput } from "../src/review.js";
import { asSourceFiles, severalModelsFiles } from "./helpers/several-models.js";

async function reviewOf(files: Record<string, string>, extra: Partial<ReviewInput> = {}) {
  const sources = asSourceFiles(files);
  const code = await readCode(sources, defaultConfig(), (language) => grammars.parser(language));
  return review({ files: sources, ...(code ? { code } : {}), ...extra });
}

const APPS = severalModelsFiles();

describe("a repository with several models", () => {
  it("reviews each application's schema, manifest and code apart, instead of one schema whose keyspaces clash", async () => {
    const reviewed = await reviewOf(APPS);
    expect(reviewed.findings.filter((finding) => finding.rule === "schema-invalid")).toEqual([]);
    expect(reviewed.models?.map((model) => [model.name, [...(model.review?.schema.tables.keys() ?? [])].sort()])).toEqual([
      ["apps/chat", ["store.messages_by_room", "store.users"]],
      ["apps/shop", ["store.orders_by_user", "store.users"]],
    ]);
    const chat = reviewed.models![0]!.review!;
    // `handle` exists only in the chat's users table: planned against the chat's schema.
    expect(chat.queries.map((query) => [query.id, query.plan.verdict])).toEqual([
      ["room-history", "single-partition"],
      ["apps/chat/chat/store.py#profile", "single-partition"],
    ]);
    const shop = reviewed.models![1]!.review!;
    expect(shop.findings.filter((finding) => finding.severity === "error").map((finding) => [finding.rule, finding.location.file])).toEqual([
      ["query-needs-allow-filtering", "apps/shop/src/main/java/shop/UserDao.java"],
    ]);
  });

  it("fails the gate on any model's error, with the union of findings under fingerprints of their model", async () => {
    const reviewed = await reviewOf(APPS);
    expect(reviewed.gateFails).toBe(true);
    expect(reviewed.summary.errors).toBe(1);
    const perModel = reviewed.models!.reduce((sum, model) => sum + model.review!.findings.length, 0);
    expect(reviewed.findings).toHaveLength(perModel);
    expect(new Set(reviewed.findings.map((finding) => finding.fingerprint)).size).toBe(perModel);
    expect(reviewed.findings.every((finding) => /@apps\/(chat|shop)$/.test(finding.fingerprint))).toBe(true);
  });

  it("with the paths a change touched, reviews only the models holding one, and says which", async () => {
    const onlyChat = await reviewOf(APPS, { changedPaths: ["apps/chat/chat/store.py"] });
    expect(onlyChat.models?.map((model) => [model.name, model.review !== undefined, model.skipped])).toEqual([
      ["apps/chat", true, undefined],
      ["apps/shop", false, "nothing in it changed"],
    ]);
    expect(onlyChat.gateFails).toBe(false);
    expect(onlyChat.findings.some((finding) => finding.location.file.startsWith("apps/shop/"))).toBe(false);

    // A change to the config or to a file beneath no model may alter every model.
    const config = { path: ".github/cql-review.yml", content: "fail_on: error\n" };
    const withConfig = await reviewOf(APPS, { configFile: config, changedPaths: [".github/cql-review.yml"] });
    expect(withConfig.models?.every((model) => model.review !== undefined)).toBe(true);
    const outside = await reviewOf({ ...APPS, "shared/audit.cql": "CREATE TABLE store.audit (id uuid PRIMARY KEY);\n" }, { changedPaths: ["shared/audit.cql"] });
    expect(outside.models?.every((model) => model.review !== undefined)).toBe(true);
    // A file the review does not read (a README) beneath no model leaves the models alone.
    const readme = await reviewOf({ ...APPS, "README.md": "# apps\n" }, { changedPaths: ["README.md", "apps/chat/chat/store.py"] });
    expect(readme.models?.map((model) => model.review !== undefined)).toEqual([true, false]);
  });

  it("compares each model with its own base", async () => {
    const head = { ...APPS, "apps/chat/schema.cql": APPS["apps/chat/schema.cql"]!.replace("display_name text", "display_name text,\n  avatar blob") };
    const sources = asSourceFiles(head);
    const baseSources = asSourceFiles(APPS);
    const read = (files: typeof sources) => readCode(files, defaultConfig(), (language) => grammars.parser(language));
    const reviewed = review({ files: sources, baseFiles: baseSources, code: (await read(sources))!, baseCode: (await read(baseSources))! });
    expect(reviewed.findings.every((finding) => finding.existing)).toBe(true);
    expect(reviewed.gateFails).toBe(false);
    expect([...(reviewed.changed?.tables ?? [])]).toEqual(["store.users"]);
  });

  it("takes the model roots from the config's `models:` when it lists them", async () => {
    const files = {
      "services/billing/db/schema.cql": "CREATE KEYSPACE app WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\nCREATE TABLE app.invoices (id uuid PRIMARY KEY, total decimal);\n",
      "services/ledger/db/schema.cql": "CREATE KEYSPACE app WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\nCREATE TABLE app.ledger_lines (id uuid PRIMARY KEY, amount decimal);\n",
    };
    const configFile = { path: ".github/cql-review.yml", content: "models: [services/billing, ./services/ledger/]\n" };
    const reviewed = await reviewOf(files, { configFile });
    expect(reviewed.findings.filter((finding) => finding.rule === "schema-invalid")).toEqual([]);
    expect(reviewed.models?.map((model) => [model.name, [...model.review!.schema.tables.keys()]])).toEqual([
      ["services/billing", ["app.invoices"]],
      ["services/ledger", ["app.ledger_lines"]],
    ]);
    // Without the setting the same files are one model, and the second keyspace clashes.
    const merged = await reviewOf(files);
    expect(merged.models).toBeUndefined();
    expect(merged.findings.map((finding) => finding.message)).toContainEqual(expect.stringContaining("Cannot add existing keyspace"));
  });

  it("reviews the schema beneath no model root as before, apart from the models", async () => {
    const audit = "CREATE KEYSPACE audit WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\nCREATE TABLE audit.events (id timeuuid PRIMARY KEY, what text);\n";
    const reviewed = await reviewOf({ ...APPS, "shared/audit.cql": audit });
    expect(reviewed.models?.map((model) => model.name)).toEqual(["apps/chat", "apps/shop", "(outside the models)"]);
    expect([...reviewed.models![2]!.review!.schema.tables.keys()]).toEqual(["audit.events"]);
  });

  it("leaves a repository with one model as it was: no `models`", async () => {
    const shop = Object.fromEntries(Object.entries(APPS).filter(([path]) => path.startsWith("apps/shop/")));
    const reviewed = await reviewOf(shop);
    expect(reviewed.models).toBeUndefined();
    expect(reviewed.findings.some((finding) => finding.fingerprint.includes("@"))).toBe(false);
    // A manifest named on the command line is one model whatever the tree holds.
    expect((await reviewOf(APPS, { manifestPath: "apps/shop/access-patterns.yaml" })).models).toBeUndefined();
  });
});
