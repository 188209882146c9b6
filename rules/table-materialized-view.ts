// Materialized views are experimental: the base table and the view can drift apart with no tool
// to detect or repair it, and since 4.0 a default node refuses to create one.
import { tableEntity, tableLabel, tableLocation } from "../src/rule-engine/helpers.js";
import type { RuleModule } from "../src/rule-engine/types.js";

const tableMaterializedView: RuleModule = {
  meta: {
    id: "table-materialized-view",
    category: "table",
    defaultSeverity: "warning",
    description: "The schema creates a materialized view, an experimental feature disabled by default since Cassandra 4.0.",
    messages: {
      disabled:
        "{view} is a materialized view of {base}. Materialized views are experimental and disabled by default since Cassandra 4.0 (`materialized_views_enabled: false` in cassandra.yaml; `enable_materialized_views` in 4.0): on a default {version} node this CREATE fails. Where enabled, the view is updated asynchronously and can drift from the base table with no tool to detect or repair it. Keep a second table written by the application's write paths instead.",
      experimental:
        "{view} is a materialized view of {base}. Materialized views are experimental since Cassandra 3.0.16/3.11.2: the view is updated asynchronously, can drift from the base table with no tool to detect or repair it, and Cassandra 4.0 disables them by default. Keep a second table written by the application's write paths instead.",
    },
    fixable: false,
  },
  check(context) {
    const { model } = context;
    for (const view of model.schema.tables.values()) {
      if (view.kind !== "view") continue;
      context.report({
        messageId: model.version === "3.11" ? "experimental" : "disabled",
        data: {
          view: tableLabel(model, view.qualifiedName),
          base: view.baseTable ? tableLabel(model, view.baseTable) : "its base table",
          version: model.version,
        },
        ...tableLocation(view),
        entity: tableEntity(view.qualifiedName),
      });
    }
  },
};

export default tableMaterializedView;
