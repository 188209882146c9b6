// What GitHub does to rendered text that Markdown escaping cannot stop. After rendering, GitHub
// turns `@name` and `@org/team` into mentions (which notify), `#12`, `owner/repo#12` and `GH-12`
// into issue references, and hex strings into commit links; GFM's autolink extension links
// `https://…`, `www.…` and e-mail addresses. A backslash escape does not help: the text node is
// the same after rendering. So repository text shown as prose gets a zero-width space inside each
// trigger, which breaks the pattern and leaves the text looking the same. Code spans and code
// blocks need none of this: GitHub leaves their content alone.

/** U+200B ZERO WIDTH SPACE: invisible, and neither a word character nor a name character. */
export const LINK_BREAK = "\u200B";

/**
 * One pass over the text, linear time (every alternative is a single character, a fixed word, or a
 * bounded hex run whose lookaheads run only at a word start):
 * - every `@`: mentions, team mentions, e-mail addresses (whose parts GFM reads loosely), `owner/repo@sha`
 * - `#` before a digit: `#12`, `owner/repo#12`
 * - `:` before `//`: any `scheme://` autolink
 * - `GH-` before a digit, `www` before `.`, `mailto` and `xmpp` before `:`, wherever they are
 *   (GFM links `www.` after `_` too, where no word boundary is)
 * - a word of 7 to 40 hex digits with at least one letter: a commit SHA (plain numbers stay whole)
 */
const TRIGGER = /[@＠]|#(?=\p{N})|:(?=\/\/)|gh-(?=\p{N})|www(?=\.)|(?:mailto|xmpp)(?=:)|\b(?=[0-9]*[a-f])[0-9a-f]{7,40}\b/giu;

/** `text` with every mention, reference, commit link and autolink trigger broken by LINK_BREAK. */
export function neutraliseLinks(text: string): string {
  return text.replace(TRIGGER, (trigger) => (trigger.length >= 7 && !trigger.includes("-") ? breakHex(trigger) : trigger + LINK_BREAK));
}

/** A break after every sixth digit, so no part of the run is long enough to name a commit. */
function breakHex(hex: string): string {
  let broken = "";
  for (let i = 0; i < hex.length; i += 6) broken += (i > 0 ? LINK_BREAK : "") + hex.slice(i, i + 6);
  return broken;
}
