// A small video application in Java (DataStax driver 4) with its schema, shared by the tests of
// the code rules and of the review's integration.
export const SCHEMA = `CREATE TABLE videos_by_user (
  user_id uuid,
  added_date timestamp,
  video_id uuid,
  title text,
  PRIMARY KEY ((user_id), added_date, video_id)
) WITH CLUSTERING ORDER BY (added_date DESC, video_id ASC);

CREATE TABLE videos (
  video_id uuid PRIMARY KEY,
  title text,
  tags set<text>
);
`;

export const QUERIES_JAVA = `package com.example.video;

public final class Queries {
    public static final String VIDEOS_BY_USER = "videos_by_user";
    public static final String FIND_BY_USER =
        "SELECT video_id, title FROM " + VIDEOS_BY_USER + " WHERE user_id = ?";
}
`;

export const DAO_JAVA = `package com.example.video;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;

public class VideoDao {
    private final CqlSession session;

    public VideoDao(CqlSession session) { this.session = session; }

    public void findByUser(java.util.UUID user) {
        session.execute(session.prepare(Queries.FIND_BY_USER).bind(user));
    }

    public void findByTitle(String title) {
        session.execute(SimpleStatement.newInstance("SELECT video_id FROM videos WHERE title = ?", title));
    }

    public void add(java.util.UUID user, java.util.UUID video, String title) {
        session.execute(SimpleStatement.builder("""
            INSERT INTO videos (video_id, title)
            VALUES (?, ?)
            """).addPositionalValues(video, title).build());
    }

    public void byTag(String tag) {
        session.execute("SELECT video_id FROM videos WHERE tags CONTAINS '" + tag + "'");
    }

    public void reset() {
        session.execute("TRUNCATE videos");
    }
}
`;

export const APP = {
  "schema/videos.cql": SCHEMA,
  "src/main/java/com/example/video/Queries.java": QUERIES_JAVA,
  "src/main/java/com/example/video/VideoDao.java": DAO_JAVA,
};

export const DAO = "src/main/java/com/example/video/VideoDao.java";
export const QUERIES = "src/main/java/com/example/video/Queries.java";
