// The repository config (`.github/cql-review.yml`) is wrong. The config loader reports bad keys and
// values; the rule engine adds what only it can know: unknown rule ids and invalid rule options.
import { reportInputFindings } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";

const configInvalid: RuleModule = {
  meta: {
    id: "config-invalid",
    category: "input",
    defaultSeverity: "error",
    description: "The repository config has a bad key or value, names an unknown rule, or gives a rule invalid options.",
    messages: {
      input: "{message}",
      unknownRule: 'rules: unknown rule "{rule}"{suggestion}; the setting is ignored.',
      badOptions: 'rules.{rule}: invalid options ({problem}); the rule runs with its default options.',
      noOptions: 'rules.{rule}: this rule takes no options; the options are ignored.',
    },
    fixable: false,
  },
  check(context) {
    reportInputFindings(context, configInvalid.meta.id);
  },
};

export default configInvalid;
