// Figures of the manifest still marked TODO: placeholders `cql-review init` drafted (a million
// partitions, ten requests a second) that no person has replaced. The estimates and the gate rest
// on them until someone does, so the review says so instead of passing on invented numbers.
import type { RuleModule } from "../src/rule-engine/types.js";

const manifestPlaceholder: RuleModule = {
  meta: {
    id: "manifest-placeholder",
    category: "input",
    defaultSeverity: "warning",
    description: "The manifest still holds figures marked TODO: the review's estimates rest on placeholders.",
    messages: {
      placeholders:
        "{file} still has {count} marked TODO ({first}): the partition sizes, rates and findings that use them rest on placeholders, not on your application. Put in the real figures and remove each TODO.",
    },
    fixable: false,
  },
  check(context) {
    const byFile = new Map<string, NonNullable<NonNullable<typeof context.model.manifest>["placeholders"]>>();
    for (const placeholder of context.model.manifest?.placeholders ?? []) {
      byFile.set(placeholder.file, [...(byFile.get(placeholder.file) ?? []), placeholder]);
    }
    for (const [file, placeholders] of byFile) {
      const first = placeholders[0]!;
      const count = placeholders.length === 1 ? "1 figure" : `${placeholders.length} figures`;
      const lines = placeholders.length === 1 ? `line ${first.range.start.line}` : `the first at line ${first.range.start.line}`;
      context.report({ messageId: "placeholders", data: { file, count, first: lines }, file, range: first.range, entity: `manifest:${file}:placeholders` });
    }
  },
};

export default manifestPlaceholder;
