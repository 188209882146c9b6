import { describe, expect, it } from "vitest";
import { CQLENGINE_BASE, CQLENGINE_MODELS, MAPPER3_ENTITY, MAPPER_ENTITY, MAPPER_SCHEMA, SPRING_ENTITY, SPRING_KEY, SPRING_SCHEMA, SPRING_TABLES } from "../code/entity-fixtures.js";
import { findingsAt, reviewWithCode } from "../code/review-with-code.js";

const RULE = "code-table-mismatch";
const DIR = "src/main/java/com/example/video";

const springApp = (schema: string, key = SPRING_KEY, entity = SPRING_ENTITY) => ({
  "schema/videos.cql": schema,
  [`${DIR}/Tables.java`]: SPRING_TABLES,
  [`${DIR}/VideoByUserKey.java`]: key,
  [`${DIR}/VideoByUser.java`]: entity,
});

describe(RULE, () => {
  it("is silent when the Spring Data entity and the CREATE TABLE agree", async () => {
    expect(findingsAt(await reviewWithCode(springApp(SPRING_SCHEMA)), RULE)).toEqual([]);
  });

  it("reports another partition key on the entity's line", async () => {
    const schema = SPRING_SCHEMA.replace("PRIMARY KEY ((user_id), added_date, video_id)", "PRIMARY KEY ((user_id, added_date), video_id)").replace(
      "CLUSTERING ORDER BY (added_date DESC, video_id ASC)",
      "CLUSTERING ORDER BY (video_id ASC)",
    );
    const result = await reviewWithCode(springApp(schema));
    expect(findingsAt(result, RULE)).toEqual([`${RULE} ${DIR}/VideoByUser.java:9`, `${RULE} ${DIR}/VideoByUser.java:9`]);
    const messages = result.findings.filter((f) => f.rule === RULE).map((f) => f.message).join("\n");
    expect(messages).toContain("partition key (user_id), but the schema's partition key is (user_id, added_date)");
    expect(messages).toContain("clustering columns (added_date, video_id), but the schema clusters by (video_id)");
  });

  it("reports a clustering order the entity writes down, and not the default it leaves unsaid", async () => {
    const schema = SPRING_SCHEMA.replace("added_date DESC, video_id ASC", "added_date ASC, video_id DESC");
    const result = await reviewWithCode(springApp(schema));
    expect(findingsAt(result, RULE)).toEqual([`${RULE} ${DIR}/VideoByUser.java:9`]);
    expect(result.findings.find((f) => f.rule === RULE)!.message).toContain("declares added_date DESC, but table shop.videos_by_user clusters it ASC");
  });

  it("reports a mapped property the table lacks, on the property's line", async () => {
    const schema = SPRING_SCHEMA.replace("  title text,\n", "");
    const result = await reviewWithCode(springApp(schema));
    expect(findingsAt(result, RULE)).toEqual([`${RULE} ${DIR}/VideoByUser.java:16`]);
    expect(result.findings.find((f) => f.rule === RULE)!.message).toContain("property title to table shop.videos_by_user");
  });

  it("compares a DataStax mapper entity by the names its naming strategy derives", async () => {
    const files = { "schema/users.cql": MAPPER_SCHEMA, "src/main/java/com/example/users/UserCredentials.java": MAPPER_ENTITY };
    expect(findingsAt(await reviewWithCode(files), RULE)).toEqual([]);
    const renamed = { ...files, "schema/users.cql": MAPPER_SCHEMA.replace("user_id uuid", "userid uuid") };
    const result = await reviewWithCode(renamed);
    expect(findingsAt(result, RULE)).toEqual([`${RULE} src/main/java/com/example/users/UserCredentials.java:13`]);
    expect(result.findings.find((f) => f.rule === RULE)!.message).toContain("property user_id");
  });

  it("compares key names only when the entity leaves their order to the framework", async () => {
    const schema = `CREATE TABLE shop.comments_by_video (comment_id timeuuid, video_id uuid, comment text, PRIMARY KEY ((video_id), comment_id));`;
    expect(findingsAt(await reviewWithCode({ "schema/c.cql": schema, "Comment.java": MAPPER3_ENTITY }), RULE)).toEqual([]);
    const unordered = `import org.springframework.data.cassandra.core.mapping.*;
import org.springframework.data.cassandra.core.cql.PrimaryKeyType;

@Table("readings")
public class Reading {
    @PrimaryKeyColumn(name = "day", type = PrimaryKeyType.PARTITIONED)
    private String day;
    @PrimaryKeyColumn(name = "sensor", type = PrimaryKeyType.PARTITIONED)
    private String sensor;
}
`;
    const readings = `CREATE TABLE readings (sensor text, day text, PRIMARY KEY ((sensor, day)));`;
    expect(findingsAt(await reviewWithCode({ "schema/r.cql": readings, "Reading.java": unordered }), RULE)).toEqual([]);
  });

  it("says nothing about a table only the code defines", async () => {
    const result = await reviewWithCode({ "schema/other.cql": MAPPER_SCHEMA, [`${DIR}/Tables.java`]: SPRING_TABLES, [`${DIR}/VideoByUserKey.java`]: SPRING_KEY, [`${DIR}/VideoByUser.java`]: SPRING_ENTITY });
    expect(findingsAt(result, RULE)).toEqual([]);
  });

  it("compares a cqlengine model, its db_field and clustering order included", async () => {
    const files = { "schema/videos.cql": SPRING_SCHEMA.replace("  title text,\n", "  title text,\n  created_at timestamp,\n"), "app/base.py": CQLENGINE_BASE, "app/models.py": CQLENGINE_MODELS };
    expect(findingsAt(await reviewWithCode(files), RULE)).toEqual([]);
    const ascending = { ...files, "schema/videos.cql": files["schema/videos.cql"].replace("added_date DESC", "added_date ASC") };
    const result = await reviewWithCode(ascending);
    expect(findingsAt(result, RULE)).toEqual([`${RULE} app/models.py:6`]);
    expect(result.findings.find((f) => f.rule === RULE)!.message).toContain("declares added_date DESC, but table shop.videos_by_user clusters it ASC");
  });
});
