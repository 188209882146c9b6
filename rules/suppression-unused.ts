// A suppression that silences nothing is noise at best, and at worst hides the next real finding
// on that statement. The engine runs this rule after every other one, with their findings.
import { closestRuleId } from "../src/rule-engine/helpers.js";
import { collectSuppressions, suppresses, type Suppression } from "../src/rule-engine/suppression.js";
import type { RuleModule } from "../src/rule-engine/types.js";

function directiveText(directive: Suppression["directive"]): string {
  return directive === "ignore" ? "ignore" : `cql-review-${directive}`;
}

function scopeText(suppression: Suppression): string {
  if (suppression.scope.kind === "entity") return `on ${suppression.scope.entity.replace(":", " ")}`;
  return suppression.directive === "disable" ? "in the rest of the file" : "on the next statement";
}

const suppressionUnused: RuleModule = {
  meta: {
    id: "suppression-unused",
    category: "input",
    defaultSeverity: "warning",
    description: "A suppression silences nothing: the rule does not fire there, is turned off, or does not exist.",
    messages: {
      unused: "`{directive} {rule}` silences nothing: {rule} reports nothing {scope}. Remove it, so it cannot hide a future finding.",
      ruleOff: "`{directive} {rule}` silences nothing: {rule} is turned off in the config. Remove it.",
      unknownRule: '`{directive}` names "{rule}", which is not a cql-review rule{suggestion}.',
      noRules: "`{directive}` names no rule, so it silences nothing: list the rule ids it is meant for.",
    },
    fixable: false,
  },
  check(context) {
    const judged = context.afterRules;
    // Without the other rules' findings there is nothing to judge against (the engine always passes them).
    if (!judged) return;
    // A rule that failed reported nothing, so its suppressions cannot be judged this time.
    const failed = new Set(judged.findings.filter((f) => f.rule === "internal-error").map((f) => f.data?.["rule"]));
    const { suppressions, empty } = collectSuppressions(context.model);
    for (const directive of empty) {
      context.report({
        messageId: "noRules",
        data: { directive: directiveText(directive.directive) },
        file: directive.location.file,
        range: directive.location.range,
        entity: `suppression:${directive.directiveKey}`,
      });
    }
    for (const suppression of suppressions) {
      const base = {
        file: suppression.location.file,
        range: suppression.location.range,
        entity: `suppression:${suppression.directiveKey}:${suppression.rule}`,
      };
      const data = { directive: directiveText(suppression.directive), rule: suppression.rule, scope: scopeText(suppression) };
      if (!judged.ruleIds.has(suppression.rule)) {
        const suggestion = closestRuleId(suppression.rule, judged.ruleIds);
        context.report({ ...base, messageId: "unknownRule", data: { ...data, suggestion: suggestion ? ` (did you mean "${suggestion}"?)` : "" } });
        continue;
      }
      if (failed.has(suppression.rule) || judged.findings.some((finding) => suppresses(suppression, finding))) continue;
      const turnedOff = context.model.config.rules[suppression.rule]?.severity === "off";
      context.report({ ...base, messageId: turnedOff ? "ruleOff" : "unused", data });
    }
  },
};

export default suppressionUnused;
