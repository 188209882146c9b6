import rule from "../../rules/write-list-read-before-write.js";
import { ruleTester } from "../rule-tester.js";

const schema = `CREATE TABLE playlists (
  playlist_id uuid PRIMARY KEY,
  tracks list<uuid>,
  tags set<text>,
  positions map<uuid, int>
);
`;

const write = (cql: string) => `version: 1\nkeyspace: shop\nwrites:\n  - id: W1\n    cql:\n      - ${cql}\n`;

ruleTester.run("write-list-read-before-write", rule, {
  valid: [
    { name: "appending to a list is blind", cql: schema, manifest: write("UPDATE playlists SET tracks = tracks + [?] WHERE playlist_id = ?") },
    { name: "replacing the whole list", cql: schema, manifest: write("UPDATE playlists SET tracks = ? WHERE playlist_id = ?") },
    { name: "removing from a set", cql: schema, manifest: write("UPDATE playlists SET tags = tags - {'old'} WHERE playlist_id = ?") },
    { name: "removing a map entry by key", cql: schema, manifest: write("DELETE positions[?] FROM playlists WHERE playlist_id = ?") },
    { name: "setting a map entry by key", cql: schema, manifest: write("UPDATE playlists SET positions[?] = 3 WHERE playlist_id = ?") },
  ],
  invalid: [
    {
      name: "setting a list element by index",
      cql: schema,
      manifest: write("UPDATE playlists SET tracks[2] = ? WHERE playlist_id = ?"),
      findings: [{ messageId: "readBeforeWrite", line: 6, column: 30, data: { owner: "W1", column: "tracks", operation: "sets an element by index (`l[i] = v`)" } }],
    },
    {
      name: "deleting a list element by index",
      cql: schema,
      manifest: write("DELETE tracks[0] FROM playlists WHERE playlist_id = ?"),
      findings: [{ messageId: "readBeforeWrite", line: 6, column: 16 }],
    },
    {
      name: "removing by value, twice in one statement",
      cql: schema,
      manifest: write("UPDATE playlists SET tracks = tracks - [?], tracks -= [?] WHERE playlist_id = ?"),
      findings: [
        { messageId: "readBeforeWrite", line: 6, column: 30 },
        { messageId: "readBeforeWrite", line: 6, column: 53 },
      ],
    },
    {
      name: "seed data in a schema file",
      cql: `${schema}UPDATE playlists SET tracks[0] = 11111111-1111-1111-1111-111111111111 WHERE playlist_id = 22222222-2222-2222-2222-222222222222;\n`,
      findings: [{ messageId: "readBeforeWrite", line: 7, column: 22, data: { owner: "Seed data" } }],
    },
  ],
});
