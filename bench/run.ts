// `npm run bench`: runs every benchmark section and prints one table of figures.
// To add a section, write `bench/<name>.ts` exporting `async function benchX(): Promise<BenchRow[]>`
// and add one entry to `sections` below. `node dist/bench/run.js parse review` runs only those.
import { pathToFileURL } from "node:url";
import { benchParse } from "./parse.js";

/** One figure: which section measured it, what, the value as shown, and how it was obtained. */
export interface BenchRow {
  section: string;
  metric: string;
  value: string;
  note?: string;
}

export interface BenchSection {
  name: string;
  run: () => Promise<BenchRow[]>;
}

export const sections: BenchSection[] = [
  { name: "parse", run: benchParse },
  // Imported when they run, so the parse section still times the parser's first load.
  { name: "manifest", run: async () => (await import("./manifest.js")).benchManifest() },
  { name: "review", run: async () => (await import("./review.js")).benchReview() },
  { name: "analysis", run: async () => (await import("./analysis.js")).benchAnalysis() },
  { name: "github", run: async () => (await import("./github-requests.js")).benchGitHubRequests() },
  { name: "lambda", run: async () => (await import("./lambda.js")).benchLambda() },
  { name: "memory", run: async () => (await import("./memory.js")).benchMemory() },
  { name: "cli", run: async () => (await import("./cli-start.js")).benchCliStart() },
];

/** The rows as an aligned plain-text table. */
export function formatTable(rows: readonly BenchRow[]): string {
  const header: BenchRow = { section: "section", metric: "metric", value: "value", note: "note" };
  const all = [header, ...rows];
  const width = (key: keyof BenchRow) => Math.max(...all.map((row) => (row[key] ?? "").length));
  const widths = { section: width("section"), metric: width("metric"), value: width("value") };
  const line = (row: BenchRow) =>
    `${row.section.padEnd(widths.section)}  ${row.metric.padEnd(widths.metric)}  ${row.value.padStart(widths.value)}  ${row.note ?? ""}`.trimEnd();
  const rule = `${"-".repeat(widths.section)}  ${"-".repeat(widths.metric)}  ${"-".repeat(widths.value)}  ----`;
  return [line(header), rule, ...rows.map(line)].join("\n");
}

/** Runs the chosen sections (all when none is named); a failing section becomes a row, not a crash. */
export async function runSections(names: readonly string[] = []): Promise<BenchRow[]> {
  const chosen = names.length === 0 ? sections : sections.filter((section) => names.includes(section.name));
  const rows: BenchRow[] = [];
  for (const section of chosen) {
    try {
      rows.push(...(await section.run()));
    } catch (error) {
      rows.push({ section: section.name, metric: "error", value: "failed", note: error instanceof Error ? error.message : String(error) });
    }
  }
  return rows;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const names = process.argv.slice(2);
  const unknown = names.filter((name) => !sections.some((section) => section.name === name));
  if (unknown.length > 0) {
    console.error(`unknown section(s): ${unknown.join(", ")}; known: ${sections.map((s) => s.name).join(", ")}`);
    process.exit(2);
  }
  console.log(formatTable(await runSections(names)));
}
