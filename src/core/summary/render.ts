import type { SummaryTwin } from "./chain.ts";
import type { Facts } from "./facts.ts";
import {
  continuesLines,
  historyLine,
  howToContinue,
  openWorkLines,
  trackerClosedLines,
  trackerLines,
} from "./next-step.ts";
import { fitWithin } from "./fit.ts";
import { fileOps, gitLines, sessionList } from "./render-parts.ts";
import { inertDeep } from "./inert.ts";
import { oneLine } from "./ring.ts";

/** Everything the handoff summary is rendered from. */
export interface SummaryInput {
  /** This session's facts (counts and commands of this session). */
  facts: Facts;
  /** The chain merged up to this session (mergeChain). */
  twin: SummaryTwin;
  /** CTX_TEAM, or null. */
  team: string | null;
  /** The previous summary of the chain, when there is one. */
  previousSummary?: string | null;
  usage: {
    usedPct: number;
    usedTokens: number;
    windowSize: number;
    peakPct: number;
    compactions: number;
    model: string | null;
    /** Tool calls of the session (the track state's count when the transcript lags). */
    toolCalls: number;
    /** The level of the ladder the session is at (ok, warning, critical, auto_pause). */
    level?: string;
    /** The transcript's compactions by trigger: `1 auto, 1 idle`. */
    kinds?: string;
    /** Under a context budget, what the levels measured: `75% of 200k budget · 1M window`. */
    budget?: string;
  };
  /** ISO-8601 time of writing. */
  generatedAt: string;
  transcriptPath: string | null;
  /** `git status --short` lines, or null outside a repository. */
  gitStatus: string[] | null;
  /** The one line about subagent work (see subagentLine), or null/absent for none. */
  subagentLine?: string | null;
  /** Files git reports changed since the session started that no tool edited (relative to the project when inside it). */
  commandChanges?: string[];
  /** A headless leg (`ctx run`): nobody to ask, so "How to continue" never says to confirm with the user. */
  headless?: boolean;
}

/** Most characters the summary may take (~2,000 tokens). */
const MAX_SUMMARY_CHARS = 7500;

/**
 * The handoff summary as Markdown: short enough for a fresh agent's first prompt (fitWithin),
 * plain enough for a person. Every text from outside is one inert line (inertDeep), so data never
 * starts a line: headings and task lines are ctx's own.
 */
export function renderSummary(input: SummaryInput): string {
  const safe = inertDeep(input);
  return fitWithin((limit) => renderWith(safe, limit), MAX_SUMMARY_CHARS);
}

// --- internal ---

function renderWith(s: SummaryInput, limit: number): string {
  const f = s.facts;
  const t = s.twin;
  const u = s.usage;
  const last = t.sessions.length - 1;
  const ago = (i: number) =>
    i >= last ? "this session" : i === last - 1 ? "1 session ago" : `${last - i} sessions ago`;
  const out = [
    `# Handoff summary: ${t.task_id}`,
    "",
    `- Task: ${t.task_id}`,
    `- Team: ${s.team ?? "(none)"}`,
    `- Sessions (${t.sessions.length + t.sessions_dropped}, oldest first): ${sessionList(t, limit)}`,
    ...(s.previousSummary ? [`- Previous summary: \`${s.previousSummary}\``] : []),
    `- Context at handoff: ${u.usedPct}% used (${u.usedTokens} / ${u.windowSize} tokens, peak ${u.peakPct}%, ${u.compactions} compaction${u.compactions === 1 ? "" : "s"}${u.kinds ? `: ${u.kinds}` : ""})${u.budget ? `, ${u.budget}` : ""}${u.model ? `, model ${u.model}` : ""}${u.level ? `, level ${u.level}` : ""}`,
    `- Written: ${s.generatedAt} by ctx finalize${s.transcriptPath ? ` from ${s.transcriptPath}` : ""}`,
    "",
    "## Goal",
    ...[quote(t.goal), ...continuesLines(t)],
    ...(t.latest_request
      ? ["", "## Latest request", quote(t.latest_request), ...answered(t.latest_answers, t.latest_follows)]
      : []),
    "",
    "## Remaining work (open tasks)",
    ...orNone(
      [
        ...capped(
          t.open_tasks.map((x) => `- [ ] #${x.id} ${x.subject}${x.status === "in_progress" ? " (in progress)" : ""}`),
          limit * 3,
          "open tasks",
        ),
        ...trackerLines(t.tracker, limit, t.open_tasks.length > 0),
        ...openWorkLines(t, s.gitStatus),
      ],
      "- (no open tasks recorded)",
    ),
    "",
    "## Completed tasks",
    ...orNone([
      ...capped(
        [...t.completed_tasks].reverse().map((x) => `- [x] #${x.id} ${x.subject}`),
        limit,
        "completed tasks",
      ),
      ...trackerClosedLines(t.tracker, limit),
    ]),
    "",
    "## Decisions and reasons (the agent's last messages)",
    ...orNone(t.decisions.map((d) => `- ${oneLine(d, 300)}`)),
    "",
    "## Last meaningful step",
    t.last_step ? `- ${t.last_step.text} (${ago(t.last_step.session)})` : "- (none)",
    "",
    "## Files modified (newest first)",
    ...orNone([
      ...capped(
        t.files.map((x) => `- \`${x.path}\` (${fileOps(x)}; ${ago(x.session)})`),
        limit,
        "files",
        t.files_dropped,
      ),
      ...capped(
        (s.commandChanges ?? []).map((p) => `- \`${p}\` (changed by commands)`),
        limit,
        "files changed by commands",
      ),
    ]),
    ...gitLines(s.gitStatus, limit),
    "",
    "## Unresolved errors",
    ...orNone([
      ...capped(
        t.errors.map((e) => `- ${e.tool}${e.target ? ` \`${e.target}\`` : ""}: ${e.message} (${ago(e.session)})`),
        limit,
        "errors",
      ),
      ...historyLine(t),
    ]),
    "",
    "## This session",
    `- ${n(u.toolCalls, "tool call")}: ${f.successes} succeeded, ${f.errors.total} failed; ${n(f.files.size + f.filesDropped + (s.commandChanges?.length ?? 0), "file")} changed; ${n(f.commands.total, "command")}; ${n(f.userRequests, "user message")}`,
    ...(s.subagentLine ? [s.subagentLine] : []),
    ...userLines(f),
    ...capped(
      [...f.commands.items].reverse().map((c) => `- ${c.ok ? "ok  " : "FAIL"} \`${c.command}\``),
      limit,
      "commands",
      f.commands.total - f.commands.items.length,
    ),
    "",
    "## How to continue",
    ...howToContinue(t, s.gitStatus, s.headless === true),
    "",
  ];
  return out.join("\n");
}

function quote(text: string | null): string {
  return text ? `> ${text}` : "> (not found in the transcript)";
}

/** The first `limit` lines (the list is newest first), then "and N more <what>". */
function capped(lines: string[], limit: number, what: string, alsoDropped = 0): string[] {
  const dropped = Math.max(0, lines.length - limit) + alsoDropped;
  const kept = lines.slice(0, limit);
  return dropped > 0 ? [...kept, `- and ${dropped} more ${what}`] : kept;
}

/** The agent message a short latest request answers, and the user's message it replied to, as context under it. */
function answered(text: string | null | undefined, follows: string | null | undefined): string[] {
  if (!text) return [];
  const to = follows ? `, its reply to the user's "${oneLine(follows, 200)}"` : "";
  return [`(answering the agent's message: "${oneLine(text, 400)}"${to})`];
}

/** The user's own doings this session that are not requests: `!` commands, interrupts, rejections. */
function userLines(f: Facts): string[] {
  const out: string[] = [];
  const ran = f.userShell.items.map((c) => `\`${c}\``).join(", ");
  if (ran) out.push(`- The user ran (with \`!\`): ${ran}${more(f.userShell)}`);
  if (f.interrupts)
    out.push(
      `- The user interrupted the agent ${times(f.interrupts)}${f.stoppedAt ? ` (last at \`${f.stoppedAt}\`)` : ""}`,
    );
  const down = f.rejections.items.join("; ");
  if (down) out.push(`- The user turned down: ${down}${more(f.rejections)}`);
  return out;
}

function times(n: number): string {
  return n === 1 ? "once" : `${n} times`;
}

function more(r: { items: unknown[]; total: number }): string {
  return r.total > r.items.length ? ` (and ${r.total - r.items.length} earlier)` : "";
}

function orNone(lines: string[], none = "- (none)"): string[] {
  return lines.length ? lines : [none];
}

/** `1 command`, `2 commands`. */
const n = (count: number, word: string): string => `${count} ${word}${count === 1 ? "" : "s"}`;
