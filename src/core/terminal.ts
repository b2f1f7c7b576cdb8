/**
 * The one terminal sanitiser: whatever ctx prints to a terminal from a file or
 * a payload (a model name, a project path, a branch) goes through it. Pure.
 */

/** ANSI/VT escape sequences: CSI (colours, cursor moves, clears), OSC (titles, links), charset and keypad switches. */
const ESCAPES = /\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][A-Za-z0-9]|\x1b[=>78NOM]/g;

/**
 * Control characters (C0, DEL, C1: no escape sequence reaches the terminal),
 * line and paragraph separators, and bidi controls (U+061C, U+200E/F,
 * U+202A–E, U+2066–9: a U+202E would show the rest of the line reversed).
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** Removes ANSI/VT escape sequences whole (CSI, OSC, charset and keypad switches), leaving the text around them. */
export function stripAnsi(text: string): string {
  return text.replace(ESCAPES, "");
}

/**
 * `s` without anything that could change how a terminal shows the line: escape sequences whole
 * (not just their ESC, so no `[31m` is left behind), then any other control or bidi character.
 */
export function terminalSafe(s: string): string {
  return stripAnsi(s).replace(UNSAFE, "");
}

/**
 * Multi-line terminal output made safe line by line (terminalSafe), keeping its line breaks and
 * tabs: what every typed command prints goes through it (main.ts), `ctx status` excepted, which
 * sanitises its fields itself and paints its own colours.
 */
export function terminalText(s: string): string {
  return s
    .split("\n")
    .map((line) => line.split("\t").map(terminalSafe).join("\t"))
    .join("\n");
}
