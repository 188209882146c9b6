import rule from "../../rules/change-primary-key.js";
import { ruleTester } from "../rule-tester.js";

const byUser = (key: string) => `CREATE TABLE IF NOT EXISTS videos_by_user (
  user_id uuid,
  added_date timestamp,
  video_id uuid,
  title text,
  ${key}
);
`;

ruleTester.run("change-primary-key", rule, {
  valid: [
    { name: "the same key, a new column", cql: byUser("PRIMARY KEY ((user_id), added_date, video_id)").replace("title text,", "title text,\n  tags set<text>,"), base: { cql: byUser("PRIMARY KEY ((user_id), added_date, video_id)") } },
    { name: "a new table", cql: `${byUser("PRIMARY KEY ((user_id), added_date, video_id)")}CREATE TABLE tags (tag text PRIMARY KEY);\n`, base: { cql: byUser("PRIMARY KEY ((user_id), added_date, video_id)") } },
    { name: "no base and no re-creation", cql: byUser("PRIMARY KEY ((user_id), added_date, video_id)") },
    {
      name: "dropped and re-created with the same key",
      cql: `${byUser("PRIMARY KEY ((user_id), added_date, video_id)")}DROP TABLE videos_by_user;\n${byUser("PRIMARY KEY ((user_id), added_date, video_id)")}`,
    },
  ],
  invalid: [
    {
      name: "a clustering column added to the key",
      cql: byUser("PRIMARY KEY ((user_id), added_date, video_id)"),
      base: { cql: byUser("PRIMARY KEY ((user_id), video_id)") },
      findings: [
        {
          messageId: "changed",
          line: 1,
          column: 28,
          data: { before: "PRIMARY KEY ((user_id), video_id)", after: "PRIMARY KEY ((user_id), added_date, video_id)" },
        },
      ],
    },
    {
      name: "a bucket moved into the partition key",
      cql: byUser("PRIMARY KEY ((user_id, added_date), video_id)"),
      base: { cql: byUser("PRIMARY KEY ((user_id), added_date, video_id)") },
      findings: [{ messageId: "changed", line: 1, data: { after: "PRIMARY KEY ((user_id, added_date), video_id)" } }],
    },
    {
      name: "dropped and re-created with another key in a migration file",
      cql: {
        "schema/001_videos.cql": byUser("PRIMARY KEY ((user_id), video_id)"),
        "schema/002_rekey.cql": `DROP TABLE videos_by_user;\n\n${byUser("PRIMARY KEY ((user_id), added_date, video_id)")}`,
      },
      findings: [{ messageId: "recreated", line: 3, file: "schema/002_rekey.cql", data: { before: "PRIMARY KEY ((user_id), video_id)" } }],
    },
  ],
});
