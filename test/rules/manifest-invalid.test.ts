import rule from "../../rules/manifest-invalid.js";
import { ruleTester } from "../rule-tester.js";

const table = "CREATE TABLE users_by_email (\n  email text PRIMARY KEY,\n  user_id uuid\n);\n";

ruleTester.run("manifest-invalid", rule, {
  valid: [
    {
      name: "a valid manifest",
      cql: table,
      manifest: "version: 1\nkeyspace: shop\nqueries:\n  - id: Q1\n    select: [user_id]\n    where: { email: \"=\" }\n",
    },
  ],
  invalid: [
    {
      name: "an operator that is not one",
      cql: table,
      manifest: "version: 1\nkeyspace: shop\nqueries:\n  - id: Q1\n    select: [user_id]\n    where: { email: \"==\" }\n",
      findings: [{ messageId: "input", line: 6 }],
    },
    {
      name: "a column no table has",
      cql: table,
      manifest: "version: 1\nkeyspace: shop\nqueries:\n  - id: Q1\n    select: [user_id, nickname]\n    where: { email: \"=\" }\n",
      findings: [{ messageId: "input", line: 5 }],
    },
  ],
});
