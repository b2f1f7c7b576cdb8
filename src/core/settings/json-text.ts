/**
 * Parsing and printing settings files as text: where a JSON error is
 * (line:column), and which indentation the user's file already uses.
 */

/** The outcome of parsing a settings file's text. */
export type ParsedSettings =
  | { ok: true; value: Record<string, unknown>; indent: string }
  | { ok: false; line: number; column: number; message: string };

/**
 * Parses `text` as a JSON object. Empty text is an empty object. On a syntax
 * error, gives the 1-based line and column of the first offending character.
 */
export function parseSettings(text: string): ParsedSettings {
  const body = text.replace(/^\uFEFF/, "");
  if (body.trim() === "") return { ok: true, value: {}, indent: "  " };
  // Nesting beyond any real settings file is invalid here, before a recursive parser or printer overflows its stack.
  const deep = tooDeepAt(body, MAX_DEPTH);
  if (deep >= 0)
    return { ok: false, ...lineColumn(body, deep), message: `JSON nested deeper than ${MAX_DEPTH} levels` };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    const at = findSyntaxError(body);
    return { ok: false, ...lineColumn(body, at.offset), message: at.message };
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return { ok: false, line: 1, column: 1, message: "the top level is not a JSON object" };
  }
  return { ok: true, value: value as Record<string, unknown>, indent: detectIndent(body) };
}

/** The deepest nesting of arrays and objects accepted in a settings file. */
const MAX_DEPTH = 256;

/** The offset where nesting first exceeds `max` levels (strings skipped), or -1. A linear scan, no recursion. */
function tooDeepAt(text: string, max: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return i;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return -1;
}

/** Prints settings with the given indentation and a trailing newline. */
export function printSettings(value: unknown, indent = "  "): string {
  return `${JSON.stringify(value, null, indent)}\n`;
}

/** The indentation of the first indented line (tabs or 1–8 spaces), else two spaces. */
export function detectIndent(text: string): string {
  const m = /\n([ \t]+)["}\]]/.exec(text);
  if (!m) return "  ";
  const ws = m[1]!;
  if (ws.startsWith("\t")) return "\t";
  return ws.length >= 1 && ws.length <= 8 ? ws : "  ";
}

/** The 1-based line and column of `offset` in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - before.lastIndexOf("\n") };
}

/** The offset and a short description of the first JSON syntax error (a small recursive-descent scan). */
export function findSyntaxError(text: string): { offset: number; message: string } {
  const scanner = new Scanner(text);
  try {
    scanner.value();
    scanner.ws();
    if (scanner.pos < text.length) scanner.fail("unexpected text after the end of the JSON value");
    return { offset: text.length, message: "invalid JSON" };
  } catch (err) {
    if (err instanceof SyntaxAt) return { offset: err.offset, message: err.message };
    throw err;
  }
}

// --- internal ---

class SyntaxAt extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

class Scanner {
  pos = 0;
  constructor(readonly text: string) {}

  fail(message: string): never {
    throw new SyntaxAt(this.pos, message);
  }

  ws(): void {
    while (/[ \t\r\n]/.test(this.text[this.pos] ?? "")) this.pos++;
    if (/^\/[/*]/.test(this.text.slice(this.pos, this.pos + 2))) this.fail("comments are not allowed in JSON");
  }

  value(): void {
    this.ws();
    const c = this.text[this.pos];
    if (c === "{") return this.container("}", true);
    if (c === "[") return this.container("]", false);
    if (c === '"') return this.string();
    const m = /^(?:true|false|null|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(
      this.text.slice(this.pos, this.pos + 400),
    );
    if (!m) this.fail(c === undefined ? "unexpected end of file" : `unexpected character ${JSON.stringify(c)}`);
    this.pos += m[0].length;
  }

  container(close: string, isObject: boolean): void {
    this.pos++;
    this.ws();
    if (this.text[this.pos] === close) return void this.pos++;
    for (;;) {
      if (isObject) {
        this.ws();
        if (this.text[this.pos] !== '"')
          this.fail(this.text[this.pos] === close ? "trailing comma" : "expected a property name in double quotes");
        this.string();
        this.ws();
        if (this.text[this.pos] !== ":") this.fail("expected ':'");
        this.pos++;
      }
      this.value();
      this.ws();
      const c = this.text[this.pos];
      if (c === close) return void this.pos++;
      if (c !== ",") this.fail(c === undefined ? "unexpected end of file" : `expected ',' or '${close}'`);
      this.pos++;
      this.ws();
      if (this.text[this.pos] === close) this.fail("trailing comma");
    }
  }

  string(): void {
    this.pos++;
    for (;;) {
      const c = this.text[this.pos];
      if (c === undefined) this.fail("unterminated string");
      if (c === '"') return void this.pos++;
      if (c === "\\") {
        const esc = /^\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/.exec(this.text.slice(this.pos, this.pos + 6));
        if (!esc) this.fail("invalid escape in string");
        this.pos += esc[0].length;
      } else if (c < " ") this.fail("control character in string");
      else this.pos++;
    }
  }
}
