// The GitHub App's secrets for the Lambda functions: from AWS Secrets Manager or SSM Parameter Store
// (SecureString), as template.yaml wires them, read once per container and cached. Without
// SECRET_STORE they come from plain environment variables (local runs, the cold-start bench).
// The SDK clients are imported when first used: a container reads its secret once, and the
// import of a client it never uses (or uses after answering) stays off the cold start.
import type { SecretsManagerClient } from "@aws-sdk/client-secrets-manager";
import type { SSMClient } from "@aws-sdk/client-ssm";

export type SecretName = "WEBHOOK_SECRET" | "PRIVATE_KEY";

export interface SecretClients {
  secretsManager: () => Pick<SecretsManagerClient, "send">;
  ssm: () => Pick<SSMClient, "send">;
}

/**
 * Reads `name` from the store SECRET_STORE names, using `<name>_ID` (a secret ARN or name, or a
 * parameter name), or from the variable `name` itself when no store is configured.
 */
export async function readSecret(name: SecretName, env: NodeJS.ProcessEnv, clients?: SecretClients): Promise<string> {
  const store = env.SECRET_STORE;
  if (!store) {
    const value = env[name];
    if (!value) throw new Error(`${name} is not set (and SECRET_STORE names no store to read it from)`);
    return value;
  }
  const id = env[`${name}_ID`];
  if (!id) throw new Error(`${name}_ID is not set: it names the ${store} entry holding ${name}`);
  if (store === "secretsmanager") {
    const { GetSecretValueCommand, SecretsManagerClient } = await import("@aws-sdk/client-secrets-manager");
    const client = clients?.secretsManager() ?? new SecretsManagerClient({});
    const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: id }));
    if (!SecretString) throw new Error(`Secrets Manager secret ${id} has no string value`);
    return SecretString;
  }
  if (store === "ssm") {
    const { GetParameterCommand, SSMClient } = await import("@aws-sdk/client-ssm");
    const client = clients?.ssm() ?? new SSMClient({});
    const { Parameter } = await client.send(new GetParameterCommand({ Name: id, WithDecryption: true }));
    if (!Parameter?.Value) throw new Error(`SSM parameter ${id} has no value`);
    return Parameter.Value;
  }
  throw new Error(`SECRET_STORE is "${store}"; expected "secretsmanager" or "ssm"`);
}

/** One read per container: the first call starts it, later calls share it; a failed read is retried next time. */
export function cachedSecret(read: () => Promise<string>): () => Promise<string> {
  let value: Promise<string> | undefined;
  return () => {
    value ??= read().catch((error: unknown) => {
      value = undefined;
      throw error;
    });
    return value;
  };
}

/** How long a warm container trusts a secret it read: a rotated secret's old value works at most this long. */
export const SECRET_CACHE_MS = 5 * 60_000;
/** At most one extra read per this interval on signature mismatches, so forged deliveries cannot flood the store. */
export const SECRET_REFRESH_INTERVAL_MS = 30_000;

/** A secret that a rotation reaches without a cold start. */
export interface RotatingSecret {
  /** the cached value, read again once it is older than the cache time */
  current(): Promise<string>;
  /**
   * After a signature mismatch: reads the secret again (at most once per refresh interval) and
   * returns it when it changed, else undefined.
   */
  refreshed(): Promise<string | undefined>;
}

export function rotatingSecret(
  read: () => Promise<string>,
  options: { cacheMs?: number; refreshIntervalMs?: number; now?: () => number } = {},
): RotatingSecret {
  const cacheMs = options.cacheMs ?? SECRET_CACHE_MS;
  const refreshIntervalMs = options.refreshIntervalMs ?? SECRET_REFRESH_INTERVAL_MS;
  const now = options.now ?? Date.now;
  let value: Promise<string> | undefined;
  let readAt = -Infinity;
  const load = () => {
    readAt = now();
    const reading = read().catch((error: unknown) => {
      if (value === reading) value = undefined;
      throw error;
    });
    value = reading;
    return reading;
  };
  return {
    current: () => (value && now() - readAt < cacheMs ? value : load()),
    async refreshed() {
      if (now() - readAt < refreshIntervalMs) return undefined;
      const before = await value?.catch(() => undefined);
      const after = await load();
      return after !== before ? after : undefined;
    },
  };
}
