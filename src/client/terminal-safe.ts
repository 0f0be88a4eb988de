// Text a model or a tool wrote reaches a person's terminal through the CLI. Printed raw, it could
// colour or hide lines, move the cursor and overwrite a line (\r, ESC[2K), set the window title, plant
// a hyperlink whose target differs from its text (OSC 8), talk to the terminal through DCS, or reorder
// what is shown with bidi overrides (a "Trojan Source" argument that reads differently than it runs).
// An approval prompt that can be made to lie is no approval prompt, so such text is neutralised here.

/**
 * What is escaped: C0 controls but \n and \t (ESC, which starts every CSI, OSC, DCS, APC, PM and SOS
 * sequence; BEL and \r among them), DEL, the C1 controls U+0080–U+009F (U+009B is a one-character CSI,
 * U+009D an OSC), and the bidi embeddings, overrides and isolates U+202A–U+202E and U+2066–U+2069.
 * CRLF is matched as a pair: it only ends a line, as \n does in a terminal.
 *
 * Exported, with `hex` and `terminalSafe`, so the console's page runs these very functions (see
 * src/console/http/safe-text-module.ts) instead of a second copy of the rule.
 */
export const UNSAFE = /\r\n|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

export const hex = (code: number, digits: number) => code.toString(16).padStart(digits, '0');

/**
 * Replaces each character that could control a terminal with a visible escape, so a person sees that
 * something was there: ESC becomes `\x1b` (the rest of its sequence then prints as plain text), a
 * right-to-left override `\u202e`. Plain text, emoji, newlines and tabs are unchanged, and so is the
 * output when applied again.
 *
 * C0 controls are written `\xHH`, the others `\uHHHH`. JSON.stringify already escapes every C0
 * control, so applying this to JSON output keeps it valid JSON that decodes to the same values.
 */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, (match) => {
    if (match === '\r\n') return '\n';
    const code = match.charCodeAt(0);
    return code < 0x20 ? `\\x${hex(code, 2)}` : `\\u${hex(code, 4)}`;
  });
}
