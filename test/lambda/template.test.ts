// template.yaml read with CloudFormation's short-form tags, and its wiring checked: the FIFO queue
// and its dead-letter queue, the event source mappings, timeouts, secrets policies, runtime, logs.
import { readFileSync } from "node:fs";
import { parse, type ScalarTag, type CollectionTag } from "yaml";
import { describe, expect, it } from "vitest";

const INTRINSICS = ["Ref", "GetAtt", "Sub", "If", "Not", "Equals", "And", "Or", "Join", "Select", "Split", "FindInMap", "ImportValue", "GetAZs", "Base64", "Condition"];

/** `!Ref X` → { Ref: "X" }, `!GetAtt A.B` → { "Fn::GetAtt": ["A", "B"] }, `!If [...]` → { "Fn::If": [...] }. */
const cloudFormationTags: (ScalarTag | CollectionTag)[] = INTRINSICS.flatMap((name) => {
  const key = name === "Ref" || name === "Condition" ? name : `Fn::${name}`;
  const scalar: ScalarTag = {
    tag: `!${name}`,
    resolve: (value: string) => ({ [key]: name === "GetAtt" ? value.split(".") : value }),
  };
  const sequence: CollectionTag = { tag: `!${name}`, collection: "seq", resolve: (value) => ({ [key]: (value as { toJSON(): unknown }).toJSON() }) };
  const mapping: CollectionTag = { tag: `!${name}`, collection: "map", resolve: (value) => ({ [key]: (value as { toJSON(): unknown }).toJSON() }) };
  return [scalar, sequence, mapping];
});

type Node = Record<string, any>;
const template = parse(readFileSync(new URL("../../template.yaml", import.meta.url), "utf8"), { customTags: cloudFormationTags }) as Node;
const resources = template.Resources as Record<string, { Type: string; Properties: Node }>;

function resource(name: string, type: string): Node {
  expect(resources[name]?.Type).toBe(type);
  return resources[name]!.Properties;
}

function sqsEvent(functionName: string): Node {
  const events = Object.values(resource(functionName, "AWS::Serverless::Function").Events as Record<string, Node>);
  expect(events).toHaveLength(1);
  expect(events[0]!.Type).toBe("SQS");
  return events[0]!.Properties;
}

describe("template.yaml", () => {
  it("runs every function on Node.js 24, arm64, from the bundles of build:lambda", () => {
    expect(template.Globals.Function).toMatchObject({ Runtime: "nodejs24.x", Architectures: ["arm64"], CodeUri: "dist/lambda/" });
    const handlers = Object.values(resources)
      .filter((entry) => entry.Type === "AWS::Serverless::Function")
      .map((entry) => entry.Properties.Handler);
    expect(handlers.sort()).toEqual(["index.handler", "worker.deadLetterHandler", "worker.handler"]);
  });

  it("queues on a FIFO queue deduplicated by the id the webhook function sets, with a FIFO dead-letter queue", () => {
    const queue = resource("ReviewQueue", "AWS::SQS::Queue");
    expect(queue).toMatchObject({ FifoQueue: true, ContentBasedDeduplication: false, DeduplicationScope: "messageGroup", FifoThroughputLimit: "perMessageGroupId" });
    expect(queue.RedrivePolicy).toEqual({ deadLetterTargetArn: { "Fn::GetAtt": ["DeadLetterQueue", "Arn"] }, maxReceiveCount: { Ref: "MaxReceiveCount" } });
    expect(resource("DeadLetterQueue", "AWS::SQS::Queue").FifoQueue).toBe(true);
    // Lambda needs the visibility timeout to cover the worker's timeout (AWS advises six times).
    expect(queue.VisibilityTimeout).toBeGreaterThanOrEqual(6 * resource("WorkerFunction", "AWS::Serverless::Function").Timeout);
  });

  it("the webhook function answers fast and may only send to the review queue", () => {
    const webhook = resource("WebhookFunction", "AWS::Serverless::Function");
    expect(webhook.Timeout).toBeLessThanOrEqual(10);
    expect(webhook.Environment.Variables).toMatchObject({ REVIEW_QUEUE_URL: { Ref: "ReviewQueue" }, WEBHOOK_SECRET_ID: { Ref: "WebhookSecretId" } });
    expect(webhook.Policies).toContainEqual({ SQSSendMessagePolicy: { QueueName: { "Fn::GetAtt": ["ReviewQueue", "QueueName"] } } });
    expect(webhook.Events.Webhook).toMatchObject({ Type: "HttpApi", Properties: { Method: "POST", PayloadFormatVersion: "2.0" } });
  });

  it("the worker takes one message at a time, reports partial failures, and has time beyond the review budget", () => {
    const worker = resource("WorkerFunction", "AWS::Serverless::Function");
    expect(sqsEvent("WorkerFunction")).toEqual({ Queue: { "Fn::GetAtt": ["ReviewQueue", "Arn"] }, BatchSize: 1, FunctionResponseTypes: ["ReportBatchItemFailures"] });
    expect(worker.Timeout).toBeGreaterThanOrEqual(60);
    expect(worker.ReservedConcurrentExecutions).toEqual({ Ref: "WorkerReservedConcurrency" });
    expect(template.Parameters.WorkerReservedConcurrency.Type).toBe("Number");
    expect(sqsEvent("DeadLetterFunction")).toMatchObject({ Queue: { "Fn::GetAtt": ["DeadLetterQueue", "Arn"] }, BatchSize: 1 });
    expect(resource("DeadLetterFunction", "AWS::Serverless::Function").Environment.Variables.MAX_RECEIVE_COUNT).toEqual({ Ref: "MaxReceiveCount" });
  });

  it("reads secrets from Secrets Manager or SSM, each function only the one it needs", () => {
    expect(template.Parameters.SecretStore.AllowedValues).toEqual(["secretsmanager", "ssm"]);
    expect(template.Globals.Function.Environment.Variables.SECRET_STORE).toEqual({ Ref: "SecretStore" });
    const readable = (name: string) =>
      (resource(name, "AWS::Serverless::Function").Policies as Node[]).flatMap((policy) => policy.Statement ?? []).map((statement: Node) => statement.Resource);
    const grant = (parameter: string) => ({
      "Fn::If": ["UsesSsm", { "Fn::Sub": `arn:\${AWS::Partition}:ssm:\${AWS::Region}:\${AWS::AccountId}:parameter\${${parameter}}` }, { Ref: parameter }],
    });
    expect(readable("WebhookFunction")).toEqual([grant("WebhookSecretId")]);
    expect(readable("WorkerFunction")).toEqual([grant("PrivateKeySecretId")]);
    expect(readable("DeadLetterFunction")).toEqual([grant("PrivateKeySecretId")]);
    // No secret travels as a plain parameter or environment value.
    expect(JSON.stringify(template)).not.toMatch(/"(PRIVATE_KEY|WEBHOOK_SECRET)":/);
  });

  it("keeps each function's logs for a set number of days", () => {
    for (const name of ["WebhookFunction", "WorkerFunction", "DeadLetterFunction"]) {
      expect(resource(`${name}Logs`, "AWS::Logs::LogGroup")).toEqual({
        LogGroupName: { "Fn::Sub": `/aws/lambda/\${${name}}` },
        RetentionInDays: { Ref: "LogRetentionInDays" },
      });
    }
  });
});
