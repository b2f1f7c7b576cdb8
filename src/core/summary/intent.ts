/**
 * What a shell command line tried to achieve, for deciding which failures are
 * still open (docs/track-finalize.md, "Which errors are still open"). A command
 * line is split into its simple commands (`&&`, `||`, `;`, `|`, `&`, newlines;
 * `$(…)` and `bash -c '…'` looked into; here-document bodies skipped), and each
 * command becomes an intent: its program and subcommand (`git push`, `mix test`,
 * `npm run build`) and the targets it named (`mix test test/a.exs`). Pure.
 */
import { type ShellPart, shellParts, substitutions } from "./shell-parse.ts";

/** What one simple command tried: `head` (program and subcommand) on `targets` (none: the whole). */
export interface Intent {
  head: string;
  targets: string[];
  /** In a successful line: a step whose own status the line hides (followed by `|`, `;` or `&`). */
  hidden?: boolean;
}

/** Programs that set up or print, never the point of a command line. */
const NO_INTENT = new Set(
  "cd pushd popd export unset set source . alias local declare typeset read shopt ulimit umask trap wait echo printf true false : sleep exit return [ [[ test clear then else elif fi do done if while until for case esac { } ! function Set-Location Write-Host Write-Output Start-Sleep"
    .split(" ")
    .filter(Boolean),
);
/** Shell keywords before a command: `if make; then npm test; fi`. */
const KEYWORDS = new Set(["if", "then", "else", "elif", "do", "while", "until", "!"]);
/** Words before the real program: `sudo make`, `time npm test`, `env A=1 go test`. */
const WRAPPERS = new Set(["sudo", "time", "nohup", "env", "exec", "command", "builtin", "nice", "stdbuf", "xargs"]);
/** Runners whose next word is the program (`npx eslint`); two-word ones after it (`uv run pytest`). */
const RUNNERS = new Set(["npx", "bunx", "pnpx"]);
const RUNNER_PAIRS = new Set([
  "uv run",
  "poetry run",
  "pipenv run",
  "bundle exec",
  "pnpm exec",
  "pnpm dlx",
  "yarn dlx",
]);
/** Package managers whose `run`/`exec` subcommand names a script: `npm run build`. */
const SCRIPT_RUNNERS = new Set(["npm", "pnpm", "yarn", "bun"]);
/** Filters in a pipeline: they shape the output of the command before them. */
const FILTERS = new Set(
  "head tail grep egrep fgrep rg sort uniq wc cut tr tee less more jq column sed awk cat xargs fold nl Select-String Select-Object ForEach-Object Where-Object Sort-Object Measure-Object Out-String Format-Table Format-List Tee-Object".split(
    " ",
  ),
);

/** A script file named by its extension (`build.js`, `gen.py`), never a subcommand such as `ecto.migrate`. */
const SCRIPT_FILE = /\.(?:[cm]?js|ts|py|rb|sh|pl|php|lua|jar)$/;

/** The intent of one simple command, or null for one that sets up or prints (`cd`, `echo`, `export`). */
function intentOf(words: string[]): Intent | null {
  let w = words.filter((x) => x !== "");
  for (;;) {
    while (w.length && /^[A-Za-z_]\w*=/.test(w[0]!)) w = w.slice(1);
    const first = w[0];
    if (first === undefined) return null;
    if (KEYWORDS.has(first)) w = w.slice(1);
    else if (WRAPPERS.has(first) || RUNNERS.has(first)) w = dropFlags(w.slice(1));
    else if (first === "timeout") w = dropFlags(w.slice(1)).slice(1);
    else if (w.length > 1 && RUNNER_PAIRS.has(`${first} ${w[1]}`)) w = w.slice(2);
    else if (/^python[\d.]*$/.test(first) && w[1] === "-m") w = w.slice(2);
    else break;
  }
  const program = (w[0] ?? "").replace(/^.*\//, "");
  // Not a program: a PowerShell script block's `[-1]` or `}` that the POSIX reading split off.
  if (!program || NO_INTENT.has(program) || !/^[-\w.~@+\\][-\w.@+:~\\]*$/.test(program)) return null;
  const rest = w.slice(1);
  // The subcommand comes first (`-k slow` in `pytest -k slow` is a flag's value); git's global flags come before it.
  let i = 0;
  while (program === "git" && i < rest.length && rest[i]!.startsWith("-")) i += /^-[Cc]$/.test(rest[i]!) ? 2 : 1;
  const head = [program];
  // a script file is what the program runs on, not a subcommand (`node build.js` is `node` @ build.js)
  if (i < rest.length && /^[A-Za-z][\w:.-]*$/.test(rest[i]!) && !SCRIPT_FILE.test(rest[i]!)) head.push(rest[i++]!);
  if (SCRIPT_RUNNERS.has(program) && /^(?:run|exec|x)$/.test(head[1] ?? "") && i < rest.length) head.push(rest[i++]!);
  // git: the operands are remotes, branches, messages; any later `git commit` or `git push` is the same step.
  const targets = program === "git" ? [] : targetsOf(rest.slice(i));
  return { head: head.join(" "), targets: [...new Set(targets)].sort() };
}

/**
 * The intent a failed command line is judged by: its last step that has one
 * (`a && b` fails on its goal `b`; `a; b` and `a | b` report the last one's
 * status), looked for inside `bash -c '…'`; in a pipeline, the first command
 * that is not a filter (`mix test | tail` is about `mix test`).
 */
export function failedIntent(command: string, depth = 0): Intent | null {
  const pipelines: ShellPart[][] = [[]];
  for (const p of shellParts(command)) {
    pipelines[pipelines.length - 1]!.push(p);
    if (p.sep !== "|") pipelines.push([]);
  }
  for (const line of pipelines.reverse()) {
    const found = line.map((p) => intentWithin(p, depth)).filter((x): x is Intent => x !== null);
    const main = found.find((x) => !FILTERS.has(x.head.split(" ")[0]!)) ?? found[0];
    if (main) return main;
  }
  return null;
}

/**
 * Every intent a successful command line achieved: each of its steps, those
 * inside `$(…)` and `bash -c '…'` too, but not a step followed by `||` (it
 * may have failed and its fallback run). A step whose status the line hides
 * (`mix test | tail`, `a; b`) is marked `hidden`: only its output can tell.
 */
export function achievedIntents(command: string, depth = 0): Intent[] {
  const out: Intent[] = [];
  for (const p of shellParts(command)) {
    if (p.sep === "||") continue;
    const inner = shellScript(p.words);
    if (inner !== null) {
      if (depth < 3) out.push(...achievedIntents(inner, depth + 1));
      continue;
    }
    const it = intentOf(p.words);
    if (it) out.push(p.sep === "|" || p.sep === ";" || p.sep === "&" ? { ...it, hidden: true } : it);
    for (const w of p.words)
      for (const sub of substitutions(w)) if (depth < 3) out.push(...achievedIntents(sub, depth + 1));
  }
  return out;
}

// --- internal ---

/** The script of `bash -c '…'` (sh, zsh, eval too), or null. */
function shellScript(words: string[]): string | null {
  const w = words.filter((x) => !/^[A-Za-z_]\w*=/.test(x));
  if (w[0] === "eval" && w.length > 1) return w.slice(1).join(" ");
  if (!/^(?:.*\/)?(?:ba|z|da)?sh$/.test(w[0] ?? "")) return null;
  const c = w.findIndex((x) => /^-\w*c$/.test(x));
  return c > 0 && c + 1 < w.length ? w[c + 1]! : null;
}

function intentWithin(p: ShellPart, depth: number): Intent | null {
  const inner = shellScript(p.words);
  if (inner === null) return intentOf(p.words);
  return depth < 3 ? failedIntent(inner, depth + 1) : null;
}

/** Operands that name what the command worked on: not flags, not a flag's value (unless a path), no spaces. */
function targetsOf(words: string[]): string[] {
  const out: string[] = [];
  let afterFlag = false;
  for (const w of words) {
    if (w.startsWith("-")) {
      afterFlag = !w.includes("=");
      continue;
    }
    const path = /\//.test(w) || /^[^\s.][^\s]*\.[A-Za-z0-9]{1,8}$/.test(w);
    if (!/\s/.test(w) && w !== "" && (!afterFlag || path))
      out.push(w.replace(/^\.\/(?=.)/, "").replace(/(.)\/+$/, "$1"));
    afterFlag = false;
  }
  return out.filter((t) => t !== ".");
}

function dropFlags(words: string[]): string[] {
  let i = 0;
  while (i < words.length && (words[i]!.startsWith("-") || /^[A-Za-z_]\w*=/.test(words[i]!))) i++;
  return words.slice(i);
}
