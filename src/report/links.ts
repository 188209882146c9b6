// Where users read about a rule. One constant, so a fork or a mirror changes one line.
export const REPOSITORY_URL = "https://github.com/cql-review/cql-review";

/** `text` with any lone UTF-16 surrogate replaced by U+FFFD, so percent-encoding it cannot throw. */
export function wellFormed(text: string): string {
  return text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, "\uFFFD");
}

/** The rule's documentation page (rules/<id>.md on the default branch). */
export function ruleDocUrl(ruleId: string): string {
  // Rule ids are kebab-case; encoding keeps an odd id (from a bad config) from forging a path or
  // closing a Markdown link, hence the characters encodeURIComponent leaves alone.
  const segment = encodeURIComponent(wellFormed(ruleId)).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${REPOSITORY_URL}/blob/main/rules/${segment}.md`;
}
