// `cql-review init` for an application whose tables come from its entity classes: the CQL type
// of each field (Spring Data Cassandra's default mapping, @CassandraType, enums, user types), the
// drafted schema file, and `init` then `check` on a repository with no .cql file.
import * as nodeFs from "node:fs/promises";
import { tmpdir } from "node:os";
import * as path from "node:path";
import { parse as parseYaml } from "yaml";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cqlTypeOf, parseTypeText, schemaActionOf, schemaFromEntities } from "../../src/cli/init-entities.js";
import type { CodeTable, DeclaredType } from "../../src/code/types.js";
import { runCli } from "./run-cli.js";
import { extractFrom } from "../code/review-with-code.js";

describe("cqlTypeOf", () => {
  const cql = (declared: DeclaredType) => {
    const derived = cqlTypeOf(declared);
    return "cql" in derived ? derived.cql : `unknown: ${derived.unknown}`;
  };
  it.each([
    ["String", "text"],
    ["UUID", "uuid"],
    ["java.util.UUID", "uuid"],
    ["long", "bigint"],
    ["Long", "bigint"],
    ["int", "int"],
    ["Int", "int"],
    ["boolean", "boolean"],
    ["short", "smallint"],
    ["BigDecimal", "decimal"],
    ["BigInteger", "varint"],
    ["Instant", "timestamp"],
    ["Date", "timestamp"],
    ["LocalDateTime", "timestamp"],
    ["LocalDate", "date"],
    ["LocalTime", "time"],
    ["InetAddress", "inet"],
    ["ByteBuffer", "blob"],
    ["byte[]", "blob"],
    ["ByteArray", "blob"],
    ["List<String>", "list<text>"],
    ["MutableList<Int>", "list<int>"],
    ["Set<UUID>", "set<uuid>"],
    ["Map<String, Integer>", "map<text, int>"],
    ["Map<String, List<Long>>", "map<text, frozen<list<bigint>>>"],
    ["List<? extends String>", "list<text>"],
    ["String[]", "list<text>"],
  ])("%s → %s", (text, type) => {
    expect(cql({ text })).toBe(type);
  });

  it("maps an enum to text, and a user type to its name, frozen inside a collection or when @Frozen", () => {
    const fields = [{ name: "street", declared: { text: "String" } }];
    const named = { Status: { enum: true as const }, Address: { userType: "address", fields } };
    expect(cql({ text: "Status", named })).toBe("text");
    expect(cql({ text: "List<Status>", named })).toBe("list<text>");
    expect(cql({ text: "Address", named })).toBe("address");
    expect(cql({ text: "Address", frozen: true, named })).toBe("frozen<address>");
    expect(cql({ text: "Map<String, Address>", named })).toBe("map<text, frozen<address>>");
    expect(cqlTypeOf({ text: "List<Address>", named })).toEqual({ cql: "list<frozen<address>>", userTypes: ["Address"] });
  });

  it("takes @CassandraType over the default mapping", () => {
    expect(cql({ text: "UUID", cassandraType: "@CassandraType(type = CassandraType.Name.TIMEUUID)" })).toBe("timeuuid");
    expect(cql({ text: "long", cassandraType: "@CassandraType(type = Name.COUNTER)" })).toBe("counter");
    expect(cql({ text: "Status", cassandraType: "@CassandraType(type = CassandraType.Name.TEXT)" })).toBe("text");
    expect(cql({ text: "List<Object>", cassandraType: "@CassandraType(type = Name.LIST, typeArguments = Name.INT)" })).toBe("list<int>");
    expect(cql({ text: "Map<Object, Object>", cassandraType: "@CassandraType(type = Name.MAP, typeArguments = { Name.TEXT, Name.BIGINT })" })).toBe("map<text, bigint>");
    expect(cql({ text: "Object", cassandraType: '@CassandraType(type = Name.UDT, userTypeName = "Address")' })).toBe("address");
  });

  it("says why a type has no CQL type rather than guessing one", () => {
    expect(cql({ text: "ZoneId" })).toMatch(/^unknown: ZoneId has no default CQL type/);
    expect(cql({ text: "List<Contact>" })).toMatch(/^unknown: Contact has no default CQL type/);
    expect(cql({ text: "List" })).toBe("unknown: List without its element type");
    expect(cql({ text: "Address", named: { Address: { userType: "address" } } })).toBe("unknown: the fields of the user type address (Address) could not be read");
    expect(cql({ text: "Map<String" })).toBe("unknown: the type Map<String could not be read");
  });
});

describe("parseTypeText", () => {
  it("reads generics, arrays, wildcards and Kotlin's nullable marks", () => {
    expect(parseTypeText("Map<String, List<Integer>>")).toEqual({
      name: "Map",
      args: [{ name: "String", args: [] }, { name: "List", args: [{ name: "Integer", args: [] }] }],
    });
    expect(parseTypeText("List<String?>")).toEqual({ name: "List", args: [{ name: "String", args: [] }] });
    expect(parseTypeText("int[][]")).toEqual({ name: "Array", args: [{ name: "Array", args: [{ name: "int", args: [] }] }] });
    expect(parseTypeText("List<String> extra")).toBeUndefined();
  });
});

describe("schemaActionOf", () => {
  it("finds the setting in Spring Boot's configuration, the main one before the tests'", () => {
    expect(
      schemaActionOf([
        { path: "src/test/resources/application.properties", content: "spring.cassandra.schema-action=recreate\n" },
        { path: "src/main/resources/application.yml", content: "spring:\n  cassandra:\n    keyspace-name: shop\n    schema-action: CREATE_IF_NOT_EXISTS\n" },
      ]),
    ).toEqual({ value: "CREATE_IF_NOT_EXISTS", file: "src/main/resources/application.yml", line: 4 });
    expect(schemaActionOf([{ path: "src/main/java/Config.java", content: "  return SchemaAction.RECREATE_DROP_UNUSED;\n" }])).toEqual({
      value: "RECREATE_DROP_UNUSED",
      file: "src/main/java/Config.java",
      line: 1,
    });
    expect(schemaActionOf([{ path: "application.properties", content: "spring.data.cassandra.schema-action=none\n" }])).toBeUndefined();
  });
});

describe("schemaFromEntities", () => {
  const range = (line: number) => ({ start: { line, column: 5, offset: 0 }, end: { line, column: 9, offset: 0 } });
  const entity = (overrides: Partial<CodeTable>): CodeTable => ({
    framework: "spring-data",
    entity: "Reading",
    name: "readings",
    file: "src/Reading.java",
    range: range(3),
    partitionKey: ["sensor"],
    clustering: [{ name: "at", order: "desc" }],
    keyOrderKnown: { partition: true, clustering: true },
    columns: [
      { name: "sensor", property: "sensor", range: range(5), declared: { text: "UUID" } },
      { name: "at", property: "at", range: range(7), declared: { text: "Instant" } },
      { name: "value", property: "value", range: range(8), declared: { text: "double" } },
    ],
    ...overrides,
  });

  it("drafts a CREATE TABLE with the entity's key and clustering order, and says where each came from", () => {
    const draft = schemaFromEntities([entity({})], { schemaAction: { value: "CREATE_IF_NOT_EXISTS", file: "src/main/resources/application.yml", line: 4 } });
    expect(draft.tables).toBe(1);
    expect(draft.unknown).toEqual([]);
    expect(draft.text).toContain("-- Drafted by `cql-review init` from the entity classes Reading: no schema script was found.\n");
    expect(draft.text).toContain("(schema-action CREATE_IF_NOT_EXISTS, src/main/resources/application.yml:4)");
    expect(draft.text).toContain(
      "-- Reading, src/Reading.java:3\nCREATE TABLE readings (\n  sensor uuid,\n  at timestamp,\n  value double,\n  PRIMARY KEY (sensor, at)\n) WITH CLUSTERING ORDER BY (at DESC);\n",
    );
  });

  it("leaves a field of unknown type out of its table as a TODO, and reports it at the field", () => {
    const draft = schemaFromEntities(
      [entity({ columns: [...entity({}).columns, { name: "zone", property: "zone", range: range(9), file: "src/Base.java", declared: { text: "ZoneId" } }] })],
      {},
    );
    expect(draft.unknown).toEqual([
      expect.objectContaining({ entity: "Reading", name: "zone", type: "ZoneId", file: "src/Base.java", line: 9, column: 5 }),
    ]);
    expect(draft.text).toMatch(/\n {2}value double,\n {2}-- TODO: zone \(zone: ZoneId\): ZoneId has no default CQL type[^\n]*\n {2}PRIMARY KEY/);
    expect(draft.text).toContain("No schema-action was found");
  });

  it("keeps the schema statements the application's code runs, a keyspace first and an index after its table", () => {
    const statement = (id: string, cql: string, line: number) => ({ id, language: "java" as const, cql, file: "src/App.java", range: range(line), api: "execute" });
    const draft = schemaFromEntities([entity({})], {
      code: [
        statement("src/App.java#App.start", "CREATE INDEX IF NOT EXISTS readings_value ON readings (value);", 10),
        statement("src/App.java#App.start~2", "CREATE KEYSPACE IF NOT EXISTS iot WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}", 11),
        statement("src/App.java#App.find", "SELECT * FROM readings WHERE sensor = ?", 12),
        statement("src/App.java#App.reset", "DROP TABLE readings", 13),
      ],
    });
    const keyspace = draft.text.indexOf("-- run by the application's code: App.start~2, src/App.java:11\nCREATE KEYSPACE IF NOT EXISTS iot");
    const table = draft.text.indexOf("CREATE TABLE readings");
    const index = draft.text.indexOf("-- run by the application's code: App.start, src/App.java:10\nCREATE INDEX IF NOT EXISTS readings_value ON readings (value);\n");
    expect(keyspace).toBeGreaterThan(0);
    expect(table).toBeGreaterThan(keyspace);
    expect(index).toBeGreaterThan(table);
    expect(draft.text).not.toContain("SELECT");
    expect(draft.text).not.toContain("DROP");
  });

  it("drafts no table whose key is unknown, and one CREATE TYPE per user type used", () => {
    const named = { Address: { userType: "address", fields: [{ name: "street", declared: { text: "String" } }, { name: "zip", declared: { text: "int" } }] } };
    const draft = schemaFromEntities(
      [
        entity({ partitionKey: undefined, name: "open_key", entity: "OpenKey" }),
        entity({ columns: [{ name: "sensor", property: "sensor", range: range(5), declared: { text: "Serial" } }], clustering: [], name: "odd", entity: "Odd" }),
        entity({ clustering: [], columns: [{ name: "sensor", property: "sensor", range: range(5), declared: { text: "UUID" } }, { name: "home", property: "home", range: range(6), declared: { text: "Address", named } }] }),
      ],
      {},
    );
    expect(draft.tables).toBe(1);
    expect(draft.skipped.map((skipped) => [skipped.entity, skipped.reason])).toEqual([
      ["Odd", "the CQL type of its key column sensor is not known"],
      ["OpenKey", "its primary key could not be read (a key in a class that was not read, or none annotated)"],
    ]);
    expect(draft.text).toContain("CREATE TYPE address (\n  street text,\n  zip int\n);");
    expect(draft.text).toContain("CREATE TABLE readings (\n  sensor uuid,\n  home address,\n  PRIMARY KEY (sensor)\n);");
    expect(draft.text).toContain("-- TODO: Odd (src/Reading.java:3) maps odd; its key column sensor has no CQL type to derive: write its CREATE TABLE.");
  });
});

describe("the declared types the entity readers keep", () => {
  const SPRING = "import org.springframework.data.cassandra.core.mapping.*;\nimport org.springframework.data.cassandra.core.cql.PrimaryKeyType;\n";
  it("reads a Java entity's field types with its enums, user types, @CassandraType and @Frozen", async () => {
    const extraction = await extractFrom({
      "src/Status.java": "public enum Status { ACTIVE, CLOSED }\n",
      "src/Address.java": `${SPRING}@UserDefinedType("postal_address")\npublic record Address(String street, @Column("zip_code") int zip) {}\n`,
      "src/Account.java": `${SPRING}import java.util.*;
@Table
public class Account {
    @PrimaryKeyColumn(type = PrimaryKeyType.PARTITIONED) private UUID id;
    private Status status;
    @Frozen private Address home;
    private List<Address> previous;
    @CassandraType(type = CassandraType.Name.COUNTER) private long visits;
    private Map<String, @Frozen List<Integer>> scores;
}
`,
    });
    const [table] = extraction.tables;
    const types = table!.columns.map((column) => {
      const derived = cqlTypeOf(column.declared!);
      return `${column.name} ${"cql" in derived ? derived.cql : "?"}`;
    });
    expect(types).toEqual(["id uuid", "status text", "home frozen<postal_address>", "previous list<frozen<postal_address>>", "visits counter", "scores map<text, frozen<list<int>>>"]);
    expect(table!.columns[3]!.declared!.text).toBe("List<Address>");
    const draft = schemaFromEntities(extraction.tables, {});
    expect(draft.text).toContain("CREATE TYPE postal_address (\n  street text,\n  zip_code int\n);");
  });

  it("says nothing about a class name two packages declare", async () => {
    const extraction = await extractFrom({
      "src/a/Address.java": `${SPRING}@UserDefinedType\npublic class Address { String street; }\n`,
      "src/b/Address.java": "public class Address { String line; }\n",
      "src/Shop.java": `${SPRING}@Table\npublic class Shop {\n    @PrimaryKeyColumn(type = PrimaryKeyType.PARTITIONED) private String id;\n    private Address address;\n}\n`,
    });
    const shop = extraction.tables.find((table) => table.name === "shop")!;
    expect(cqlTypeOf(shop.columns[1]!.declared!)).toEqual({ unknown: expect.stringMatching(/^Address has no default CQL type/) });
  });

  it("reads a Kotlin entity's property types, nullable ones and enum classes too", async () => {
    const extraction = await extractFrom({
      "src/Kind.kt": "package x\n\nenum class Kind { A, B }\n",
      "src/Note.kt": `package x

import org.springframework.data.cassandra.core.mapping.PrimaryKey
import org.springframework.data.cassandra.core.mapping.Table
import java.util.UUID

@Table("notes")
data class Note(@PrimaryKey val id: UUID, val text: String?, val tags: Set<String>, val kind: Kind, val size: Long)
`,
    });
    const [table] = extraction.tables;
    expect(table!.columns.map((column) => [column.name, cqlTypeOf(column.declared!)])).toEqual([
      ["id", { cql: "uuid", userTypes: [] }],
      ["text", { cql: "text", userTypes: [] }],
      ["tags", { cql: "set<text>", userTypes: [] }],
      ["kind", { cql: "text", userTypes: [] }],
      ["size", { cql: "bigint", userTypes: [] }],
    ]);
  });
});

const ENTITY = `package com.example.sensors;

import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.UUID;
import org.springframework.data.cassandra.core.cql.Ordering;
import org.springframework.data.cassandra.core.cql.PrimaryKeyType;
import org.springframework.data.cassandra.core.mapping.PrimaryKeyColumn;
import org.springframework.data.cassandra.core.mapping.Table;

@Table("readings")
public class Reading {
    @PrimaryKeyColumn(name = "sensor_id", type = PrimaryKeyType.PARTITIONED, ordinal = 0)
    private UUID sensorId;
    @PrimaryKeyColumn(name = "at", type = PrimaryKeyType.CLUSTERED, ordinal = 1, ordering = Ordering.DESCENDING)
    private Instant at;
    private double value;
    private Kind kind;
    private List<String> tags;
    private ZoneId zone;
}
`;

const KIND = `package com.example.sensors;

public enum Kind { TEMPERATURE, HUMIDITY }
`;

const REPOSITORY = `package com.example.sensors;

import java.util.List;
import java.util.UUID;
import org.springframework.data.cassandra.repository.CassandraRepository;

public interface ReadingRepository extends CassandraRepository<Reading, UUID> {
    List<Reading> findBySensorId(UUID sensorId);
}
`;

const JAVA = "src/main/java/com/example/sensors";

describe("cql-review init on an application whose tables come from its entities", () => {
  let project: string;
  beforeEach(async () => {
    project = await nodeFs.mkdtemp(path.join(tmpdir(), "cql-review-init-entities-"));
    await nodeFs.mkdir(path.join(project, JAVA), { recursive: true });
    await nodeFs.mkdir(path.join(project, "src/main/resources"), { recursive: true });
    await nodeFs.writeFile(path.join(project, "pom.xml"), "<project/>\n");
    await nodeFs.writeFile(path.join(project, JAVA, "Reading.java"), ENTITY);
    await nodeFs.writeFile(path.join(project, JAVA, "Kind.java"), KIND);
    await nodeFs.writeFile(path.join(project, JAVA, "ReadingRepository.java"), REPOSITORY);
    await nodeFs.writeFile(path.join(project, "src/main/resources/application.yml"), "spring:\n  cassandra:\n    keyspace-name: sensors\n    schema-action: create-if-not-exists\n");
  });
  afterEach(async () => {
    await nodeFs.rm(project, { recursive: true, force: true });
  });

  it("writes schema.cql from the entities, drafts the manifest on it, and reports the field it cannot type", async () => {
    const result = await runCli(["init"], { cwd: project });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^No schema file: wrote schema\.cql, 1 table drafted from the entity classes \(the application creates them: schema-action create-if-not-exists in src\/main\/resources\/application\.yml:4\)\.\nWrote access-patterns\.yaml, drafted from 1 table and 1 statement of the code \(1 query\)\.\n/,
    );
    expect(result.stderr).toBe(
      `cql-review: ${JAVA}/Reading.java:21:20: Reading.zone (ZoneId): no CQL type derived, left out of schema.cql as a TODO: ZoneId has no default CQL type: a class stored through a converter, or one no @UserDefinedType of the sources declares\n`,
    );
    const schema = await nodeFs.readFile(path.join(project, "schema.cql"), "utf8");
    expect(schema).toContain("CREATE TABLE readings (\n  sensor_id uuid,\n  at timestamp,\n  value double,\n  kind text,\n  tags list<text>,\n  -- TODO: zone");
    expect(schema).toContain("  PRIMARY KEY (sensor_id, at)\n) WITH CLUSTERING ORDER BY (at DESC);\n");
    const manifest = parseYaml(await nodeFs.readFile(path.join(project, "access-patterns.yaml"), "utf8")) as { keyspace: string; schema: string[] };
    expect(manifest.keyspace).toBe("sensors");
    expect(manifest.schema).toEqual(["schema.cql"]);

    // check plans the repository's read against the entity's key; the untyped field is the one mismatch
    const check = await runCli(["check", ".", "--format", "json"], { cwd: project });
    const report = JSON.parse(check.stdout) as { findings: { rule: string; severity: string; line: number }[]; queries: { id: string; verdict: string }[] };
    expect(report.queries.map((query) => `${query.id} ${query.verdict}`)).toEqual(["ReadingRepository.findBySensorId single-partition"]);
    expect(report.findings.filter((finding) => finding.severity === "error")).toEqual([]);
    expect(report.findings.filter((finding) => finding.rule === "code-table-mismatch").map((finding) => finding.line)).toEqual([21]);
  });

  it("refuses when there are neither schema files nor entity classes", async () => {
    await nodeFs.rm(path.join(project, JAVA, "Reading.java"));
    const none = await runCli(["init"], { cwd: project });
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("no schema files under . (globs: **/*.cql) and no entity classes that map tables");
  });
});
