import rule from "../../rules/write-table-not-written.js";
import { ruleTester } from "../rule-tester.js";
import { manifestWith } from "./manifest-text.js";

const schema = `CREATE TABLE videos (
  video_id uuid PRIMARY KEY,
  user_id uuid,
  title text
);

CREATE TABLE videos_by_user (
  user_id uuid,
  video_id uuid,
  title text,
  PRIMARY KEY ((user_id), video_id)
);
`;

const reads = manifestWith([
  { id: "Q1", cql: "SELECT title FROM videos WHERE video_id = ?" },
  { id: "Q2", cql: "SELECT video_id, title FROM videos_by_user WHERE user_id = ?" },
]);

const writes = (...cql: string[]) => `${reads}writes:\n  - id: W1\n    cql:\n${cql.map((c) => `      - ${c}\n`).join("")}`;
const insertVideo = "INSERT INTO videos (video_id, user_id, title) VALUES (?, ?, ?)";
const insertByUser = "INSERT INTO videos_by_user (user_id, video_id, title) VALUES (?, ?, ?)";

ruleTester.run("write-table-not-written", rule, {
  valid: [
    { name: "no write paths declared: nothing to judge by", cql: schema, manifest: reads },
    { name: "both tables written", cql: schema, manifest: writes(insertVideo, insertByUser) },
    { name: "written inside a batch", cql: schema, manifest: writes(`BEGIN BATCH ${insertVideo}; ${insertByUser}; APPLY BATCH`) },
    {
      name: "a view is maintained by Cassandra",
      cql: `${schema}CREATE MATERIALIZED VIEW videos_by_title AS SELECT title, video_id FROM videos WHERE title IS NOT NULL AND video_id IS NOT NULL PRIMARY KEY (title, video_id);\n`,
      manifest: `${manifestWith([
        { id: "Q1", cql: "SELECT title FROM videos WHERE video_id = ?" },
        { id: "Q3", cql: "SELECT video_id FROM videos_by_title WHERE title = ?" },
      ])}writes:\n  - id: W1\n    cql:\n      - ${insertVideo}\n`,
    },
  ],
  invalid: [
    {
      name: "the lookup table is read but never written",
      cql: schema,
      manifest: writes(insertVideo),
      findings: [{ messageId: "notWritten", line: 7, column: 14, data: { queries: "Q2", table: "videos_by_user" } }],
    },
    {
      name: "only deleted from",
      cql: schema,
      manifest: writes(insertVideo, "DELETE FROM videos_by_user WHERE user_id = ? AND video_id = ?"),
      findings: [{ messageId: "notWritten", line: 7 }],
    },
  ],
});
