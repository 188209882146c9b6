import { describe, expect, it } from "vitest";
import { extractFrom } from "./review-with-code.js";
import type { CodeTable } from "../../src/code/types.js";
import { CQLENGINE_BASE, CQLENGINE_MODELS, MAPPER3_ENTITY, MAPPER_ENTITY, SPRING_ENTITY, SPRING_KEY, SPRING_TABLES } from "./entity-fixtures.js";

async function tablesOf(files: Record<string, string>): Promise<CodeTable[]> {
  const extraction = await extractFrom(files);
  return extraction.tables;
}

const shape = (table: CodeTable) => ({
  keyspace: table.keyspace,
  name: table.name,
  partitionKey: table.partitionKey,
  clustering: table.clustering,
  columns: table.columns.map((c) => c.name),
  keyOrderKnown: table.keyOrderKnown,
});

describe("tables from entity classes", () => {
  it("reads a Spring Data entity, its key class in another file and its names from constants", async () => {
    const [table, ...others] = await tablesOf({
      "src/main/java/com/example/video/Tables.java": SPRING_TABLES,
      "src/main/java/com/example/video/VideoByUserKey.java": SPRING_KEY,
      "src/main/java/com/example/video/VideoByUser.java": SPRING_ENTITY,
    });
    expect(others).toEqual([]);
    expect(shape(table!)).toEqual({
      keyspace: "shop",
      name: "videos_by_user",
      partitionKey: ["user_id"],
      clustering: [{ name: "added_date", order: "desc" }, { name: "video_id" }],
      columns: ["user_id", "added_date", "video_id", "title"],
      keyOrderKnown: { partition: true, clustering: true },
    });
    expect(table!.framework).toBe("spring-data");
    expect(table!.file).toBe("src/main/java/com/example/video/VideoByUser.java");
    expect(table!.range.start.line).toBe(9);
    // The key's columns sit on the key class's fields.
    expect(table!.columns[1]!.range.start.line).toBe(22);
  });

  it("orders Spring Data key columns by ordinal, and by nothing when ordinals are missing", async () => {
    const entity = (ordinals: boolean) => `import org.springframework.data.cassandra.core.mapping.*;
import org.springframework.data.cassandra.core.cql.PrimaryKeyType;

@Table
public class Reading {
    @PrimaryKeyColumn(name = "day", ${ordinals ? "ordinal = 1, " : ""}type = PrimaryKeyType.PARTITIONED)
    private String day;
    @PrimaryKeyColumn(name = "sensor", ${ordinals ? "ordinal = 0, " : ""}type = PrimaryKeyType.PARTITIONED)
    private String sensor;
    @PrimaryKeyColumn(type = PrimaryKeyType.CLUSTERED)
    private java.time.Instant at;
    private double value;
}
`;
    const [ordered] = await tablesOf({ "Reading.java": entity(true) });
    expect(ordered!.name).toBe("reading");
    expect(ordered!.partitionKey).toEqual(["sensor", "day"]);
    // `at` has no ordinal: its place is the framework's choice.
    expect(ordered!.keyOrderKnown).toEqual({ partition: true, clustering: false });
    expect(ordered!.clustering).toEqual([{ name: "at" }]);
    const [unordered] = await tablesOf({ "Reading.java": entity(false) });
    expect(unordered!.partitionKey).toEqual(["day", "sensor"]);
    expect(unordered!.keyOrderKnown).toEqual({ partition: false, clustering: false });
  });

  it("names a DataStax mapper 4 entity's table and columns in snake case, @CqlName and transient aside", async () => {
    const [table] = await tablesOf({ "src/main/java/com/example/users/UserCredentials.java": MAPPER_ENTITY });
    expect(shape(table!)).toEqual({
      keyspace: "shop",
      name: "user_credentials",
      partitionKey: ["email"],
      clustering: [],
      columns: ["email", "user_id", "password_hash"],
      keyOrderKnown: { partition: true, clustering: true },
    });
  });

  it("follows the mapper's @NamingStrategy, and skips an entity whose names a custom converter makes", async () => {
    const entity = (strategy: string) => `import com.datastax.oss.driver.api.mapper.annotations.*;
import com.datastax.oss.driver.api.mapper.entity.naming.NamingConvention;

@Entity
@NamingStrategy(${strategy})
public class UserVideo {
    @PartitionKey private java.util.UUID userId;
    @ClusteringColumn(1) private java.util.UUID videoId;
    @ClusteringColumn(0) private java.time.Instant addedDate;
}
`;
    const [insensitive] = await tablesOf({ "UserVideo.java": entity("convention = NamingConvention.CASE_INSENSITIVE") });
    expect(shape(insensitive!)).toMatchObject({ name: "uservideo", partitionKey: ["userid"], clustering: [{ name: "addeddate" }, { name: "videoid" }] });
    expect(await tablesOf({ "UserVideo.java": entity("customConverterClass = MyConverter.class") })).toEqual([]);
  });

  it("reads a driver 3 mapper entity", async () => {
    const [table] = await tablesOf({ "Comment.java": MAPPER3_ENTITY });
    expect(shape(table!)).toEqual({
      keyspace: "shop",
      name: "comments_by_video",
      partitionKey: ["video_id"],
      clustering: [{ name: "comment_id" }],
      columns: ["video_id", "comment_id", "comment"],
      keyOrderKnown: { partition: true, clustering: true },
    });
  });

  it("takes fields from a superclass it read, and leaves the key open when the superclass is not read", async () => {
    const base = `import com.datastax.oss.driver.api.mapper.annotations.PartitionKey;
public abstract class Keyed {
    @PartitionKey protected java.util.UUID id;
}
`;
    const child = `import com.datastax.oss.driver.api.mapper.annotations.Entity;
@Entity
public class Product extends Keyed {
    private String name;
}
`;
    const [withBase] = await tablesOf({ "Keyed.java": base, "Product.java": child });
    expect(shape(withBase!)).toMatchObject({ name: "product", partitionKey: ["id"], columns: ["id", "name"] });
    const [alone] = await tablesOf({ "Product.java": child });
    expect(alone!.partitionKey).toBeUndefined();
    expect(alone!.columns.map((c) => c.name)).toEqual(["name"]);
  });

  it("ignores a JPA @Table and classes of files that import no Cassandra framework", async () => {
    const jpa = `import javax.persistence.Entity;
import javax.persistence.Table;
import com.datastax.oss.driver.api.core.CqlSession;

@Entity
@Table(name = "orders")
public class Order {
    private Long id;
}
`;
    expect(await tablesOf({ "Order.java": jpa })).toEqual([]);
  });
});

describe("tables from cqlengine models", () => {
  it("reads keys, clustering order, db_field, abstract bases and cqlengine's default table name", async () => {
    const tables = await tablesOf({ "app/base.py": CQLENGINE_BASE, "app/models.py": CQLENGINE_MODELS });
    expect(tables.map(shape)).toEqual([
      {
        keyspace: "shop",
        name: "videos_by_user",
        partitionKey: ["user_id"],
        clustering: [{ name: "added_date", order: "desc" }, { name: "video_id" }],
        columns: ["created_at", "user_id", "added_date", "video_id", "title"],
        keyOrderKnown: { partition: true, clustering: true },
      },
      {
        keyspace: undefined,
        name: "comments_by_video",
        // Without partition_key=True the first primary key column is the partition key.
        partitionKey: ["video_id"],
        clustering: [{ name: "comment_id" }],
        columns: ["created_at", "video_id", "comment_id", "comment"],
        keyOrderKnown: { partition: true, clustering: true },
      },
    ]);
    expect(tables[0]!.range.start.line).toBe(6);
  });

  it("leaves the key open when a base class is not read", async () => {
    const [table] = await tablesOf({ "app/models.py": CQLENGINE_MODELS });
    expect(table!.partitionKey).toBeUndefined();
    expect(table!.columns.map((c) => c.name)).toEqual(["user_id", "added_date", "video_id", "title"]);
  });
});

describe("entity classes left out or read in part", () => {
  it("skips @Computed fields and an entity whose getters carry mapping annotations", async () => {
    const base = `import com.datastax.driver.mapping.annotations.*;
public class Comment {
    @ClusteringColumn protected java.util.UUID commentid;
    @Column protected String comment;
    @Computed("toTimestamp(commentid)") private java.util.Date dateOfComment;
}
`;
    const onFields = `import com.datastax.driver.mapping.annotations.*;
@Table(keyspace = "ks", name = "comments_by_user")
public class CommentByUser extends Comment {
    @PartitionKey protected java.util.UUID userid;
}
`;
    const [table] = await tablesOf({ "Comment.java": base, "CommentByUser.java": onFields });
    expect(table!.columns.map((c) => c.name)).toEqual(["commentid", "comment", "userid"]);
    expect(table!.partitionKey).toEqual(["userid"]);
    const onGetter = `import com.datastax.driver.mapping.annotations.*;
@Table(keyspace = "ks", name = "comments_by_user")
public class CommentByUser extends Comment {
    @PartitionKey
    public java.util.UUID getUserid() { return null; }
}
`;
    expect(await tablesOf({ "Comment.java": base, "CommentByUser.java": onGetter })).toEqual([]);
  });
});

describe("records", () => {
  it("reads a Spring Data record's components as its properties", async () => {
    const record = `import org.springframework.data.annotation.Id;
import org.springframework.data.annotation.Transient;
import org.springframework.data.cassandra.core.mapping.Table;

@Table("customers")
record Customer(@Id String id, String firstname, @Transient String display) {
}
`;
    const [table] = await tablesOf({ "Customer.java": record });
    expect(shape(table!)).toMatchObject({ name: "customers", partitionKey: ["id"], columns: ["id", "firstname"] });
  });
});
