// Tables defined by Python cqlengine models (the cassandra-driver's object mapper): a class
// deriving from `Model` whose class attributes are `columns.Text(…)`, with `partition_key=True`,
// `primary_key=True`, `clustering_order="DESC"`, `db_field="…"`, and `__table_name__` /
// `__keyspace__`. The table's default name is cqlengine's: the class name with `_` between a
// lower-case and an upper-case letter, lower-cased (`VideoByUser` → `video_by_user`).
import type { Node } from "web-tree-sitter";
import type { EntitySource } from "./entities.js";
import type { CodeTable } from "./types.js";

const field = (node: Node, name: string) => node.childForFieldName(name) ?? undefined;

/** cqlengine's column types, for `from cassandra.cqlengine.columns import Text` style imports. */
const COLUMN_TYPES = new Set([
  "Ascii", "BigInt", "Blob", "Bytes", "Boolean", "Counter", "Date", "DateTime", "Decimal", "Double", "Duration", "Float",
  "Inet", "Integer", "List", "Map", "Set", "SmallInt", "Text", "Time", "TimeUUID", "TinyInt", "Tuple", "UUID",
  "UserDefinedType", "VarInt",
]);

interface ModelClass {
  source: EntitySource;
  node: Node;
  name: string;
  bases: string[];
  /** assignments of the class body, by name, in order */
  attributes: { name: string; node: Node; value: Node }[];
}

function classesOf(source: EntitySource): ModelClass[] {
  return source.root.descendantsOfType("class_definition").flatMap((node) => {
    const name = node && field(node, "name")?.text;
    if (!node || !name) return [];
    const bases = (field(node, "superclasses")?.namedChildren ?? []).flatMap((b) => (b && b.type !== "keyword_argument" ? [b.text.split(".").pop()!] : []));
    const attributes: ModelClass["attributes"] = [];
    for (const statement of field(node, "body")?.namedChildren ?? []) {
      const assignment = statement?.type === "expression_statement" ? statement.namedChildren[0] : undefined;
      if (assignment?.type !== "assignment") continue;
      const left = field(assignment, "left");
      const right = field(assignment, "right");
      if (left?.type === "identifier" && right) attributes.push({ name: left.text, node: left, value: right });
    }
    return [{ source, node, name, bases, attributes }];
  });
}

function keywordArguments(call: Node): Map<string, Node> {
  const named = new Map<string, Node>();
  for (const argument of field(call, "arguments")?.namedChildren ?? []) {
    if (argument?.type !== "keyword_argument") continue;
    const key = field(argument, "name")?.text;
    const value = field(argument, "value");
    if (key && value) named.set(key, value);
  }
  return named;
}

function isColumn(value: Node): boolean {
  if (value.type !== "call") return false;
  const callee = field(value, "function");
  if (callee?.type === "attribute") return field(callee, "object")?.text.split(".").pop() === "columns" && COLUMN_TYPES.has(field(callee, "attribute")?.text ?? "");
  return callee?.type === "identifier" && COLUMN_TYPES.has(callee.text);
}

/** `columns.Counter()`: updated by adding to it. */
function isCounter(value: Node): boolean {
  const callee = field(value, "function");
  return (callee?.type === "attribute" ? field(callee, "attribute")?.text : callee?.text) === "Counter";
}

/** cqlengine's name for a model without `__table_name__`. */
export function cqlengineTableName(className: string): string {
  return className
    .replace(/([a-z])([A-Z])/g, (_, lower: string, upper: string) => `${lower}_${upper.toLowerCase()}`)
    .slice(-48)
    .toLowerCase()
    .replace(/^_+/, "");
}

const truthy = (node: Node | undefined) => node?.text === "True";

export function cqlengineTables(sources: EntitySource[]): CodeTable[] {
  const models = sources.filter((s) => s.imports.some((text) => text.includes("cqlengine")));
  const classes = new Map<string, ModelClass[]>();
  for (const source of sources) for (const c of classesOf(source)) classes.set(c.name, [...(classes.get(c.name) ?? []), c]);
  const tables: CodeTable[] = [];
  for (const source of models) {
    for (const model of classesOf(source)) {
      const table = readModel(model, (name) => {
        const found = classes.get(name);
        return found?.length === 1 ? found[0] : undefined;
      });
      if (table) tables.push(table);
    }
  }
  return tables;
}

function readModel(model: ModelClass, classNamed: (name: string) => ModelClass | undefined): CodeTable | undefined {
  const attribute = (c: ModelClass, name: string) => c.attributes.find((a) => a.name === name)?.value;
  if (truthy(attribute(model, "__abstract__"))) return undefined;
  // The model and its abstract bases, furthest first; a base that is a concrete model makes a
  // polymorphic or derived table, which is left alone.
  const chain: ModelClass[] = [model];
  let complete = true;
  for (let current = model, depth = 0; depth < 16; depth++) {
    const bases = current.bases.filter((b) => b !== "object");
    if (bases.length === 1 && bases[0] === "Model") break;
    if (bases.length !== 1) return undefined;
    const base = classNamed(bases[0]!);
    if (!base) {
      complete = false;
      break;
    }
    if (!truthy(attribute(base, "__abstract__"))) return undefined;
    chain.unshift(base);
    current = base;
  }
  if (complete && !chain[0]!.bases.includes("Model")) return undefined;
  if (!complete && !model.attributes.some((a) => isColumn(a.value))) return undefined;

  const text = (node: Node | undefined) => (node ? model.source.text(node) : undefined);
  const written = text(attribute(model, "__table_name__"));
  const caseSensitive = truthy(attribute(model, "__table_name_case_sensitive__"));
  const name = written !== undefined ? (caseSensitive ? written : written.toLowerCase()) : cqlengineTableName(model.name);
  const keyspace = text(attribute(model, "__keyspace__"));

  const columns: CodeTable["columns"] = [];
  const partition: string[] = [];
  const primary: { name: string; order?: "asc" | "desc" }[] = [];
  for (const owner of chain) {
    for (const { name: property, node, value } of owner.attributes) {
      if (!isColumn(value)) continue;
      const named = keywordArguments(value);
      const dbField = named.get("db_field");
      const columnName = dbField ? owner.source.text(dbField) : property;
      if (columnName === undefined) return undefined;
      if (columns.some((c) => c.name === columnName)) continue;
      columns.push({ name: columnName, property, range: owner.source.range(node), ...(isCounter(value) ? { counter: true as const } : {}) });
      if (truthy(named.get("partition_key"))) partition.push(columnName);
      else if (truthy(named.get("primary_key"))) {
        const order = named.get("clustering_order") && owner.source.text(named.get("clustering_order")!);
        primary.push({ name: columnName, ...(order ? { order: order.toLowerCase() === "desc" ? ("desc" as const) : ("asc" as const) } : {}) });
      }
    }
  }
  // Without partition_key, cqlengine takes the first primary key column as the partition key.
  if (partition.length === 0 && primary.length > 0) partition.push(primary.shift()!.name);
  const keysKnown = complete && partition.length > 0;
  return {
    framework: "cqlengine",
    entity: model.name,
    ...(keyspace ? { keyspace } : {}),
    name,
    file: model.source.path,
    range: model.source.range(field(model.node, "name") ?? model.node),
    ...(keysKnown ? { partitionKey: partition, clustering: primary } : {}),
    columns,
    keyOrderKnown: { partition: true, clustering: true },
  };
}
