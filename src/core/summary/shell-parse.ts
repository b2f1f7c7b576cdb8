/**
 * A small reader of shell command lines for the summary (intent.ts): simple
 * commands and the operators between them, words unquoted, redirections
 * dropped, `$(…)` kept verbatim inside its word, here-document bodies skipped.
 * Not a shell: enough to tell what a command line ran. Pure.
 */

/** One simple command of a command line and the operator that follows it. */
export interface ShellPart {
  words: string[];
  /** `&&`, `||`, `;`, `|`, `&`, or "" at the end. */
  sep: string;
}

/** The simple commands of a command line, in order (here-document bodies skipped). */
export function shellParts(command: string): ShellPart[] {
  const parts: ShellPart[] = [];
  // Most commands are plain words on one line: nothing quoted, no operator, redirection or substitution.
  if (/^[\w \t./:=@%+,-]*$/.test(command)) {
    const words = command.split(/[ \t]+/).filter((w) => w !== "");
    if (words.length) parts.push({ words, sep: "" });
  } else scan(stripHeredocs(command), parts);
  // PowerShell's `$jobs = gh run view …` runs `gh run view …`.
  for (const p of parts) if (/^\$[A-Za-z_][\w:]*$/.test(p.words[0] ?? "") && p.words[1] === "=") p.words.splice(0, 2);
  return parts;
}

/** The `$(…)` and backtick scripts inside a word as shellParts kept them. */
export function substitutions(word: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < word.length; i++) {
    if (word[i] === "$" && word[i + 1] === "(" && word[i + 2] !== "(") {
      const end = closingParen(word, i + 2);
      out.push(word.slice(i + 2, end));
      i = end;
    } else if (word[i] === "`") {
      const end = word.indexOf("`", i + 1);
      if (end < 0) break;
      out.push(word.slice(i + 1, end));
      i = end;
    }
  }
  return out;
}

/** The index of the `)` closing the `$(` that opened before `start` (quotes respected). */
function closingParen(s: string, start: number): number {
  let depth = 1;
  let q = "";
  for (let i = start; i < s.length; i++) {
    const c = s[i]!;
    if (q) {
      if (c === "\\" && q === '"') i++;
      else if (c === q) q = "";
    } else if (c === "'" || c === '"') q = c;
    else if (c === "\\") i++;
    else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return i;
  }
  return s.length;
}

/** Removes the bodies of here-documents (`<<EOF … EOF`), which are text, not commands. */
function stripHeredocs(command: string): string {
  let s = command;
  const re = /<<(-?)\s*(['"]?)([A-Za-z_][\w-]*)\2/g;
  let left = 50; // bounded: each one rescans the rest of the line
  for (let m = re.exec(s); m && left-- > 0; m = re.exec(s)) {
    const bodyStart = s.indexOf("\n", m.index + m[0].length);
    if (bodyStart < 0) break;
    const lines = s.slice(bodyStart + 1).split("\n");
    const end = lines.findIndex((l) => (m![1] ? l.trim() : l.trimEnd()) === m![3]);
    const cut = end < 0 ? lines.length : end + 1;
    s = `${s.slice(0, bodyStart + 1)}${lines.slice(cut).join("\n")}`;
    re.lastIndex = bodyStart;
  }
  return s;
}

/** Splits a command line into simple commands: words unquoted, `$(…)` kept verbatim inside its word. */
function scan(s: string, parts: ShellPart[]): void {
  let words: string[] = [];
  let word = "";
  let inWord = false;
  let redirect = false;
  const endWord = () => {
    if (inWord && !redirect) words.push(word);
    if (inWord) redirect = false;
    word = "";
    inWord = false;
  };
  const endPart = (sep: string) => {
    endWord();
    redirect = false;
    if (words.length) parts.push({ words, sep });
    else if (parts.length && sep) parts[parts.length - 1]!.sep = sep;
    words = [];
  };
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    const next = s[i + 1];
    if (c === "\\") {
      if (s[i + 1] !== "\n") (word += s[i + 1] ?? ""), (inWord = true);
      i++;
    } else if (c === "'") {
      const end = s.indexOf("'", i + 1);
      word += s.slice(i + 1, end < 0 ? s.length : end);
      inWord = true;
      i = end < 0 ? s.length : end;
    } else if (c === '"') {
      inWord = true;
      for (i++; i < s.length && s[i] !== '"'; i++) {
        if (s[i] === "\\" && /["\\$`]/.test(s[i + 1] ?? "")) word += s[++i];
        else if (s[i] === "$" && s[i + 1] === "(") {
          const end = closingParen(s, i + 2);
          word += s.slice(i, end + 1);
          i = end;
        } else word += s[i];
      }
    } else if (c === "$" && s[i + 1] === "(") {
      const end = closingParen(s, i + 2);
      word += s.slice(i, end + 1);
      inWord = true;
      i = end;
    } else if (c === "#" && !inWord) {
      while (i + 1 < s.length && s[i + 1] !== "\n") i++;
    } else if ((c === "&" && next === "&") || (c === "|" && (next === "|" || next === "&"))) {
      endPart(next === "&" && c === "|" ? "|" : c + next);
      i++;
    } else if (c === "|" || c === ";" || c === "\n" || c === "(" || c === ")" || (c === "&" && s[i - 1] !== ">")) {
      endPart(c === "|" ? "|" : c === "&" ? "&" : ";");
    } else if (c === ">" || c === "<" || (c === "&" && s[i + 1] === ">")) {
      if (inWord && !/^\d+$/.test(word)) endWord();
      word = "";
      inWord = false;
      while (/[<>&|]/.test(s[i + 1] ?? "")) i++;
      if (s[i] === "&" && /\d|-/.test(s[i + 1] ?? "")) while (/[\d-]/.test(s[i + 1] ?? "")) i++;
      else redirect = true;
    } else if (/\s/.test(c)) endWord();
    else (word += c), (inWord = true);
  }
  endPart("");
}
