// Control characters from a repository, kept from the terminal and from rendered Markdown: an
// escape sequence in a quoted identifier (`"orders\u001b]0;pwned\u0007"`) could retitle a window,
// move the cursor or hide a line. C0 controls but line feed and tab, DEL, and the C1 controls
// (U+0080–U+009F, which some terminals read as escape sequences too) are shown as `\u{…}`.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const CONTROLS = new RegExp(CONTROL.source, "g");

/** Whether `text` holds a control character that `showControls` would write out. */
export function hasControls(text: string): boolean {
  return CONTROL.test(text);
}

/** `text` with every control character but line feed and tab written out as `\u{…}`. */
export function showControls(text: string): string {
  return text.replace(CONTROLS, (char) => `\\u{${char.codePointAt(0)!.toString(16)}}`);
}

/**
 * JSON whose strings hold no raw control character: JSON.stringify escapes C0 but leaves DEL and
 * C1 as they are; here they become `\u00XX` escapes, which parse back to the same strings.
 */
export function jsonWithoutControls(json: string): string {
  return json.replace(/[\u007f-\u009f]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * Text from a repository made safe for a terminal: control characters (an escape sequence in a
 * quoted identifier could move the cursor or retitle the window) shown as `\u{…}`; line breaks and
 * tabs as spaces, so columns stay aligned.
 */
export function terminalSafe(text: string): string {
  return showControls(text.replace(/\r\n|[\r\n\t]/g, " ")).replace(/[\u2028\u2029]/g, (char) => `\\u{${char.codePointAt(0)!.toString(16)}}`);
}
