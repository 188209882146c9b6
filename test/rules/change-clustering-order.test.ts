import rule from "../../rules/change-clustering-order.js";
import { ruleTester } from "../rule-tester.js";

const table = (order = "") => `CREATE TABLE IF NOT EXISTS comments_by_video (
  video_id uuid,
  comment_id timeuuid,
  comment text,
  PRIMARY KEY ((video_id), comment_id)
)${order};
`;

ruleTester.run("change-clustering-order", rule, {
  valid: [
    { name: "the same order, written differently", cql: table(" WITH CLUSTERING ORDER BY (comment_id ASC)"), base: { cql: table() } },
    { name: "a new option only", cql: table(" WITH CLUSTERING ORDER BY (comment_id DESC) AND comment = 'newest first'"), base: { cql: table(" WITH CLUSTERING ORDER BY (comment_id DESC)") } },
    {
      name: "a changed key is left to change-primary-key",
      cql: "CREATE TABLE comments_by_video (\n  video_id uuid,\n  at timestamp,\n  comment_id timeuuid,\n  PRIMARY KEY ((video_id), at, comment_id)\n) WITH CLUSTERING ORDER BY (at DESC, comment_id ASC);\n",
      base: { cql: table() },
    },
  ],
  invalid: [
    {
      name: "newest first, on an existing table",
      cql: table(" WITH CLUSTERING ORDER BY (comment_id DESC)"),
      base: { cql: table() },
      findings: [
        {
          messageId: "changed",
          line: 1,
          column: 28,
          data: { before: "CLUSTERING ORDER BY (comment_id ASC)", after: "CLUSTERING ORDER BY (comment_id DESC)", columns: "`comment_id` reversed" },
        },
      ],
    },
    {
      name: "dropped and re-created in reverse",
      cql: `${table()}DROP TABLE comments_by_video;\n${table(" WITH CLUSTERING ORDER BY (comment_id DESC)")}`,
      findings: [{ messageId: "recreated", line: 8, column: 28 }],
    },
  ],
});
