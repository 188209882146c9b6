// The statements cqlengine models run, read where the Python code calls them.
import { describe, expect, it } from "vitest";
import { extractFrom } from "./review-with-code.js";

const MODELS = `from cassandra.cqlengine import columns
from cassandra.cqlengine.models import Model


class ReadingByDay(Model):
    __table_name__ = "readings_by_day"
    sensor = columns.Text(partition_key=True)
    day = columns.Date(partition_key=True)
    taken_at = columns.DateTime(primary_key=True, clustering_order="DESC", db_field="at")
    value = columns.Double()


class SensorStats(Model):
    __table_name__ = "sensor_stats"
    sensor = columns.Text(primary_key=True)
    readings = columns.Counter()


class Sensor(Model):
    sensor = columns.Text(primary_key=True)
    site = columns.Text()
`;

const SERVICE = `from cassandra.cqlengine.query import BatchQuery
from .models import ReadingByDay, SensorStats, Sensor


def record(sensor, day, at, value):
    b = BatchQuery()
    ReadingByDay.batch(b).create(sensor=sensor, day=day, taken_at=at, value=value)
    SensorStats(sensor=sensor).update(readings=1).batch(b)
    b.execute()


def latest(sensor, day, n):
    return ReadingByDay.objects.filter(sensor=sensor, day=day).limit(n)


def since(sensor, day, start):
    return list(ReadingByDay.objects(sensor=sensor, day=day, taken_at__gte=start))


def one(sensor):
    return Sensor.get(sensor=sensor)


def register(sensor, site):
    Sensor.if_not_exists().create(sensor=sensor, site=site)


def by_site(site):
    return Sensor.objects.filter(site=site).allow_filtering().count()


def several(sensors):
    return Sensor.filter(sensor__in=sensors).all()


def forget(sensor, day):
    ReadingByDay.objects(sensor=sensor, day=day).delete()


def anything(**criteria):
    return Sensor.objects.filter(**criteria).all()


def unknown(sensor):
    return Sensor.objects.filter(colour=sensor).all()


def pending(sensor):
    query = Sensor.objects.filter(sensor=sensor)
    return query
`;

describe("cqlengine queries", () => {
  it("writes the statement each model call runs, at the call, with db_field names and counters", async () => {
    const result = await extractFrom({ "app/models.py": MODELS, "app/service.py": SERVICE });
    expect(result.statements.filter((s) => s.api === "cqlengine").map((s) => [s.range.start.line, s.cql])).toEqual([
      [7, "INSERT INTO readings_by_day (sensor, day, at, value) VALUES (?, ?, ?, ?)"],
      [8, "UPDATE sensor_stats SET readings = readings + ? WHERE sensor = ?"],
      [13, "SELECT * FROM readings_by_day WHERE sensor = ? AND day = ? LIMIT ?"],
      [17, "SELECT * FROM readings_by_day WHERE sensor = ? AND day = ? AND at >= ?"],
      [21, "SELECT * FROM sensor WHERE sensor = ?"],
      [25, "INSERT INTO sensor (sensor, site) VALUES (?, ?) IF NOT EXISTS"],
      [29, "SELECT COUNT(*) FROM sensor WHERE site = ? ALLOW FILTERING"],
      [33, "SELECT * FROM sensor WHERE sensor IN ?"],
      [37, "DELETE FROM readings_by_day WHERE sensor = ? AND day = ?"],
    ]);
  });
});
