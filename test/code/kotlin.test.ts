// Kotlin: the Java driver and Spring Data's @Query called from Kotlin, constants of objects and
// companion objects in other files, raw strings with trimIndent, and string templates (dynamic).
import { describe, expect, it } from "vitest";
import { extractFrom, findingsAt, reviewWithCode } from "./review-with-code.js";

async function read(files: Record<string, string>) {
  const result = await extractFrom(files);
  return {
    ...result,
    at: result.statements.map((s) => `${s.file.split("/").pop()}:${s.range.start.line} ${s.api} ${s.cql.replace(/\s+/g, " ")}`),
    dynamicAt: result.dynamic.map((d) => `${d.file.split("/").pop()}:${d.range.start.line} ${d.reason}`),
  };
}

const DIR = "src/main/kotlin/com/example/video";

const QUERIES = `package com.example.video

const val VIDEOS = "videos_by_user"

object Queries {
    const val BY_USER = "SELECT video_id, title FROM " + VIDEOS +
        " WHERE user_id = ?"
}
`;

const DAO = `package com.example.video

import com.datastax.oss.driver.api.core.CqlSession
import com.datastax.oss.driver.api.core.cql.SimpleStatement
import org.slf4j.LoggerFactory
import java.util.UUID

class VideoDao(private val session: CqlSession) {
    companion object {
        private val log = LoggerFactory.getLogger(VideoDao::class.java)
        const val INSERT = """
            INSERT INTO videos (video_id, title)
            VALUES (?, ?)
            """
        val BY_TITLE = """
            |SELECT video_id FROM videos
            |WHERE title = ?
            """.trimMargin()
    }

    fun byUser(user: UUID) = session.execute(session.prepare(Queries.BY_USER).bind(user))

    fun add(video: UUID, title: String) {
        log.info("INSERT INTO videos {}", title)
        session.execute(SimpleStatement.newInstance(INSERT.trimIndent(), video, title))
    }

    fun byTitle(title: String) = session.execute(SimpleStatement.builder(BY_TITLE).addPositionalValue(title).build())

    fun byTag(tag: String) {
        session.execute("SELECT video_id FROM videos WHERE tags CONTAINS '$tag'")
        session.execute("SELECT video_id FROM \${table(tag)} WHERE tags CONTAINS ?", tag)
        session.execute("SELECT video_id FROM videos WHERE note = 'costs \\$5'")
        session.execute(String.format("SELECT * FROM %s", VIDEOS))
    }
}
`;

const REPOSITORY = `package com.example.video

import org.springframework.data.cassandra.repository.CassandraRepository
import org.springframework.data.cassandra.repository.Query
import java.util.UUID

interface VideoRepository : CassandraRepository<Video, UUID> {
    @Query("SELECT * FROM videos_by_user WHERE user_id = ?0")
    fun byUser(user: UUID): List<Video>

    @Query(value = "SELECT * FROM videos WHERE video_id IN ?0", allowFiltering = false)
    fun byIds(ids: List<UUID>): List<Video>
}
`;

const APP = { [`${DIR}/Queries.kt`]: QUERIES, [`${DIR}/VideoDao.kt`]: DAO, [`${DIR}/VideoRepository.kt`]: REPOSITORY };

describe("Kotlin", () => {
  it("reads driver calls with constants of objects and companions, raw strings, and Spring Data's @Query", async () => {
    const { at, statements } = await read(APP);
    expect(at).toEqual([
      "Queries.kt:6 session.prepare SELECT video_id, title FROM videos_by_user WHERE user_id = ?",
      "VideoDao.kt:11 SimpleStatement.newInstance INSERT INTO videos (video_id, title) VALUES (?, ?)",
      "VideoDao.kt:15 SimpleStatement.builder SELECT video_id FROM videos WHERE title = ?",
      "VideoDao.kt:33 session.execute SELECT video_id FROM videos WHERE note = 'costs $5'",
      "VideoRepository.kt:8 @Query SELECT * FROM videos_by_user WHERE user_id = ?",
      "VideoRepository.kt:11 @Query SELECT * FROM videos WHERE video_id IN ?",
    ]);
    expect(statements.map((s) => s.id.split("#")[1])).toEqual([
      "VideoDao.byUser",
      "VideoDao.add",
      "VideoDao.byTitle",
      "VideoDao.byTag~3",
      "VideoRepository.byUser",
      "VideoRepository.byIds",
    ]);
  });

  it("lists string templates and formatting as dynamic, and leaves log messages alone", async () => {
    const { dynamicAt } = await read(APP);
    expect(dynamicAt).toEqual([
      "VideoDao.kt:31 a string template fills values in at run time",
      "VideoDao.kt:32 a string template fills values in at run time",
      "VideoDao.kt:34 formatted with String.format",
    ]);
  });

  it("plans Kotlin statements with findings on the Kotlin line", async () => {
    const schema = `CREATE TABLE videos (video_id uuid PRIMARY KEY, title text, note text, tags set<text>);
CREATE TABLE videos_by_user (user_id uuid, video_id uuid, title text, PRIMARY KEY (user_id, video_id));
`;
    const result = await reviewWithCode({ "schema/videos.cql": schema, ...APP, "access-patterns.yaml": "version: 1\nkeyspace: shop\n" });
    expect(findingsAt(result, "query-needs-allow-filtering")).toEqual([`query-needs-allow-filtering ${DIR}/VideoDao.kt:15`, `query-needs-allow-filtering ${DIR}/VideoDao.kt:33`]);
  });
});

describe("Kotlin Spring Data entities and derived queries", () => {
  const ENTITY = `package com.example.video

import org.springframework.data.cassandra.core.cql.Ordering
import org.springframework.data.cassandra.core.cql.PrimaryKeyType
import org.springframework.data.cassandra.core.mapping.*
import java.time.Instant
import java.util.UUID

@Table(value = Tables.BY_USER, keyspace = "shop")
data class VideoByUser(
    @PrimaryKey val key: VideoKey,
    @Column("title") val title: String,
    val tags: Set<String> = emptySet(),
    @Transient val display: String = "",
    note: String = "",
) {
    var views: Long = 0
    val label: String get() = title.uppercase()
    companion object {
        const val KIND = "video"
    }
}

@PrimaryKeyClass
data class VideoKey(
    @PrimaryKeyColumn(name = "user_id", type = PrimaryKeyType.PARTITIONED, ordinal = 0) val userId: UUID,
    @PrimaryKeyColumn(name = "added_date", type = PrimaryKeyType.CLUSTERED, ordinal = 1, ordering = Ordering.DESCENDING) val addedDate: Instant,
)

object Tables {
    const val BY_USER = "videos_by_user"
}
`;
  const REPOSITORY = `package com.example.video

import org.springframework.data.cassandra.repository.AllowFiltering
import org.springframework.data.cassandra.repository.CassandraRepository
import java.time.Instant
import java.util.UUID

interface VideoByUserRepository : CassandraRepository<VideoByUser, VideoKey> {
    fun findTop10ByKeyUserIdAndKeyAddedDateAfterOrderByKeyAddedDateDesc(user: UUID, after: Instant): List<VideoByUser>

    @AllowFiltering
    fun findByTitle(title: String): List<VideoByUser>

    fun findByTitleOrTags(title: String, tag: String): List<VideoByUser>

    fun findByTagsContaining(tag: String): List<VideoByUser>

    fun findByTitleContaining(part: String): List<VideoByUser>

    fun countByKeyUserId(user: UUID): Long = 0
}
`;
  const FILES = { [`${DIR}/VideoByUser.kt`]: ENTITY, [`${DIR}/VideoByUserRepository.kt`]: REPOSITORY };

  it("reads a data class's table, its key class and its columns from constructor and body properties", async () => {
    const { tables } = await read(FILES);
    expect(tables.map((t) => ({ keyspace: t.keyspace, name: t.name, partitionKey: t.partitionKey, clustering: t.clustering, columns: t.columns.map((c) => c.name) }))).toEqual([
      {
        keyspace: "shop",
        name: "videos_by_user",
        partitionKey: ["user_id"],
        clustering: [{ name: "added_date", order: "desc" }],
        columns: ["user_id", "added_date", "title", "tags", "views"],
      },
    ]);
    expect(tables[0]!.range.start.line).toBe(10);
  });

  it("turns a repository's derived methods into SELECTs on the method's line", async () => {
    const { at } = await read(FILES);
    expect(at).toEqual([
      "VideoByUserRepository.kt:9 Spring Data derived query SELECT * FROM shop.videos_by_user WHERE user_id = ? AND added_date > ? ORDER BY added_date DESC LIMIT 10",
      "VideoByUserRepository.kt:12 Spring Data derived query SELECT * FROM shop.videos_by_user WHERE title = ? ALLOW FILTERING",
      // Containing: CONTAINS on the Set, LIKE on the String
      "VideoByUserRepository.kt:16 Spring Data derived query SELECT * FROM shop.videos_by_user WHERE tags CONTAINS ?",
      "VideoByUserRepository.kt:18 Spring Data derived query SELECT * FROM shop.videos_by_user WHERE title LIKE ?",
    ]);
  });

  it("compares a Kotlin entity with the .cql table", async () => {
    const schema = `CREATE TABLE shop.videos_by_user (user_id uuid, added_date timestamp, title text, tags set<text>,
  PRIMARY KEY ((user_id), added_date)) WITH CLUSTERING ORDER BY (added_date DESC);
`;
    const result = await reviewWithCode({ "schema/videos.cql": schema, ...FILES, "access-patterns.yaml": "version: 1\nkeyspace: shop\n" });
    // `views` has no column in the table
    expect(findingsAt(result, "code-table-mismatch")).toEqual([`code-table-mismatch ${DIR}/VideoByUser.kt:17`]);
  });
});
