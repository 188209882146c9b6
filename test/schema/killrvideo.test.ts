// A realistic multi-file schema (KillrVideo-style, written for these tests) builds cleanly.
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { findTable, formatColumnType } from "../../src/schema/resolve.js";
import { build, columnNames, table } from "./helpers.js";

const directory = join(dirname(fileURLToPath(import.meta.url)), "fixtures", "killrvideo");
const files = Object.fromEntries(
  readdirSync(directory)
    .filter((f) => f.endsWith(".cql"))
    .map((f) => [`schema/${f}`, readFileSync(join(directory, f), "utf8")]),
);

describe("a KillrVideo-like schema", () => {
  const { schema, findings } = build(files);

  it("builds with zero findings", () => {
    expect(findings).toEqual([]);
  });

  it("holds every table, view, type and index", () => {
    expect([...schema.tables.keys()].sort()).toEqual(
      [
        "comments_by_user", "comments_by_video", "latest_videos", "tags_by_letter", "user_credentials", "user_videos", "users",
        "video_playback_events", "video_ratings", "video_ratings_by_user", "video_recommendations", "videos", "videos_by_location",
        "videos_by_tag",
      ].map((t) => `killrvideo.${t}`),
    );
    expect([...schema.types.keys()].sort()).toEqual(["killrvideo.geo_point", "killrvideo.video_encoding"]);
    const indexes = [...schema.tables.values()].flatMap((t) => t.indexes.map((i) => `${i.table}.${i.name}:${i.implementation}:${i.target}`));
    expect(indexes.sort()).toEqual([
      "users.users_email_idx:sai:simple",
      "video_ratings_by_user.video_ratings_by_user_rating_idx:sai:simple",
      "video_recommendations.recommendations_embedding_idx:sai:simple",
      "videos.videos_name_idx:sai:simple",
      "videos.videos_tags_idx:sai:values",
    ]);
    expect(schema.keyspaces.get("killrvideo")?.replicationFactors).toEqual({ "us-east": 3, "eu-west": 3 });
  });

  it("applies the migrations file after the tables", () => {
    const videos = table(schema, "killrvideo.videos");
    expect(columnNames(videos.regular).slice(-2)).toEqual(["language", "duration_s"]);
    expect(videos.views).toEqual(["killrvideo.videos_by_location"]);
    expect(table(schema, "killrvideo.users").options.comment).toBe("profiles");
    const encoding = videos.columns.find((c) => c.name === "encoding")?.type;
    expect(encoding?.kind === "udt" && encoding.fields.map((f) => f.name)).toEqual(["encoding", "height", "width", "bit_rates", "codec"]);
  });

  it("resolves the shapes the planner and estimator rely on", () => {
    const playback = table(schema, "killrvideo.video_playback_events");
    expect(columnNames(playback.partitionKey)).toEqual(["videoid", "day"]);
    expect(playback.clustering.map((c) => `${c.name} ${c.order}`)).toEqual(["event_time desc"]);
    expect(columnNames(playback.static)).toEqual(["video_title"]);
    expect(playback.defaultTtlSeconds).toBe(2592000);
    expect(table(schema, "killrvideo.latest_videos").compaction?.className).toBe("TimeWindowCompactionStrategy");
    const recommendations = table(schema, "killrvideo.video_recommendations");
    expect(formatColumnType(recommendations.columns.find((c) => c.name === "embedding")!.type)).toBe("vector<float, 16>");
    expect(findTable(schema, "user_videos")?.clustering.map((c) => c.order)).toEqual(["desc", "asc"]);
    expect(schema.dml.map((d) => [d.statement.kind, d.keyspace])).toEqual([
      ["insert", "killrvideo"],
      ["insert", "killrvideo"],
      ["update", "killrvideo"],
    ]);
  });
});
