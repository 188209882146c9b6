// Small manifests for rule tests. The first query's `- id:` is on line 4.
export interface QueryText {
  id: string;
  cql?: string;
  /** abstract form, written as YAML flow text */
  select?: string;
  where?: string;
  orderBy?: string;
  limit?: number;
  rate?: string;
  extra?: string;
}

export function manifestWith(queries: QueryText[], options: { cassandra?: string; keyspace?: string } = {}): string {
  const lines = ["version: 1", `keyspace: ${options.keyspace ?? "shop"}`];
  if (options.cassandra) lines.push(`cassandra: "${options.cassandra}"`);
  lines.push("queries:");
  for (const q of queries) {
    lines.push(`  - id: ${q.id}`);
    if (q.cql !== undefined) lines.push(`    cql: ${q.cql}`);
    if (q.select !== undefined) lines.push(`    select: ${q.select}`);
    if (q.where !== undefined) lines.push(`    where: ${q.where}`);
    if (q.orderBy !== undefined) lines.push(`    order_by: ${q.orderBy}`);
    if (q.limit !== undefined) lines.push(`    limit: ${q.limit}`);
    if (q.rate !== undefined) lines.push(`    rate: ${q.rate}`);
    if (q.extra !== undefined) lines.push(...q.extra.split("\n").map((l) => `    ${l}`));
  }
  return `${lines.join("\n")}\n`;
}

/** The line of the n-th query (0-based) when each query takes `linesPerQuery` lines. */
export function queryLine(index: number, linesPerQuery = 2, headerLines = 3): number {
  return headerLines + 1 + index * linesPerQuery;
}
