// Webhook deliveries over real loopback HTTP, signed as GitHub signs them, for the server tests.
import { createHmac } from "node:crypto";
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import type { RunningServer } from "../../../src/github/server.js";

export const SECRET = "a-real-webhook-secret";

export interface Answer {
  status: number;
  body: string;
}

export function post(port: number, headers: Record<string, string>, body: string | Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: "127.0.0.1", port, method: "POST", path: "/api/github/webhooks", headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
    });
    request.on("error", reject);
    request.end(body);
  });
}

export function deliver(port: number, delivery: { id: string; name: string; payload: unknown }, secret = SECRET): Promise<Answer> {
  const body = JSON.stringify(delivery.payload);
  return post(
    port,
    {
      "content-type": "application/json",
      "x-github-delivery": delivery.id,
      "x-github-event": delivery.name,
      "x-hub-signature-256": `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`,
    },
    body,
  );
}

export function portOf(running: RunningServer): number {
  return (running.server.address() as AddressInfo).port;
}
