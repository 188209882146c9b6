// Spring Data's derived query methods: in a repository interface over a Cassandra entity
// (`interface VideoRepository extends CassandraRepository<Video, UUID>`), a method named
// `findByUserIdAndAddedDateAfter` runs a SELECT on the entity's table by those columns. The name
// is read with Spring Data's documented keywords; a name with a keyword Cassandra cannot run
// (`Or`, `Not`, `IgnoreCase`, …) or a property the entity does not map gives no statement,
// since the framework itself would reject it or run something else.
import type { Node } from "web-tree-sitter";
import type { CodeTable } from "./types.js";

const field = (node: Node, name: string) => node.childForFieldName(name) ?? undefined;

/** Marks the keywords whose operator depends on the property's type. */
const CONTAINING = (c: string) => `${c} CONTAINS ?`;

/** Spring Data's condition keywords that CQL can express, longest first so `GreaterThanEqual` wins over `GreaterThan`. */
const CONDITIONS: [string, (column: string) => string][] = [
  // Spring Data Cassandra writes a Between of two values as an open range (CassandraQueryCreator).
  ["IsBetween", (c) => `${c} > ? AND ${c} < ?`],
  ["Between", (c) => `${c} > ? AND ${c} < ?`],
  // Like, StartingWith and EndingWith bind the pattern with its `%`: one LIKE (a SASI or SAI index serves it).
  ["IsStartingWith", (c) => `${c} LIKE ?`],
  ["StartingWith", (c) => `${c} LIKE ?`],
  ["StartsWith", (c) => `${c} LIKE ?`],
  ["IsEndingWith", (c) => `${c} LIKE ?`],
  ["EndingWith", (c) => `${c} LIKE ?`],
  ["EndsWith", (c) => `${c} LIKE ?`],
  ["IsLike", (c) => `${c} LIKE ?`],
  ["Like", (c) => `${c} LIKE ?`],
  ["IsGreaterThanEqual", (c) => `${c} >= ?`],
  ["GreaterThanEqual", (c) => `${c} >= ?`],
  ["IsLessThanEqual", (c) => `${c} <= ?`],
  ["LessThanEqual", (c) => `${c} <= ?`],
  ["IsGreaterThan", (c) => `${c} > ?`],
  ["GreaterThan", (c) => `${c} > ?`],
  ["IsLessThan", (c) => `${c} < ?`],
  ["LessThan", (c) => `${c} < ?`],
  // Containing is CONTAINS on a collection or map property and LIKE '%x%' on any other
  // (CassandraQueryCreator.containing): the column decides, see conditionFor.
  ["IsContaining", CONTAINING],
  ["Containing", CONTAINING],
  ["Contains", CONTAINING],
  ["IsBefore", (c) => `${c} < ?`],
  ["IsAfter", (c) => `${c} > ?`],
  ["Before", (c) => `${c} < ?`],
  ["After", (c) => `${c} > ?`],
  ["Equals", (c) => `${c} = ?`],
  ["IsTrue", (c) => `${c} = true`],
  ["IsFalse", (c) => `${c} = false`],
  ["True", (c) => `${c} = true`],
  ["False", (c) => `${c} = false`],
  ["IsIn", (c) => `${c} IN ?`],
  ["In", (c) => `${c} IN ?`],
  ["Is", (c) => `${c} = ?`],
];

/** Keywords that need an operator Cassandra lacks or a server-side option the name cannot show. */
const UNSUPPORTED = /(?:Not|NotIn|NotLike|IgnoreCase|Null|Exists|Regex|Near|Within|Empty)$/;

const VERBS = ["find", "read", "get", "query", "search", "stream", "count", "exists"];

/** The subject (`Top10`, `Distinct`, …) and the criteria of a method name: split at the first `By` after the verb. */
function splitSubject(method: string): { head: string; rest: string } | undefined {
  const verb = VERBS.find((v) => method.startsWith(v));
  if (!verb) return undefined;
  const at = method.indexOf("By", verb.length);
  // `findAll()` declared in a repository (`Stream<Person> findAll()`): every row, as Spring Data reads a name without `By`.
  if (at < 0) return method.slice(verb.length) === "All" ? { head: "All", rest: "" } : undefined;
  // `findAllProjectedBy()` has no criteria: it reads every row.
  return { head: method.slice(verb.length, at), rest: method.slice(at + 2) };
}

/** `AddedDateDescVideoId` → `AddedDateDesc`, `VideoId`: a term ends at `Asc` or `Desc` before a new word or the end. */
function orderTerms(order: string): string[] {
  const terms: string[] = [];
  let start = 0;
  for (let i = 1; i <= order.length; i++) {
    const boundary = i === order.length || (order[i]! >= "A" && order[i]! <= "Z");
    if (!boundary) continue;
    const sofar = order.slice(start, i);
    if (i === order.length || sofar.endsWith("Asc") || sofar.endsWith("Desc")) {
      terms.push(sofar);
      start = i;
    }
  }
  return terms;
}
const REPOSITORY = /Repository$/;

const directoryOf = (path: string) => path.slice(0, path.lastIndexOf("/") + 1);

/** Splits on a keyword that starts a new word: `UserIdAndAddedDate` → `UserId`, `AddedDate`. */
function splitOn(text: string, keyword: string): string[] {
  return text.split(new RegExp(`${keyword}(?=[A-Z])`));
}

type Column = CodeTable["columns"][number];

function columnOf(table: CodeTable, property: string): Column | undefined {
  const wanted = property.toLowerCase();
  const matches = table.columns.filter((c) => c.property.replace(/\./g, "").toLowerCase() === wanted || c.property.split(".").pop()!.toLowerCase() === wanted);
  return matches.length === 1 ? matches[0] : undefined;
}

/** The condition a keyword writes on a column: `Containing` on text is a LIKE, which needs a SASI or SAI index. */
function conditionFor(write: (column: string) => string, column: Column): string {
  if (write === CONTAINING && !column.collection) return `${column.name} LIKE ?`;
  return write(column.name);
}

/** The CQL a method name stands for, or undefined when the name is not one Cassandra can run as written. */
export function derivedQuery(method: string, table: CodeTable, allowFiltering: boolean): string | undefined {
  const subject = splitSubject(method);
  if (!subject) return undefined;
  const { head, rest } = subject;
  const [criteria = "", order] = rest.split(/OrderBy(?=[A-Z])/);
  if (splitOn(criteria, "Or").length > 1) return undefined;
  const conditions: string[] = [];
  for (const part of criteria === "" ? [] : splitOn(criteria, "And")) {
    if (UNSUPPORTED.test(part)) return undefined;
    const keyword = CONDITIONS.find(([word]) => part.endsWith(word) && part.length > word.length);
    const withKeyword = keyword ? columnOf(table, part.slice(0, -keyword[0].length)) : undefined;
    // A property whose name ends like a keyword (`loggedIn`) is the property, as Spring Data reads it.
    const plain = withKeyword ? undefined : columnOf(table, part);
    if (withKeyword) conditions.push(conditionFor(keyword![1], withKeyword));
    else if (plain) conditions.push(`${plain.name} = ?`);
    else return undefined;
  }
  const ordering: string[] = [];
  if (order !== undefined) {
    if (order === "") return undefined;
    for (const term of orderTerms(order)) {
      const direction = term.endsWith("Desc") ? "DESC" : "ASC";
      const column = columnOf(table, term.replace(/(?:Asc|Desc)$/, ""));
      if (!column) return undefined;
      ordering.push(`${column.name} ${direction}`);
    }
  }
  const limit = /(?:First|Top)(\d*)/.exec(head);
  const count = method.startsWith("count");
  // `existsBy…` reads at most one row.
  const exists = method.startsWith("exists");
  const from = table.keyspace ? `${table.keyspace}.${table.name}` : table.name;
  return [
    `SELECT ${count ? "COUNT(*)" : "*"} FROM ${from}`,
    conditions.length > 0 ? ` WHERE ${conditions.join(" AND ")}` : "",
    ordering.length > 0 ? ` ORDER BY ${ordering.join(", ")}` : "",
    exists ? " LIMIT 1" : limit && !count ? ` LIMIT ${limit[1] || "1"}` : "",
    allowFiltering ? " ALLOW FILTERING" : "",
  ].join("");
}

/** The derived query methods of the repository interfaces in one Java file's tree. */
export function derivedQueries(path: string, root: Node, tables: CodeTable[]): { node: Node; cql: string }[] {
  const springTables = new Map<string, CodeTable[]>();
  for (const table of tables) if (table.framework === "spring-data") springTables.set(table.entity, [...(springTables.get(table.entity) ?? []), table]);
  const found: { node: Node; cql: string }[] = [];
  for (const repository of root.descendantsOfType("interface_declaration")) {
    if (!repository) continue;
    const extended = repository.namedChildren.find((c) => c?.type === "extends_interfaces");
    const generic = extended?.descendantsOfType("generic_type").find((g) => g && REPOSITORY.test(g.namedChildren[0]?.text ?? ""));
    const entityName = generic?.namedChildren.find((c) => c?.type === "type_arguments")?.namedChildren[0]?.text.split(".").pop();
    const candidates = entityName ? springTables.get(entityName) : undefined;
    // Entities of the same simple name in several packages: the one of the repository's package.
    const near = candidates && candidates.length > 1 ? candidates.filter((t) => directoryOf(t.file) === directoryOf(path)) : candidates;
    if (!near || near.length !== 1) continue;
    const table = near[0]!;
    for (const member of field(repository, "body")?.namedChildren ?? []) {
      if (!member || member.type !== "method_declaration" || field(member, "body")) continue;
      const annotations = (member.namedChildren.find((c) => c?.type === "modifiers")?.namedChildren ?? [])
        .filter((c): c is Node => c !== null && (c.type === "annotation" || c.type === "marker_annotation"))
        .map((a) => field(a, "name")?.text.split(".").pop());
      // A method with its own statement is read from its @Query.
      if (annotations.includes("Query")) continue;
      const name = field(member, "name");
      const cql = name && derivedQuery(name.text, table, annotations.includes("AllowFiltering"));
      if (name && cql) found.push({ node: name, cql });
    }
  }
  return found;
}
