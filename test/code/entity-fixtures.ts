// Small applications whose tables are defined by entity classes: Spring Data Cassandra with a
// key class in its own file, the DataStax Java driver 4 mapper with its default snake_case
// naming, and the driver 3 mapper. Shared by the entity reader's tests and the rule's.
export const SPRING_SCHEMA = `CREATE TABLE shop.videos_by_user (
  user_id uuid,
  added_date timestamp,
  video_id uuid,
  title text,
  PRIMARY KEY ((user_id), added_date, video_id)
) WITH CLUSTERING ORDER BY (added_date DESC, video_id ASC);
`;

export const SPRING_TABLES = `package com.example.video;

public final class Tables {
    public static final String KEYSPACE = "shop";
    public static final String VIDEOS_BY_USER = "videos_" + "by_user";
}
`;

export const SPRING_KEY = `package com.example.video;

import java.io.Serializable;
import java.time.Instant;
import java.util.UUID;
import org.springframework.data.cassandra.core.cql.Ordering;
import org.springframework.data.cassandra.core.cql.PrimaryKeyType;
import org.springframework.data.cassandra.core.mapping.PrimaryKeyClass;
import org.springframework.data.cassandra.core.mapping.PrimaryKeyColumn;

@PrimaryKeyClass
public class VideoByUserKey implements Serializable {

    @PrimaryKeyColumn(name = "user_id", ordinal = 0, type = PrimaryKeyType.PARTITIONED)
    private UUID userId;

    @PrimaryKeyColumn(
        name = "added_date",
        ordinal = 1,
        type = PrimaryKeyType.CLUSTERED,
        ordering = Ordering.DESCENDING)
    private Instant addedDate;

    @PrimaryKeyColumn(name = "video_id", ordinal = 2, type = PrimaryKeyType.CLUSTERED)
    private UUID videoId;
}
`;

export const SPRING_ENTITY = `package com.example.video;

import org.springframework.data.annotation.Transient;
import org.springframework.data.cassandra.core.mapping.Column;
import org.springframework.data.cassandra.core.mapping.PrimaryKey;
import org.springframework.data.cassandra.core.mapping.Table;

@Table(value = Tables.VIDEOS_BY_USER, keyspace = Tables.KEYSPACE)
public class VideoByUser {
    private static final long serialVersionUID = 1L;

    @PrimaryKey
    private VideoByUserKey key;

    @Column("title")
    private String title;

    @Transient
    private String displayTitle;
}
`;

export const MAPPER_SCHEMA = `CREATE TABLE shop.user_credentials (
  email text PRIMARY KEY,
  user_id uuid,
  password_hash text
);
`;

export const MAPPER_ENTITY = `package com.example.users;

import com.datastax.oss.driver.api.mapper.annotations.CqlName;
import com.datastax.oss.driver.api.mapper.annotations.Entity;
import com.datastax.oss.driver.api.mapper.annotations.PartitionKey;
import java.util.UUID;

@Entity(defaultKeyspace = "shop")
public class UserCredentials {
    @PartitionKey
    private String email;

    private UUID userId;

    @CqlName("password_hash")
    private String password;

    private transient String plainPassword;

    public String getEmail() { return email; }
    public void setEmail(String email) { this.email = email; }
}
`;

export const MAPPER3_ENTITY = `package com.example.legacy;

import com.datastax.driver.mapping.annotations.ClusteringColumn;
import com.datastax.driver.mapping.annotations.Column;
import com.datastax.driver.mapping.annotations.PartitionKey;
import com.datastax.driver.mapping.annotations.Table;

@Table(keyspace = "shop", name = "comments_by_video")
public class Comment {
    @PartitionKey(0)
    @Column(name = "video_id")
    private java.util.UUID videoId;

    @ClusteringColumn(0)
    @Column(name = "comment_id")
    private java.util.UUID commentId;

    private String comment;
}
`;

export const SPRING_REPOSITORY = `package com.example.video;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.springframework.data.cassandra.repository.AllowFiltering;
import org.springframework.data.cassandra.repository.CassandraRepository;
import org.springframework.data.cassandra.repository.Query;

public interface VideoByUserRepository extends CassandraRepository<VideoByUser, VideoByUserKey> {

    List<VideoByUser> findByKeyUserId(UUID userId);

    List<VideoByUser> findTop10ByKeyUserIdAndKeyAddedDateAfterOrderByKeyAddedDateDesc(UUID userId, Instant since);

    @AllowFiltering
    List<VideoByUser> findByTitle(String title);

    @Query("SELECT * FROM videos_by_user WHERE user_id = ?0 LIMIT 1")
    VideoByUser latestOf(UUID userId);

    List<VideoByUser> findByTitleOrKeyUserId(String title, UUID userId);

    default List<VideoByUser> recent(UUID userId) { return findByKeyUserId(userId); }
}
`;

export const CQLENGINE_BASE = `from cassandra.cqlengine import columns
from cassandra.cqlengine.models import Model

KEYSPACE = "shop"


class Audited(Model):
    __abstract__ = True
    created_at = columns.DateTime()
`;

export const CQLENGINE_MODELS = `from cassandra.cqlengine import columns

from app.base import Audited, KEYSPACE


class VideoByUser(Audited):
    __keyspace__ = KEYSPACE
    __table_name__ = "videos_by_user"

    user_id = columns.UUID(partition_key=True)
    added_date = columns.DateTime(primary_key=True, clustering_order="DESC")
    video_id = columns.UUID(primary_key=True)
    name = columns.Text(db_field="title")


class CommentsByVideo(Audited):
    video_id = columns.UUID(primary_key=True)
    comment_id = columns.TimeUUID(primary_key=True)
    comment = columns.Text()


class NotAModel:
    title = "not a column"
`;
