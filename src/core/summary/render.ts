import type { Facts, TaskItem } from "./facts.ts";
import { oneLine } from "./ring.ts";

/** Everything the handoff summary is rendered from. */
export interface SummaryInput {
  facts: Facts;
  /** The merged task list (see mergedTasks). */
  tasks: TaskItem[];
  taskId: string;
  /** CTX_TEAM, or null. */
  team: string | null;
  /** Session ids of the /clear chain, oldest first, the current one last. */
  chain: string[];
  /** Handoff summaries the earlier sessions of the chain left, oldest first. */
  earlierSummaries?: string[];
  usage: {
    usedPct: number;
    usedTokens: number;
    windowSize: number;
    peakPct: number;
    compactions: number;
    model: string | null;
    /** The level of the ladder the session is at (ok, warning, critical, auto_pause). */
    level?: string;
  };
  /** ISO-8601 time of writing. */
  generatedAt: string;
  transcriptPath: string | null;
  /** `git status --short` lines, or null outside a repository. */
  gitStatus: string[] | null;
  /** Files git reports changed since the session started that no tool call edited (absolute paths). */
  commandChanges?: string[];
}

/** Most characters the summary may take (~2,000 tokens). */
export const MAX_SUMMARY_CHARS = 7000;

/**
 * The handoff summary as Markdown: short enough for a fresh agent's first
 * prompt (lists keep their newest items and count the rest), plain enough for a person.
 */
export function renderSummary(input: SummaryInput): string {
  for (const limit of [12, 8, 5, 3]) {
    const text = renderWith(input, limit);
    if (text.length <= MAX_SUMMARY_CHARS) return text;
  }
  return renderWith(input, 2).slice(0, MAX_SUMMARY_CHARS);
}

// --- internal ---

function renderWith(s: SummaryInput, limit: number): string {
  const f = s.facts;
  const u = s.usage;
  const remaining = s.tasks.filter((t) => t.status !== "completed");
  const completed = s.tasks.filter((t) => t.status === "completed");
  const files = [...f.files.values()];
  const out = [
    `# Handoff summary: ${s.taskId}`,
    "",
    `- Task: ${s.taskId}`,
    `- Team: ${s.team ?? "(none)"}`,
    `- Sessions: ${s.chain.join(" → ")}`,
    ...(s.earlierSummaries?.length
      ? [
          `- Earlier summaries: ${s.earlierSummaries
            .slice(-3)
            .map((p) => `\`${p}\``)
            .join(", ")}`,
        ]
      : []),
    `- Context at handoff: ${u.usedPct}% used (${u.usedTokens} / ${u.windowSize} tokens, peak ${u.peakPct}%, ${u.compactions} compaction${u.compactions === 1 ? "" : "s"})${u.model ? `, model ${u.model}` : ""}${u.level ? `, level ${u.level}` : ""}`,
    `- Written: ${s.generatedAt} by ctx finalize${s.transcriptPath ? ` from ${s.transcriptPath}` : ""}`,
    "",
    "## Original request",
    quote(f.firstRequest),
    "",
    "## Last request",
    quote(f.lastRequest === f.firstRequest && f.userRequests <= 1 ? "(same as the original request)" : f.lastRequest),
    "",
    "## Progress",
    ...newest(
      completed.map((t) => `- [x] #${t.id} ${t.subject}`),
      limit,
      "completed tasks",
    ),
    `- ${f.toolResults} tool calls: ${f.successes} succeeded, ${f.errors.total} failed; ${f.files.size + f.filesDropped + (s.commandChanges?.length ?? 0)} files changed; ${f.commands.total} commands; ${f.userRequests} user messages`,
    ...(f.lastAgentText ? [`- Agent's latest message: ${oneLine(f.lastAgentText, 300)}`] : []),
    "",
    "## Files modified",
    ...orNone([
      ...newest(
        files.map((x) => `- \`${x.path}\` (${ops(x.ops)})`),
        limit,
        "files",
        f.filesDropped,
      ),
      ...newest(
        (s.commandChanges ?? []).map((p) => `- \`${p}\` (changed by commands)`),
        limit,
        "files changed by commands",
      ),
    ]),
    ...gitLines(s.gitStatus, limit),
    "",
    "## Remaining work",
    ...orNone(
      newest(
        remaining.map((t) => `- [ ] #${t.id} ${t.subject}${t.status === "in_progress" ? " (in progress)" : ""}`),
        limit * 2,
        "tasks",
      ),
      "- (no open tasks recorded)",
    ),
    "",
    "## Last successful step",
    f.lastSuccess ? `- ${f.lastSuccess}` : "- (none)",
    "",
    "## Errors and failures",
    ...orNone(
      newest(
        f.errors.items.map((e) => `- ${e.tool}${e.target ? ` \`${e.target}\`` : ""}: ${e.message}`),
        limit,
        "errors",
        f.errors.total - f.errors.items.length,
      ),
    ),
    "",
    "## Commands run",
    ...orNone(
      newest(
        f.commands.items.map((c) => `- ${c.ok ? "ok  " : "FAIL"} \`${c.command}\``),
        limit,
        "commands",
        f.commands.total - f.commands.items.length,
      ),
    ),
    "",
    "## How to continue",
    "Read this summary, check `git status` and the files above, then carry on with the first open item of Remaining work. Do not redo completed tasks.",
    "",
  ];
  return out.join("\n");
}

function quote(text: string | null): string {
  return text ? `> ${text}` : "> (not found in the transcript)";
}

/** The newest `limit` lines, with a count of the older ones left out. */
function newest(lines: string[], limit: number, what: string, alsoDropped = 0): string[] {
  const dropped = Math.max(0, lines.length - limit) + alsoDropped;
  const kept = lines.slice(-limit);
  return dropped > 0 ? [`- … ${dropped} earlier ${what} not shown`, ...kept] : kept;
}

function orNone(lines: string[], none = "- (none)"): string[] {
  return lines.length ? lines : [none];
}

function ops(o: Record<string, number>): string {
  return Object.entries(o)
    .map(([k, n]) => (n > 1 ? `${k} ×${n}` : k))
    .join(", ");
}

function gitLines(status: string[] | null, limit: number): string[] {
  if (status === null) return [];
  if (status.length === 0) return ["", "git status: clean"];
  const kept = status.slice(0, limit * 2).map((l) => `    ${l}`);
  const more = status.length > kept.length ? [`    … ${status.length - kept.length} more`] : [];
  return ["", "git status --short:", "", ...kept, ...more];
}
