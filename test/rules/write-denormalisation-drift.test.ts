import { describe } from "vitest";
import rule from "../../rules/write-denormalisation-drift.js";
import { ruleTester } from "../rule-tester.js";

const schema = `CREATE TABLE devices (
  device_id uuid PRIMARY KEY,
  site_id uuid,
  name text,
  firmware text
);

CREATE TABLE devices_by_site (
  site_id uuid,
  device_id uuid,
  name text,
  firmware text,
  PRIMARY KEY ((site_id), device_id)
);

CREATE TABLE firmware_releases (
  model text,
  firmware text,
  notes text,
  PRIMARY KEY ((model), firmware)
);

CREATE TABLE alerts_by_site (
  site_id uuid,
  raised_at timeuuid,
  device_id uuid,
  message text,
  PRIMARY KEY ((site_id), raised_at)
);
`;

const writes = (...paths: string[][]) =>
  `version: 1\nkeyspace: shop\nwrites:\n${paths.map((cql, i) => `  - id: W${i + 1}\n    cql:\n${cql.map((c) => `      - ${c}\n`).join("")}`).join("")}`;

const updateDevice = "UPDATE devices SET firmware = ? WHERE device_id = ?";
// The evidence that devices_by_site copies devices: one path writes both with the same values.
const addDevice = [
  "INSERT INTO devices (device_id, site_id, name, firmware) VALUES (?, ?, ?, ?)",
  "INSERT INTO devices_by_site (site_id, device_id, name, firmware) VALUES (?, ?, ?, ?)",
];
// Two Thrift-era tables that kept Cassandra's default column names, holding unrelated data.
const legacy =
  "CREATE TABLE metric_index (\n  key blob,\n  column1 blob,\n  value blob,\n  PRIMARY KEY ((key), column1)\n);\n" +
  "CREATE TABLE name_index (\n  key blob,\n  column1 text,\n  value blob,\n  PRIMARY KEY ((key), column1)\n);\n";
const users = "CREATE TABLE users (\n  user_id uuid PRIMARY KEY,\n  email text,\n  name text\n);\nCREATE TABLE users_by_email (\n  email text PRIMARY KEY,\n  user_id uuid\n);\n";
const register = ["INSERT INTO users (user_id, email, name) VALUES (?, ?, ?)", "INSERT INTO users_by_email (email, user_id) VALUES (?, ?)"];
const updateBySite = "UPDATE devices_by_site SET firmware = ? WHERE site_id = ? AND device_id = ?";

ruleTester.run("write-denormalisation-drift", rule, {
  valid: [
    {
      name: "legacy default names (key, column1, value) bound by positional markers are no evidence of a copy",
      cql: legacy,
      manifest: writes(
        ["DELETE FROM metric_index WHERE key = ?", "DELETE FROM name_index WHERE key = ? AND column1 = ?"],
        ["DELETE FROM metric_index WHERE key = ? AND column1 = ?"],
      ),
    },
    { name: "both copies updated", cql: schema, manifest: writes([updateDevice, updateBySite], addDevice) },
    {
      name: "a shared column name is no evidence of a copy: no write path writes both tables",
      cql: schema,
      manifest: writes([updateDevice], ["INSERT INTO devices_by_site (site_id, device_id, name, firmware) VALUES (?, ?, ?, ?)"]),
    },
    {
      name: "different named markers: the recommendation's user is its recipient, the video's its uploader",
      cql:
        "CREATE TABLE videos (\n  videoid uuid PRIMARY KEY,\n  userid uuid,\n  title text\n);\n" +
        "CREATE TABLE recommendations_by_video (\n  videoid uuid PRIMARY KEY,\n  userid uuid,\n  title text\n);\n",
      manifest: writes(
        ["INSERT INTO videos (videoid, userid, title) VALUES (:videoid, :uploader, :title)", "INSERT INTO recommendations_by_video (videoid, userid, title) VALUES (:videoid, :recipient, :title)"],
        ["UPDATE videos SET userid = :owner WHERE videoid = :videoid"],
      ),
    },
    { name: "both copies updated in a batch", cql: schema, manifest: writes([`BEGIN BATCH ${updateDevice}; ${updateBySite}; APPLY BATCH`]) },
    {
      name: "a table that shares a column name but not the rows (firmware_releases has no device_id)",
      cql: schema,
      manifest: writes(["INSERT INTO firmware_releases (model, firmware, notes) VALUES (?, ?, ?)"]),
    },
    {
      name: "a row that references a device is not a copy of it",
      cql: schema,
      manifest: writes(["INSERT INTO alerts_by_site (site_id, raised_at, device_id, message) VALUES (?, now(), ?, ?)"]),
    },
    {
      name: "a new device in both tables",
      cql: schema,
      manifest: writes([
        "INSERT INTO devices (device_id, site_id, name, firmware) VALUES (?, ?, ?, ?)",
        "INSERT INTO devices_by_site (site_id, device_id, name, firmware) VALUES (?, ?, ?, ?)",
      ]),
    },
    { name: "both rows deleted", cql: schema, manifest: writes(["DELETE FROM devices WHERE device_id = ?", "DELETE FROM devices_by_site WHERE site_id = ? AND device_id = ?"]) },
    {
      name: "an email change claims the new address and updates the user row it points at",
      cql: users,
      manifest: writes(
        [
          "INSERT INTO users_by_email (email, user_id) VALUES (?, ?) IF NOT EXISTS",
          "DELETE FROM users_by_email WHERE email = ? IF user_id = ?",
          "UPDATE users SET email = ? WHERE user_id = ?",
        ],
        register,
      ),
    },
    {
      name: "a table keyed by the video and then by the rater holds the video's ratings, not a copy of its owner",
      cql:
        "CREATE TABLE videos (\n  videoid uuid PRIMARY KEY,\n  userid uuid,\n  name text\n);\n" +
        "CREATE TABLE video_ratings_by_user (\n  videoid uuid,\n  userid uuid,\n  rating int,\n  PRIMARY KEY ((videoid), userid)\n);\n",
      manifest: writes(["INSERT INTO videos (videoid, userid, name) VALUES (?, ?, ?)"]),
    },
  ],
  invalid: [
    {
      name: "legacy default names bound by one named marker in both tables are a copy",
      cql: legacy,
      manifest: writes(
        ["INSERT INTO metric_index (key, column1, value) VALUES (:key, :name, :flag)", "INSERT INTO name_index (key, column1, value) VALUES (:key, :name, :flag)"],
        ["UPDATE metric_index SET value = :other WHERE key = :key AND column1 = :name"],
      ),
      findings: [{ messageId: "drift", line: 10, data: { write: "W2", attributes: "`value`", table: "metric_index", missed: "name_index" } }],
    },
    {
      name: "firmware updated in devices only",
      cql: schema,
      manifest: writes([updateDevice], addDevice),
      findings: [
        {
          messageId: "drift",
          line: 6,
          column: 9,
          data: { write: "W1", attributes: "`firmware`", table: "devices", key: "`device_id`", missed: "devices_by_site", missedAttributes: "`firmware`" },
        },
      ],
    },
    {
      name: "the by-site copy updated, the device record not; one attribute of two",
      cql: schema,
      manifest: writes(
        ["UPDATE devices_by_site SET firmware = ?, name = ? WHERE site_id = ? AND device_id = ?", "UPDATE devices SET name = ? WHERE device_id = ?"],
        addDevice,
      ),
      findings: [{ messageId: "drift", line: 6, data: { table: "devices_by_site", missed: "devices", missedAttributes: "`firmware`" } }],
    },
    {
      name: "a device deleted from one table only",
      cql: schema,
      manifest: writes(["DELETE FROM devices WHERE device_id = ?"], addDevice),
      findings: [{ messageId: "drift", line: 6, data: { action: "deletes", attributes: "the row", missed: "devices_by_site" } }],
    },
    {
      name: "an email change must move the row of the lookup table keyed by email",
      cql: users,
      manifest: writes(["UPDATE users SET email = ? WHERE user_id = ?"], register),
      findings: [{ messageId: "drift", line: 6, data: { table: "users", missed: "users_by_email", missedAttributes: "`email`", key: "`user_id`" } }],
    },
    {
      name: "the lookup row moved to the new email, the user row left with the old one",
      cql: users,
      manifest: writes(["INSERT INTO users_by_email (email, user_id) VALUES (?, ?) IF NOT EXISTS", "DELETE FROM users_by_email WHERE email = ? IF user_id = ?"], register),
      // one finding per write path and table: the insert's
      findings: [{ messageId: "drift", line: 6, data: { action: "sets", missed: "users" } }],
    },
    {
      name: "each write path judged on its own",
      cql: schema,
      manifest: writes([updateDevice, updateBySite], [updateDevice], addDevice),
      findings: [{ messageId: "drift", line: 10, data: { write: "W2" } }],
    },
  ],
});

// A video's name is copied into the videos of each user, a table keyed by more than the video:
// no write path shows the copy, the manifest declares it.
const videoSchema = `CREATE TABLE videos (
  videoid uuid PRIMARY KEY,
  userid uuid,
  name text,
  description text
);
CREATE TABLE user_videos (
  userid uuid,
  added_date timestamp,
  videoid uuid,
  name text,
  PRIMARY KEY ((userid), added_date, videoid)
);
`;
const declaring = (copies: string, ...paths: string[][]) =>
  `version: 1\nkeyspace: shop\ntables:\n  user_videos:\n    copies:\n${copies}${writes(...paths).slice("version: 1\nkeyspace: shop\n".length)}`;
const renameVideo = "UPDATE videos SET name = ? WHERE videoid = ?";

describe("declared copies", () => {
  ruleTester.run("write-denormalisation-drift", rule, {
    valid: [
      { name: "the same write without a declaration: a shared name is no evidence", cql: videoSchema, manifest: writes([renameVideo]) },
      {
        name: "both copies renamed by one write path",
        cql: videoSchema,
        manifest: declaring("      videos: [name]\n", [renameVideo, "UPDATE user_videos SET name = ? WHERE userid = ? AND added_date = ? AND videoid = ?"]),
      },
      { name: "a column of the table that is not declared a copy", cql: videoSchema, manifest: declaring("      videos: [name]\n", ["UPDATE videos SET description = ? WHERE videoid = ?"]) },
    ],
    invalid: [
      {
        name: "a declared copy left behind when the video is renamed",
        cql: videoSchema,
        manifest: declaring("      videos: [name]\n", [renameVideo]),
        findings: [{ messageId: "drift", line: 10, column: 9, data: { write: "W1", attributes: "`name`", table: "videos", missed: "user_videos", missedAttributes: "`name`" } }],
      },
      {
        name: "the copy renamed without its source",
        cql: videoSchema,
        manifest: declaring("      videos: [name]\n", ["UPDATE user_videos SET name = ? WHERE userid = ? AND added_date = ? AND videoid = ?"]),
        findings: [{ messageId: "drift", line: 10, data: { table: "user_videos", missed: "videos" } }],
      },
    ],
  });
});

// An order's status is copied into the orders of each day, keyed by the day of the order's
// creation time: a key computed from the source's column, not the column itself.
const orderSchema = `CREATE TABLE orders (
  order_id uuid PRIMARY KEY,
  created_at timestamp,
  status text
);
CREATE TABLE orders_by_day (
  day date,
  created_at timestamp,
  order_id uuid,
  status text,
  PRIMARY KEY ((day), created_at, order_id)
);
`;
const placeOrder = [
  "INSERT INTO orders (order_id, created_at, status) VALUES (:order_id, :created_at, :status)",
  "INSERT INTO orders_by_day (day, created_at, order_id, status) VALUES (toDate(:created_at), :created_at, :order_id, :status)",
];
// The same copy written with a day the application computes (a plain marker): only a declaration says so.
const placeOrderPlain = [
  "INSERT INTO orders (order_id, created_at, status) VALUES (?, ?, ?)",
  "INSERT INTO orders_by_day (day, created_at, order_id, status) VALUES (?, ?, ?, ?)",
];
const shipOrder = "UPDATE orders SET status = :status WHERE order_id = :order_id";
const shipOrderByDay = "UPDATE orders_by_day SET status = :status WHERE day = toDate(:created_at) AND created_at = :created_at AND order_id = :order_id";
const bucketDeclared = (...paths: string[][]) =>
  `version: 1\nkeyspace: shop\ntables:\n  orders_by_day:\n    time_bucket: { column: day, width: 1d }\n${writes(...paths).slice("version: 1\nkeyspace: shop\n".length)}`;

describe("copies keyed by a value derived from the source's column", () => {
  ruleTester.run("write-denormalisation-drift", rule, {
    valid: [
      { name: "both copies updated, the day computed from the creation time", cql: orderSchema, manifest: writes([shipOrder, shipOrderByDay], placeOrder) },
      {
        name: "a day written from a plain marker, with no declared time bucket, is not shown to derive from created_at",
        cql: orderSchema,
        manifest: writes([shipOrder], placeOrderPlain),
      },
      {
        name: "a declared bucket with no write path writing both tables is no evidence of a copy",
        cql: orderSchema,
        manifest: bucketDeclared([shipOrder], [placeOrder[1]!]),
      },
      {
        name: "a key computed from another value (a random shard) is not derived from the source's columns",
        cql: orderSchema.replace("day date", "day int"),
        manifest: writes([shipOrder], [placeOrder[0]!, "INSERT INTO orders_by_day (day, created_at, order_id, status) VALUES (:shard % 16, :created_at, :order_id, :status)"]),
      },
    ],
    invalid: [
      {
        name: "the status changed in orders, not in the copy found by the day of created_at",
        cql: orderSchema,
        manifest: writes([shipOrder], placeOrder),
        findings: [
          {
            messageId: "drift",
            line: 6,
            column: 9,
            data: {
              write: "W1",
              table: "orders",
              missed: "orders_by_day",
              missedAttributes: "`status`",
              through: " (in orders_by_day under the `day` computed from its `created_at`, so the write needs that value to reach the copy)",
            },
          },
        ],
      },
      {
        name: "the copy updated by its derived key, the source not",
        cql: orderSchema,
        manifest: writes([shipOrderByDay], placeOrder),
        findings: [{ messageId: "drift", line: 6, data: { write: "W1", table: "orders_by_day", missed: "orders", through: "" } }],
      },
      {
        name: "a declared time bucket makes the day a derived key though the write binds it from a plain marker",
        cql: orderSchema,
        manifest: bucketDeclared([shipOrder], placeOrderPlain),
        findings: [{ messageId: "drift", line: 9, data: { write: "W1", missed: "orders_by_day" } }],
      },
      {
        name: "an order deleted from orders, its row under the day left behind",
        cql: orderSchema,
        manifest: writes(["DELETE FROM orders WHERE order_id = :order_id"], placeOrder),
        findings: [{ messageId: "drift", line: 6, data: { action: "deletes", missed: "orders_by_day" } }],
      },
    ],
  });
});
