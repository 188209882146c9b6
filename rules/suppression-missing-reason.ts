// A suppression must say why (docs/manifest.md): the next reader has to judge whether it still holds.
import { collectSuppressions, type Suppression } from "../src/rule-engine/suppression.js";
import type { RuleModule } from "../src/rule-engine/types.js";

function directiveText(suppression: Suppression): string {
  return suppression.directive === "ignore" ? "ignore" : `cql-review-${suppression.directive}`;
}

const suppressionMissingReason: RuleModule = {
  meta: {
    id: "suppression-missing-reason",
    category: "input",
    defaultSeverity: "warning",
    description: "A suppression comment or manifest `ignore` entry does not say why the finding is acceptable.",
    messages: {
      comment: "`{directive} {rules}` gives no reason: write it after ` -- ` (e.g. `-- {directive} {rules} -- read once a day by a batch job`).",
      manifest: "`ignore: {rules}` on {entity} gives no reason: add `reason:` saying why the finding is acceptable.",
    },
    fixable: false,
  },
  check(context) {
    // Several rule ids in one comment share one reason: report the comment once.
    const byDirective = new Map<string, Suppression[]>();
    for (const suppression of collectSuppressions(context.model).suppressions) {
      if (suppression.reason) continue;
      const group = byDirective.get(suppression.directiveKey) ?? [];
      group.push(suppression);
      byDirective.set(suppression.directiveKey, group);
    }
    for (const [directiveKey, group] of byDirective) {
      const first = group[0]!;
      const rules = group.map((s) => s.rule).join(", ");
      const isManifest = first.scope.kind === "entity";
      context.report({
        messageId: isManifest ? "manifest" : "comment",
        data: {
          directive: directiveText(first),
          rules,
          entity: first.scope.kind === "entity" ? first.scope.entity.replace(":", " ") : "",
        },
        file: first.location.file,
        range: first.location.range,
        entity: `suppression:${directiveKey}`,
      });
    }
  },
};

export default suppressionMissingReason;
