// What docs/deploy-probot.md promises for local development: a wrong key path stops the server
// with one clear line, and deliveries reach localhost through the webhook proxy.
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { checkServerEnvironment } from "../../src/github/server-environment.js";
import { startServer } from "../../src/github/server.js";

const saved = { ...process.env };
afterEach(() => {
  for (const key of ["APP_ID", "PRIVATE_KEY", "PRIVATE_KEY_PATH", "WEBHOOK_SECRET"]) {
    if (saved[key] === undefined) delete process.env[key];
    else process.env[key] = saved[key];
  }
});

describe("the server's start", () => {
  it("refuses a PRIVATE_KEY_PATH with no file, in one line, rather than falling back to the setup page", async () => {
    expect(() => checkServerEnvironment({ PRIVATE_KEY_PATH: "keys/missing.pem" })).toThrow(
      'PRIVATE_KEY_PATH is "keys/missing.pem", but there is no file there: give the path of the app\'s .pem private key.',
    );
    Object.assign(process.env, { APP_ID: "1", PRIVATE_KEY_PATH: "/nonexistent/cql-review.pem", WEBHOOK_SECRET: "s" });
    delete process.env.PRIVATE_KEY;
    await expect(startServer()).rejects.toThrow(/^PRIVATE_KEY_PATH is "\/nonexistent\/cql-review\.pem", but there is no file there/);
  });

  it("accepts an existing key file, and PRIVATE_KEY, which Probot reads first", () => {
    const app = { APP_ID: "1", WEBHOOK_SECRET: "a-real-secret" };
    expect(checkServerEnvironment({ ...app, PRIVATE_KEY_PATH: "package.json" })).toBe("serve");
    expect(
      checkServerEnvironment({ ...app, PRIVATE_KEY_PATH: "missing.pem", PRIVATE_KEY: "-----BEGIN RSA PRIVATE KEY-----" }),
    ).toBe("serve");
  });
});

describe("local development through a webhook proxy", () => {
  it("installs smee-client with the development dependencies, which Probot needs to forward WEBHOOK_PROXY_URL", () => {
    const packageJson = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { devDependencies: Record<string, string> };
    expect(packageJson.devDependencies["smee-client"]).toBeDefined();
    const docs = readFileSync(new URL("../../docs/deploy-probot.md", import.meta.url), "utf8");
    expect(docs).toContain("WEBHOOK_PROXY_URL");
    expect(docs).toContain("smee");
  });
});
