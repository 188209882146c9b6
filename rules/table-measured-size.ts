// The manifest's volume figures are a team's guess; `nodetool tablestats` and `tablehistograms`
// measure the truth. When the two disagree by more than a factor, or production crosses a limit
// the estimate stays under, every size the review states for the table is off, and the finding
// says by how much, naming both figures and the file the measurement came from.
import * as z from "zod";
import { formatBytes, formatCount } from "../src/analysis/estimator-text.js";
import { compareWithMeasurements, describeMeasured, type MeasuredDifference } from "../src/analysis/measured.js";
import { tableEntity, tableLabel, tableLocation } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";
import type { TableMeasurements } from "../src/stats/types.js";

const optionsSchema = z
  .object({
    /** how far apart (either way) the estimate and the measurement may be before they differ */
    factor: z.number().gt(1).default(4),
  })
  .strict();
type Options = z.infer<typeof optionsSchema>;

/** How each compared figure reads in a sentence. */
const WORDING: Record<MeasuredDifference["figure"], { per: string; which: string }> = {
  largest: { per: "per partition", which: "largest" },
  typical: { per: "for a typical partition", which: "mean" },
  cells: { per: "per partition", which: "largest" },
};

/** The measured sizes a silent manifest's estimate was made from. */
function measuredSizes(measured: TableMeasurements): string {
  const { figures } = measured;
  const typical = figures.partitionBytesMean ?? figures.partitionBytesP50;
  const largest = figures.partitionBytesMax ?? figures.partitionBytesP99;
  return [
    ...(typical ? [`a typical partition of ${describeMeasured(typical, "bytes")}`] : []),
    ...(largest ? [`the largest of ${describeMeasured(largest, "bytes")}`] : []),
    ...(figures.cellsMax ? [`at most ${describeMeasured(figures.cellsMax, "cells")}`] : []),
  ].join(", ");
}

function ratioText(ratio: number): string {
  if (!Number.isFinite(ratio)) return "where the manifest gives none";
  const value = ratio >= 1 ? ratio : 1 / ratio;
  return value >= 10 ? formatCount(value) : String(Math.round(value * 10) / 10);
}

const tableMeasuredSize: RuleModule<Options> = {
  meta: {
    id: "table-measured-size",
    category: "table",
    defaultSeverity: "warning",
    description: "Production's measured partitions (nodetool tablestats, tablehistograms) differ from the manifest's estimate by more than a factor, or cross a limit the estimate stays under.",
    messages: {
      larger:
        "The manifest gives {estimated} {per} of {table}; production's {which} is {measured}, {ratio} times as much. Every size the review states for this table is too small: correct its volume figures in the manifest (rows_per_partition, growth, column sizes), or find out why production's partitions outgrew them.",
      crossesLimit:
        "The manifest gives {estimated} {per} of {table}, under the {limit} limit; production's {which} is {measured}, past it. Reads, compaction and repair of such partitions slow down: correct the manifest's figures and split the partition (a finer partition key or a time bucket).",
      smaller:
        "The manifest gives {estimated} {per} of {table}; production's {which} is only {measured}, {ratio} times less. Findings sized from the manifest may warn of partitions production does not have: correct its volume figures.",
      usedMeasured:
        "The manifest states no volume figures for {table}, so its estimate is production's: {measured}. State rows_per_partition (or growth and retention) in the manifest, so a change is sized before it reaches production; `cql-review init --stats` drafts them from these files.",
    },
    options: optionsSchema,
    fixable: false,
  },
  check(context) {
    const { model, options } = context;
    for (const [name, measured] of model.measured ?? []) {
      const table = model.schema.tables.get(name);
      const estimate = model.estimates.get(name);
      if (!table || !estimate) continue;
      if (estimate.basis === "measured") {
        context.report({
          messageId: "usedMeasured",
          data: { table: tableLabel(model, name), measured: measuredSizes(measured) },
          ...tableLocation(table),
          entity: `${tableEntity(name)}:measured`,
          severityCap: "info",
        });
        continue;
      }
      for (const difference of compareWithMeasurements(estimate, measured, { factor: options.factor, limits: model.config.limits })) {
        const unit = difference.unit;
        const amount = (value: number) => (unit === "bytes" ? formatBytes(value) : `${formatCount(value)} cells`);
        const messageId = difference.crossedLimit !== undefined ? "crossesLimit" : difference.ratio > 1 ? "larger" : "smaller";
        context.report({
          messageId,
          data: {
            table: tableLabel(model, name),
            estimated: amount(difference.estimated),
            ...WORDING[difference.figure],
            measured: describeMeasured(difference.measured, unit),
            ratio: ratioText(difference.ratio),
            limit: difference.crossedLimit !== undefined ? amount(difference.crossedLimit) : null,
            file: difference.measured.file,
            estimatedValue: difference.estimated,
            measuredValue: difference.measured.value,
          },
          ...tableLocation(table),
          entity: `${tableEntity(name)}:${difference.figure}`,
          // Production smaller than the guess is no risk to production.
          ...(messageId === "smaller" ? { severityCap: "info" as const } : {}),
        });
      }
    }
  },
};

export default tableMeasuredSize;
