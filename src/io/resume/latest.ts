/**
 * Which summary `ctx resume --latest` resumes: the newest of the chain of the session last run in
 * this terminal (its tmux pane, else its tty: core/terminal-id.ts); without one, the newest when the
 * project has one chain; with several, the user picks on a terminal, and a script gets exit 2 and
 * the list (docs/resume.md, "--latest").
 */
import { readSync } from "node:fs";
import { isatty } from "node:tty";
import { join } from "node:path";
import { CtxError, type Env } from "../../core/deps.ts";
import { layout } from "../../core/layout.ts";
import { taskOfSummary } from "../../core/resume/hook-decision.ts";
import { newestFirst, stampOf, type SummaryFile } from "../../core/resume/summaries.ts";
import { terminalId } from "../../core/terminal-id.ts";
import { listDir } from "../fs/list-dir.ts";
import { readFileSafe } from "../fs/read.ts";
import { ownTty } from "../process/proc.ts";
import { loadState } from "../session/store.ts";
import { latestSummary, listSummaries } from "./summaries.ts";

/** How `ctx resume --latest` talks to the user when it must ask. */
export interface Asker {
  /** True when stdin and stderr are a terminal: the user can answer. */
  interactive: boolean;
  /** Writes the question (to stderr). */
  say: (text: string) => void;
  /** One line the user typed, or undefined at end of input. */
  readLine: () => string | undefined;
}

/** Most candidates listed when the chain is ambiguous. */
const MAX_CANDIDATES = 9;

/**
 * The summary `--latest` means in `root` at `nowMs` for a process with `env`; `accept` says a text
 * is ctx's (io/written.ts). Throws CtxError(1) when there is none, CtxError(2) with the list when
 * the choice is ambiguous and the user cannot be asked.
 */
export function pickLatest(
  root: string,
  env: Env,
  nowMs: number,
  accept: (text: string) => boolean,
  ask: Asker,
  tty: number | undefined = ownTty(),
): SummaryFile {
  latestSummary(root, nowMs, accept); // none of ctx's at all: its error, with its hint
  const ours = newestFirst(listSummaries(root), nowMs).filter((f) => {
    const text = readFileSafe(f.path, { maxBytes: 100 * 1024 });
    return text !== undefined && accept(text);
  });
  const here = terminalId(env, tty);
  const chain = here ? chainOfTerminal(root, here, nowMs) : undefined;
  const mine = chain ? ours.find((f) => taskOfSummary(f.name) === chain) : undefined;
  if (mine) return mine;
  // one newest summary per chain, newest chain first
  const seen = new Set<string>();
  const heads = ours.filter((f) => {
    const task = taskOfSummary(f.name) ?? f.name;
    if (seen.has(task)) return false;
    seen.add(task);
    return true;
  });
  // this terminal's chain has no summary: any other chain's would be another session's work
  if (heads.length === 1 && !chain) return heads[0]!;
  const shown = heads.slice(0, MAX_CANDIDATES);
  const list = shown.map(
    (f, i) => `  ${i + 1}. ${f.path}  (chain ${taskOfSummary(f.name) ?? "?"}, ${stampText(f.name)})`,
  );
  const why = chain
    ? `the session last run in this terminal (chain ${chain}) has no summary`
    : here
      ? "no session of this project ran in this terminal"
      : "this terminal is not known (no tmux pane, no tty)";
  if (!ask.interactive)
    throw new CtxError(
      2,
      `--latest is ambiguous: ${n(heads.length)} and ${why}:\n${list.join("\n")}`,
      "resume one by its path: ctx resume <path>",
    );
  ask.say(`ctx resume: ${n(heads.length)} and ${why}:\n${list.join("\n")}\n`);
  for (let tries = 0; tries < 3; tries++) {
    ask.say(`Which one? [1-${shown.length}] `);
    const line = ask.readLine();
    if (line === undefined) break;
    const n = Number(line.trim());
    if (Number.isInteger(n) && n >= 1 && n <= shown.length) return shown[n - 1]!;
  }
  throw new CtxError(2, "no summary chosen", "resume one by its path: ctx resume <path>");
}

/** An asker on this process's terminal: fd 0 read a byte at a time up to the newline. */
export function terminalAsker(interactive: boolean, say: (text: string) => void): Asker {
  return {
    interactive,
    say,
    readLine: () => {
      const buf = Buffer.alloc(1);
      let line = "";
      for (let i = 0; i < 256; i++) {
        let n = 0;
        try {
          n = readSync(0, buf, 0, 1, null);
        } catch {
          return line === "" ? undefined : line;
        }
        if (n <= 0) return line === "" ? undefined : line;
        const c = buf.toString("utf8");
        if (c === "\n") return line;
        line += c;
      }
      return line;
    },
  };
}

/** True when file descriptor `fd` is a terminal. */
export function isTerminalFd(fd: number): boolean {
  try {
    return isatty(fd);
  } catch {
    return false;
  }
}

// --- internal ---

/** The task id of the newest-updated session state of `root` run in terminal `here`, or undefined. */
function chainOfTerminal(root: string, here: string, nowMs: number): string | undefined {
  const dir = layout(root).sessionsState;
  let best: { at: string; task: string } | undefined;
  for (const name of listDir(dir)) {
    if (!name.endsWith(".json")) continue;
    const s = loadState(join(dir, name), nowMs);
    if (!s || s.terminal !== here) continue;
    if (!best || s.updated_at > best.at) best = { at: s.updated_at, task: s.task_id };
  }
  return best?.task;
}

/** `1 chain has a summary`, `2 chains have summaries`. */
function n(chains: number): string {
  return chains === 1 ? "1 chain has a summary" : `${chains} chains have summaries`;
}

/** `2026-12-01 14:03` from a summary name's stamp. */
function stampText(name: string): string {
  const st = stampOf(name);
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})/.exec(st);
  return m ? `${m[1]}-${m[2]}-${m[3]} ${m[4]}:${m[5]}` : st;
}
