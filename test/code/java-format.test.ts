// Java statements made by String.format or String.formatted from constants: read like Go's
// fmt.Sprintf templates, written where the template is; anything else stays dynamic.
import { describe, expect, it } from "vitest";
import { extractFrom } from "./review-with-code.js";

const SOURCE = `package audit;

import com.datastax.oss.driver.api.core.CqlSession;
import java.util.concurrent.TimeUnit;

public class AuditTables {
    static final String EVENTS_TABLE = "audit_events";
    static final int ONE_DAY = 86400;
    private final CqlSession session;

    AuditTables(CqlSession session) { this.session = session; }

    void tune(String table) {
        session.execute(String.format("ALTER TABLE %s WITH default_time_to_live = %d", EVENTS_TABLE, ONE_DAY));
        session.execute(("DELETE FROM %s WHERE day = ?").formatted(EVENTS_TABLE));
        session.execute(String.format("SELECT * FROM %s WHERE day = ?", table));
        session.execute(String.format("ALTER TABLE %s WITH gc_grace_seconds = %d", EVENTS_TABLE, TimeUnit.DAYS.toSeconds(1)));
        session.execute(String.format("TRUNCATE %s", EVENTS_TABLE, "extra"));
    }
}
`;

describe("Java String.format and formatted with constant arguments", () => {
  it("fills %s and %d with constants, and leaves parameters, calls and extra arguments dynamic", async () => {
    const result = await extractFrom({ "src/main/java/audit/AuditTables.java": SOURCE });
    expect(result.statements.map((s) => [s.range.start.line, s.cql])).toEqual([
      [14, "ALTER TABLE audit_events WITH default_time_to_live = 86400"],
      [15, "DELETE FROM audit_events WHERE day = ?"],
    ]);
    expect(result.dynamic.map((d) => [d.range.start.line, d.reason])).toEqual([
      [16, "formatted with String.format"],
      [17, "formatted with String.format"],
      [18, "formatted with String.format"],
    ]);
  });
});
