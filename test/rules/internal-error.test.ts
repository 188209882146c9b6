import rule from "../../rules/internal-error.js";
import { ruleTester } from "../rule-tester.js";

// The engine's own internal-error findings (a rule that throws) are tested in
// test/rule-engine/engine.test.ts; here, a healthy review reports none.
ruleTester.run("internal-error", rule, {
  valid: [
    { name: "a table", cql: "CREATE TABLE videos (\n  video_id uuid PRIMARY KEY,\n  title text\n);\n" },
    { name: "broken input is reported by its own rules, not as a crash", cql: "CREATE TABLE videos (video_id uuid PRIMARY KEY title text);\n" },
  ],
  invalid: [],
});
