import rule from "../../rules/query-needs-allow-filtering.js";
import { ruleTester } from "../rule-tester.js";
import { manifestWith } from "./manifest-text.js";

const videos = `CREATE TABLE videos_by_uploader (
  uploader text,
  added_date timestamp,
  video_id uuid,
  title text,
  PRIMARY KEY ((uploader), added_date, video_id)
);
`;

ruleTester.run("query-needs-allow-filtering", rule, {
  valid: [
    { name: "partition key and a clustering prefix", cql: videos, manifest: manifestWith([{ id: "Q1", cql: "SELECT title FROM videos_by_uploader WHERE uploader = ? AND added_date > ?" }]) },
    {
      name: "ALLOW FILTERING written, filtering inside one partition",
      cql: videos,
      manifest: manifestWith([{ id: "Q1", cql: "SELECT title FROM videos_by_uploader WHERE uploader = ? AND title = ? ALLOW FILTERING" }]),
    },
  ],
  invalid: [
    {
      name: "a regular column without an index, no partition key: filtering would scan the table",
      cql: videos,
      manifest: manifestWith([{ id: "Q1", cql: "SELECT video_id FROM videos_by_uploader WHERE title = ?" }]),
      findings: [{ messageId: "needsFiltering", line: 4, data: { query: "Q1", table: "videos_by_uploader", partitions: "all" } }],
    },
    {
      name: "skipping a clustering column inside one partition",
      cql: videos,
      manifest: manifestWith([{ id: "Q1", cql: "SELECT title FROM videos_by_uploader WHERE uploader = ? AND video_id = ?" }]),
      findings: [{ messageId: "needsFiltering", line: 4, data: { partitions: 1, scope: "read the whole partition and discard the rows that do not match" } }],
    },
  ],
});
