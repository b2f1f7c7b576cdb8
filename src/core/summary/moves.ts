/**
 * Files a successful shell command moved or deleted (`mv`, `git mv`, `rm`, `git rm`), so the
 * summary shows a moved file under its new path and a deleted one as deleted. Pure: reads the
 * command line only (no globbing, no file system).
 */
import { basename, join, normalize } from "../pathx.ts";

/** What one command did to files, with absolute paths (`cwd` resolved). */
export interface FileMoves {
  /** [from, to] pairs. */
  moved: Array<[string, string]>;
  deleted: string[];
}

/** Most paths one command line may yield (a long `rm` list is summed up by its first ones). */
const MAX_PATHS = 50;

/**
 * The moves and deletions of a command line run in `cwd` (a `cd DIR &&` part moves the rest).
 * Parts joined by `&&`, `;` or `||` are read in order; a part with a pipe, a redirection or a
 * substitution is skipped, as is a `git rm --cached` (the file stays).
 */
export function fileMoves(command: string, cwd: string): FileMoves {
  const out: FileMoves = { moved: [], deleted: [] };
  let dir = cwd;
  for (const part of command.split(/&&|\|\||;|\n/)) {
    if (/[|<>`]|\$\(/.test(part)) continue;
    const words = shellWords(part);
    if (!words) continue;
    while (words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[0]!)) words.shift();
    if (words[0] === "sudo") words.shift();
    const at = (p: string) => normalize(p.startsWith("/") ? p : join(dir, p));
    if (words[0] === "cd" && words.length === 2 && !words[1]!.startsWith("~")) {
      dir = at(words[1]!);
      continue;
    }
    const git = words[0] === "git";
    const verb = git ? words[1] : words[0];
    const args = operands(words.slice(git ? 2 : 1));
    if (verb === "mv" && args.length >= 2 && args.length <= MAX_PATHS) {
      const target = args[args.length - 1]!;
      const sources = args.slice(0, -1);
      const intoDir = sources.length > 1 || target.endsWith("/");
      for (const s of sources) out.moved.push([at(s), intoDir ? at(join(target, basename(s))) : at(target)]);
    } else if (verb === "rm" && !(git && words.includes("--cached")))
      for (const p of args.slice(0, MAX_PATHS)) out.deleted.push(at(p));
  }
  return out;
}

// --- internal ---

/** The operands of a command's words: options (`-f`, `--force`) dropped, `--` honoured. */
function operands(words: string[]): string[] {
  const out: string[] = [];
  let options = true;
  for (const w of words) {
    if (options && w === "--") options = false;
    else if (options && w.startsWith("-")) continue;
    else if (w !== "") out.push(w);
  }
  return out;
}

/**
 * The words of one simple command with quotes and backslashes removed, or null when it holds
 * something this reader does not resolve (a glob, `~`, a variable, an unclosed quote).
 */
function shellWords(text: string): string[] | null {
  const words: string[] = [];
  let cur = "";
  let has = false;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = null;
      else if (c === "\\" && quote === '"' && i + 1 < text.length) cur += text[++i];
      else cur += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      has = true;
    } else if (c === "\\" && i + 1 < text.length) {
      cur += text[++i];
      has = true;
    } else if (/\s/.test(c)) {
      if (has || cur) words.push(cur);
      cur = "";
      has = false;
    } else if ("*?[$~{".includes(c) && !(c === "~" && cur !== "")) return null;
    else cur += c;
  }
  if (quote) return null;
  if (has || cur) words.push(cur);
  return words;
}
