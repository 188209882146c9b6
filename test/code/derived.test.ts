import { describe, expect, it } from "vitest";
import { derivedQuery } from "../../src/code/derived.js";
import { extractStatements } from "../../src/code/extract.js";
import { grammars } from "../../src/code/grammars.js";
import type { CodeTable } from "../../src/code/types.js";
import { SourceSpan, LineIndex } from "../../src/cql/source-span.js";
import { SPRING_ENTITY, SPRING_KEY, SPRING_REPOSITORY, SPRING_SCHEMA, SPRING_TABLES } from "./entity-fixtures.js";
import { findingsAt, reviewWithCode } from "./review-with-code.js";

const at = new SourceSpan(new LineIndex([0]), 0, 0);
const videos: CodeTable = {
  framework: "spring-data",
  entity: "Video",
  keyspace: "shop",
  name: "videos_by_user",
  file: "Video.java",
  range: at,
  partitionKey: ["user_id"],
  clustering: [{ name: "added_date" }],
  columns: [
    { name: "user_id", property: "userId", range: at },
    { name: "added_date", property: "addedDate", range: at },
    { name: "tags", property: "tags", range: at, collection: true },
    { name: "title", property: "title", range: at },
    { name: "logged_in", property: "loggedIn", range: at },
  ],
  keyOrderKnown: { partition: true, clustering: true },
};

const PRODUCT_ENTITY = `package com.example.shop;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.data.cassandra.core.mapping.PrimaryKey;
import org.springframework.data.cassandra.core.mapping.Table;

@Table("products")
public class Product {
    @PrimaryKey
    private String sku;
    private String name;
    private Set<String> labels;
    private List<String> colours;
    private Map<String, String> attributes;
    private String[] aliases;
    private byte[] thumbnail;
}
`;
const PRODUCT_REPOSITORY = `package com.example.shop;

import java.util.List;
import org.springframework.data.cassandra.repository.CassandraRepository;

public interface ProductRepository extends CassandraRepository<Product, String> {
    List<Product> findByNameContaining(String part);
    List<Product> findByLabelsContaining(String label);
    List<Product> findByColoursContains(String colour);
    List<Product> findByAttributesContaining(String value);
    List<Product> findByAliasesContaining(String alias);
    List<Product> findByThumbnailContaining(byte[] part);
}
`;

describe("Spring Data derived query methods", () => {
  it.each([
    ["findByUserId", "SELECT * FROM shop.videos_by_user WHERE user_id = ?"],
    ["findByUserIdAndAddedDateAfter", "SELECT * FROM shop.videos_by_user WHERE user_id = ? AND added_date > ?"],
    ["findByUserIdAndAddedDateGreaterThanEqual", "SELECT * FROM shop.videos_by_user WHERE user_id = ? AND added_date >= ?"],
    ["readByUserIdAndAddedDateBefore", "SELECT * FROM shop.videos_by_user WHERE user_id = ? AND added_date < ?"],
    ["findByUserIdIn", "SELECT * FROM shop.videos_by_user WHERE user_id IN ?"],
    ["findByTagsContaining", "SELECT * FROM shop.videos_by_user WHERE tags CONTAINS ?"],
    // Containing on a text property is a LIKE '%x%' (a SASI or SAI index must serve it)
    ["findByTitleContaining", "SELECT * FROM shop.videos_by_user WHERE title LIKE ?"],
    ["findByTitleIsContaining", "SELECT * FROM shop.videos_by_user WHERE title LIKE ?"],
    ["findByTagsContains", "SELECT * FROM shop.videos_by_user WHERE tags CONTAINS ?"],
    ["findByLoggedIn", "SELECT * FROM shop.videos_by_user WHERE logged_in = ?"],
    ["findFirstByUserIdOrderByAddedDateDesc", "SELECT * FROM shop.videos_by_user WHERE user_id = ? ORDER BY added_date DESC LIMIT 1"],
    ["findTop5ByUserIdOrderByAddedDate", "SELECT * FROM shop.videos_by_user WHERE user_id = ? ORDER BY added_date ASC LIMIT 5"],
    ["countByUserId", "SELECT COUNT(*) FROM shop.videos_by_user WHERE user_id = ?"],
    ["findByUserIdOrderByAddedDateDescTagsAsc", "SELECT * FROM shop.videos_by_user WHERE user_id = ? ORDER BY added_date DESC, tags ASC"],
    // no criteria: every row (a projection's usual name)
    ["findAllProjectedBy", "SELECT * FROM shop.videos_by_user"],
    ["countBy", "SELECT COUNT(*) FROM shop.videos_by_user"],
    ["findAll", "SELECT * FROM shop.videos_by_user"],
    // Spring Data Cassandra writes Between as an open range, Like/StartingWith/EndingWith as LIKE
    ["findByUserIdAndAddedDateBetween", "SELECT * FROM shop.videos_by_user WHERE user_id = ? AND added_date > ? AND added_date < ?"],
    ["findByUserIdAndAddedDateIsBetweenOrderByAddedDateAsc", "SELECT * FROM shop.videos_by_user WHERE user_id = ? AND added_date > ? AND added_date < ? ORDER BY added_date ASC"],
    ["findByTagsStartingWith", "SELECT * FROM shop.videos_by_user WHERE tags LIKE ?"],
    ["findByTagsEndsWith", "SELECT * FROM shop.videos_by_user WHERE tags LIKE ?"],
    ["findByTagsLike", "SELECT * FROM shop.videos_by_user WHERE tags LIKE ?"],
    ["findByUserIdAndLoggedInIsTrue", "SELECT * FROM shop.videos_by_user WHERE user_id = ? AND logged_in = true"],
    ["findByUserIdAndAddedDateLessThanEqual", "SELECT * FROM shop.videos_by_user WHERE user_id = ? AND added_date <= ?"],
    ["streamAllByUserId", "SELECT * FROM shop.videos_by_user WHERE user_id = ?"],
    ["findFirst3ByUserId", "SELECT * FROM shop.videos_by_user WHERE user_id = ? LIMIT 3"],
    ["existsByUserId", "SELECT * FROM shop.videos_by_user WHERE user_id = ? LIMIT 1"],
  ])("reads %s", (method, cql) => {
    expect(derivedQuery(method, videos, false)).toBe(cql);
  });

  it.each(["findByUserIdOrTags", "findByUserIdNot", "findByTitleIgnoreCase", "findByTagsNotLike", "findByUserIdNotIn", "findByTagsIsNotNull", "findByNothing", "findAllTitles", "saveByUserId"])(
    "gives nothing for %s",
    (method) => {
      expect(derivedQuery(method, videos, false)).toBeUndefined();
    },
  );

  it("adds ALLOW FILTERING for @AllowFiltering", () => {
    expect(derivedQuery("findByTags", videos, true)).toBe("SELECT * FROM shop.videos_by_user WHERE tags = ? ALLOW FILTERING");
  });

  it("reads one SELECT per method whatever it returns: Slice, Stream, Optional, a projection interface or a DTO", async () => {
    const extraction = await extractStatements(
      Object.entries({
        "src/Tables.java": SPRING_TABLES,
        "src/VideoByUserKey.java": SPRING_KEY,
        "src/VideoByUser.java": SPRING_ENTITY,
        "src/TitleRow.java": "package com.example.video;\n\npublic record TitleRow(String title) {}\n",
        "src/VideoByUserRepository.java": `package com.example.video;

import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;
import org.springframework.data.cassandra.repository.CassandraRepository;
import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Slice;

public interface VideoByUserRepository extends CassandraRepository<VideoByUser, VideoByUserKey> {
    interface TitleOnly {
        String getTitle();
    }

    Slice<VideoByUser> findByKeyUserId(UUID userId, Pageable page);

    Stream<TitleOnly> streamByKeyUserIdAndKeyAddedDateBetween(UUID userId, Instant from, Instant to);

    Optional<TitleRow> findFirstByKeyUserIdOrderByKeyAddedDateDesc(UUID userId);

    boolean existsByKeyUserId(UUID userId);
}
`,
      }).map(([path, content]) => ({ path, content })),
      (language) => grammars.parser(language),
    );
    expect(extraction.statements.map((s) => [s.range.start.line, s.cql])).toEqual([
      [16, "SELECT * FROM shop.videos_by_user WHERE user_id = ?"],
      [18, "SELECT * FROM shop.videos_by_user WHERE user_id = ? AND added_date > ? AND added_date < ?"],
      [20, "SELECT * FROM shop.videos_by_user WHERE user_id = ? ORDER BY added_date DESC LIMIT 1"],
      [22, "SELECT * FROM shop.videos_by_user WHERE user_id = ? LIMIT 1"],
    ]);
  });

  it("reads Containing by the property's declared type: CONTAINS on a collection or map, LIKE on text", async () => {
    const extraction = await extractStatements(
      [
        { path: "src/Product.java", content: PRODUCT_ENTITY },
        { path: "src/ProductRepository.java", content: PRODUCT_REPOSITORY },
      ],
      (language) => grammars.parser(language),
    );
    expect(extraction.statements.map((s) => s.cql)).toEqual([
      "SELECT * FROM products WHERE name LIKE ?",
      "SELECT * FROM products WHERE labels CONTAINS ?",
      "SELECT * FROM products WHERE colours CONTAINS ?",
      "SELECT * FROM products WHERE attributes CONTAINS ?",
      "SELECT * FROM products WHERE aliases CONTAINS ?",
      // a byte[] is a blob, not a list
      "SELECT * FROM products WHERE thumbnail LIKE ?",
    ]);
  });

  it("leaves a text Containing to the planner: a LIKE that only a SASI index serves", async () => {
    const schema = (index: string) => `CREATE TABLE shop.products (sku text PRIMARY KEY, name text, labels set<text>, colours list<text>,
  attributes map<text, text>, aliases list<text>, thumbnail blob);
CREATE INDEX products_labels ON shop.products (labels);
${index}
`;
    const files = (index: string) => ({
      "schema/shop.cql": schema(index),
      "src/Product.java": PRODUCT_ENTITY.replace('@Table("products")', '@Table(value = "products", keyspace = "shop")'),
      "src/ProductRepository.java": PRODUCT_REPOSITORY,
    });
    const plain = await reviewWithCode(files("CREATE INDEX products_name ON shop.products (name);"));
    const sasi = await reviewWithCode(files("CREATE CUSTOM INDEX products_name ON shop.products (name) USING 'org.apache.cassandra.index.sasi.SASIIndex' WITH OPTIONS = {'mode': 'CONTAINS'};"));
    // A regular index cannot serve LIKE; a SASI index in CONTAINS mode can.
    expect(findingsAt(plain)).toContain("query-index-unsupported-operator src/ProductRepository.java:7");
    const nameLine = (r: Awaited<ReturnType<typeof reviewWithCode>>) => findingsAt(r).filter((f) => f.endsWith(":7") && /invalid|unsupported/.test(f));
    expect(nameLine(sasi)).toEqual([]);
    // The collection's CONTAINS is served by its index.
    expect(findingsAt(sasi).filter((f) => f.endsWith(":8") && /invalid|unsupported|allow-filtering/.test(f))).toEqual([]);
  });

  it("finds the methods of a repository over an entity, on their names' lines", async () => {
    const extraction = await extractStatements(
      Object.entries({
        "src/Tables.java": SPRING_TABLES,
        "src/VideoByUserKey.java": SPRING_KEY,
        "src/VideoByUser.java": SPRING_ENTITY,
        "src/VideoByUserRepository.java": SPRING_REPOSITORY,
      }).map(([path, content]) => ({ path, content })),
      (language) => grammars.parser(language),
    );
    const derived = extraction.statements.filter((s) => s.api === "Spring Data derived query");
    expect(derived.map((s) => [s.id, s.range.start.line, s.cql])).toEqual([
      ["src/VideoByUserRepository.java#VideoByUserRepository.findByKeyUserId", 12, "SELECT * FROM shop.videos_by_user WHERE user_id = ?"],
      [
        "src/VideoByUserRepository.java#VideoByUserRepository.findTop10ByKeyUserIdAndKeyAddedDateAfterOrderByKeyAddedDateDesc",
        14,
        "SELECT * FROM shop.videos_by_user WHERE user_id = ? AND added_date > ? ORDER BY added_date DESC LIMIT 10",
      ],
      ["src/VideoByUserRepository.java#VideoByUserRepository.findByTitle", 17, "SELECT * FROM shop.videos_by_user WHERE title = ? ALLOW FILTERING"],
    ]);
    // The @Query method is read from its annotation, once.
    expect(extraction.statements.filter((s) => s.api === "@Query")).toHaveLength(1);
  });

  it("plans a derived query like any statement, with its finding on the method's line", async () => {
    const result = await reviewWithCode({
      "schema/videos.cql": SPRING_SCHEMA,
      "src/Tables.java": SPRING_TABLES,
      "src/VideoByUserKey.java": SPRING_KEY,
      "src/VideoByUser.java": SPRING_ENTITY,
      "src/VideoByUserRepository.java": SPRING_REPOSITORY.replace("    @AllowFiltering\n", ""),
    });
    expect(findingsAt(result, "query-needs-allow-filtering")).toEqual(["query-needs-allow-filtering src/VideoByUserRepository.java:16"]);
  });
});

describe("repositories over entities of the same name", () => {
  it("takes the entity of the repository's package", async () => {
    const entity = (table: string, column: string) => `import org.springframework.data.annotation.Id;
import org.springframework.data.cassandra.core.mapping.Table;

@Table("${table}")
public class Order {
    @Id private String ${column};
}
`;
    const repository = `import org.springframework.data.repository.CrudRepository;

interface OrderRepository extends CrudRepository<Order, String> {
    Order findByCode(String code);
}
`;
    const extraction = await extractStatements(
      [
        { path: "a/Order.java", content: entity("orders_a", "code") },
        { path: "b/Order.java", content: entity("orders_b", "code") },
        { path: "b/OrderRepository.java", content: repository },
      ],
      (language) => grammars.parser(language),
    );
    expect(extraction.statements.map((s) => s.cql)).toEqual(["SELECT * FROM orders_b WHERE code = ?"]);
  });
});
