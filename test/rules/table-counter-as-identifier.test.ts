import rule from "../../rules/table-counter-as-identifier.js";
import { ruleTester } from "../rule-tester.js";

ruleTester.run("table-counter-as-identifier", rule, {
  valid: [
    { name: "a counter that counts", cql: "CREATE TABLE page_views (\n  page_id uuid PRIMARY KEY,\n  views counter\n);\n" },
    {
      name: "daily alert counts",
      cql: "CREATE TABLE alert_counts_by_site (\n  site_id uuid,\n  day date,\n  alerts counter,\n  PRIMARY KEY ((site_id), day)\n);\n",
    },
    { name: "an id that is not a counter", cql: "CREATE TABLE orders (\n  order_id bigint PRIMARY KEY,\n  total decimal\n);\n" },
    { name: "words inside other words do not count", cql: "CREATE TABLE video_stats (\n  video_id uuid PRIMARY KEY,\n  idle_views counter,\n  paid counter\n);\n" },
    { name: "a table named after its key column: the id is the key's", cql: "CREATE TABLE likes_by_post_id (\n  post_id uuid PRIMARY KEY,\n  likes counter\n);\n" },
    {
      name: "counters of tickets, in the plural or beside a counting word",
      cql: "CREATE TABLE event_stats (\n  event_id uuid PRIMARY KEY,\n  tickets_sold counter,\n  open_tickets counter,\n  ticket_count counter\n);\n",
    },
  ],
  invalid: [
    {
      name: "a next-id counter",
      cql: "CREATE TABLE order_numbers (\n  shop text PRIMARY KEY,\n  next_id counter\n);\n",
      findings: [{ messageId: "idGenerator", line: 3, column: 3, data: { column: "next_id" } }],
    },
    {
      name: "a sequence table, each counter reported",
      cql: "CREATE TABLE id_sequences (\n  name text PRIMARY KEY,\n  current counter,\n  issued counter\n);\n",
      findings: [
        { messageId: "idGenerator", line: 3, data: { column: "current", evidence: 'a sequence table ("id" and "sequences" in the table name)' } },
        { messageId: "idGenerator", line: 4, data: { column: "issued" } },
      ],
    },
    {
      name: "a camel-case ticket number",
      cql: 'CREATE TABLE support (\n  queue text PRIMARY KEY,\n  "lastTicket" counter\n);\n',
      findings: [{ messageId: "idGenerator", line: 3, data: { column: "lastTicket" } }],
    },
  ],
});
