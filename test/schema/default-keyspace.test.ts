import { describe, expect, it } from "vitest";
import { defaultKeyspaceOf, isApplicationConfigFile, keyspacesInApplicationConfig } from "../../src/schema/default-keyspace.js";
import { parseFiles } from "./helpers.js";

const keyspace = (name: string) => `CREATE KEYSPACE IF NOT EXISTS ${name} WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n`;
const config = (path: string, content: string) => ({ path, content });

describe("the application's configuration", () => {
  it("knows Spring's and the driver's files by name", () => {
    for (const path of ["src/main/resources/application.yml", "config/application-prod.yaml", "application.properties", "src/main/resources/application.conf"]) {
      expect(isApplicationConfigFile(path), path).toBe(true);
    }
    for (const path of ["applications.yml", "src/application.json", "my-application.yml", "application.conf.bak"]) expect(isApplicationConfigFile(path), path).toBe(false);
  });

  it("reads Spring Boot's keyspace-name, nested or dotted, in any spelling Spring binds", () => {
    const nested = "spring:\n  application:\n    name: shop\n  cassandra:\n    contact-points: localhost:9042\n    keyspace-name: ShopApp # the app's\n";
    expect(keyspacesInApplicationConfig(config("application.yml", nested))).toEqual(["shopapp"]);
    expect(keyspacesInApplicationConfig(config("application.yml", "spring.data.cassandra.keyspaceName: shop\n"))).toEqual(["shop"]);
    expect(keyspacesInApplicationConfig(config("application.yml", "spring:\n  data:\n    cassandra:\n      keyspace_name: '${KEYSPACE:orders}'\n"))).toEqual(["orders"]);
    expect(keyspacesInApplicationConfig(config("application.properties", "# db\nspring.cassandra.keyspace-name=Shop\nspring.cassandra.port=9042\n"))).toEqual(["shop"]);
  });

  it("keeps the case of a keyspace quoted for CQL, and reads nothing it cannot be sure of", () => {
    expect(keyspacesInApplicationConfig(config("application.yml", "spring:\n  cassandra:\n    keyspace-name: '\"MixedCase\"'\n"))).toEqual(["MixedCase"]);
    expect(keyspacesInApplicationConfig(config("application.yml", "spring:\n  cassandra:\n    keyspace-name: ${KEYSPACE}\n"))).toEqual([]);
    // a key of the same name under another prefix is not the session's keyspace
    expect(keyspacesInApplicationConfig(config("application.yml", "app:\n  cassandra:\n    keyspace-name: other\n"))).toEqual([]);
  });

  it("reads the Java driver's basic.session-keyspace in application.conf", () => {
    const conf = 'datastax-java-driver {\n  basic {\n    contact-points = ["127.0.0.1:9042"]\n    session-keyspace = shop   # default\n  }\n}\n';
    expect(keyspacesInApplicationConfig(config("application.conf", conf))).toEqual(["shop"]);
    expect(keyspacesInApplicationConfig(config("application.conf", 'datastax-java-driver.basic.session-keyspace = "orders"\n'))).toEqual(["orders"]);
  });
});

describe("the default keyspace", () => {
  const changelog = "CREATE TABLE IF NOT EXISTS customer (id text PRIMARY KEY);\n";

  it("is the only keyspace the schema files create, even when two scripts create it", () => {
    const files = parseFiles({ "cql/create-keyspace.cql": keyspace("app"), "cql/create-keyspace-prod.cql": keyspace("app"), "cql/changelog/1_tables.cql": changelog });
    expect(defaultKeyspaceOf(files, [])).toEqual({ keyspace: "app", from: "the only keyspace the schema files create" });
  });

  it("is the one the application connects to when the files create several, or none", () => {
    const yml = config("src/main/resources/application.yml", "spring:\n  cassandra:\n    keyspace-name: orders\n");
    const files = parseFiles({ "a.cql": keyspace("orders") + keyspace("audit"), "b.cql": changelog });
    expect(defaultKeyspaceOf(files, [yml])).toEqual({ keyspace: "orders", from: "src/main/resources/application.yml" });
    expect(defaultKeyspaceOf(parseFiles({ "b.cql": changelog }), [yml])?.keyspace).toBe("orders");
  });

  it("is no guess when profiles disagree or the configured keyspace is not one the files create", () => {
    const dev = config("application-dev.yml", "spring.cassandra.keyspace-name: orders_dev\n");
    const prod = config("application-prod.yml", "spring.cassandra.keyspace-name: orders\n");
    expect(defaultKeyspaceOf(parseFiles({ "b.cql": changelog }), [dev, prod])).toBeUndefined();
    expect(defaultKeyspaceOf(parseFiles({ "a.cql": keyspace("x") + keyspace("y") }), [prod])).toBeUndefined();
  });

  it("is the keyspace every USE names when nothing else says", () => {
    expect(defaultKeyspaceOf(parseFiles({ "a.cql": `USE app;\n${changelog}`, "b.cql": changelog }), [])?.keyspace).toBe("app");
    expect(defaultKeyspaceOf(parseFiles({ "a.cql": `USE app;\n${changelog}`, "b.cql": `USE other;\n${changelog}` }), [])).toBeUndefined();
  });
});
