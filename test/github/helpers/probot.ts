// A real Probot instance for end-to-end tests: throttling and retries off (Probot 14 ignores the
// object form of these options, hence the function form), logs captured for assertions.
import { generateKeyPairSync } from "node:crypto";
import { Probot, ProbotOctokit } from "probot";
import type { Logger } from "probot";
import { createApp } from "../../../src/github/worker/create-app.js";
import type { ReviewCore } from "../../../src/github/port.js";
import { APP_ID } from "./payloads.js";

export const PRIVATE_KEY = generateKeyPairSync("rsa", {
  modulusLength: 2048,
  privateKeyEncoding: { type: "pkcs1", format: "pem" },
  publicKeyEncoding: { type: "spki", format: "pem" },
}).privateKey;

export const TestOctokit = ProbotOctokit.defaults((options: any) => ({
  ...options,
  retry: { enabled: false },
  throttle: { ...options.throttle, enabled: false },
}));

export interface LogLine {
  level: string;
  fields: Record<string, unknown>;
  message: string;
}

export function capturingLogger(lines: LogLine[] = []): Logger & { lines: LogLine[] } {
  const log = (level: string) => (fields: unknown, message?: string) => {
    if (typeof fields === "string") lines.push({ level, fields: {}, message: fields });
    else lines.push({ level, fields: (fields ?? {}) as Record<string, unknown>, message: message ?? "" });
  };
  const logger: any = {
    lines,
    level: "trace",
    trace: log("trace"),
    debug: log("debug"),
    info: log("info"),
    warn: log("warn"),
    error: log("error"),
    fatal: log("fatal"),
    child: () => logger,
  };
  return logger;
}

export function testProbot(core: ReviewCore, options: { baseUrl?: string; appId?: number } = {}) {
  const log = capturingLogger();
  const probot = new Probot({
    appId: APP_ID,
    privateKey: PRIVATE_KEY,
    Octokit: TestOctokit,
    log,
    ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
  });
  probot.load(createApp({ core, appId: options.appId ?? APP_ID }));
  return { probot, log };
}
