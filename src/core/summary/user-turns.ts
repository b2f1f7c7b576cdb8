/**
 * The user's side of a transcript in the facts: requests (typed, queued, slash commands, the
 * feedback of a rejection), `!` commands, interrupts, and tool calls or plans turned down. Pure.
 */
import type { Facts } from "./facts.ts";
import { isOwnPrompt } from "./goal.ts";
import { answeredMessage, readUserLine } from "./requests.ts";
import { bothEnds, oneLine, push } from "./ring.ts";

/** Reads a message the user typed (text blocks or a string): a request, a `!` command or an interrupt. */
export function onUserText(f: Facts, content: unknown): void {
  const line = readUserLine(content);
  if (line.kind === "shell") push(f.userShell, oneLine(line.command, 160));
  else if (line.kind === "interrupt") {
    f.interrupts += 1;
    f.interruptLine = f.line;
  } else if (line.kind === "request") {
    // A queued prompt the client later sends as a user line is one request, counted when delivered.
    const seen = f.queued.indexOf(norm(line.text));
    if (seen >= 0) f.queued.splice(seen, 1);
    else noteRequest(f, line.text, f.lineAt, [f.line]);
  }
}

/** A prompt the user queued while the agent worked, delivered to it (queue.ts): a request like a typed one. */
export function onQueued(f: Facts, text: string, at: number, lines: number[]): void {
  const key = norm(text);
  if (f.queued.includes(key)) return; // the enqueue and the attachment of the same prompt
  f.queued.push(key);
  if (f.queued.length > 20) f.queued.shift();
  noteRequest(f, text, at, lines);
}

/**
 * Counts one user request; the goal and the latest request skip ctx's own prompts and "continue".
 * Requests are ordered by when they were typed (`at`, ms), not by where the client wrote them.
 */
export function noteRequest(f: Facts, text: string, at: number, lines: number[]): void {
  f.userRequests += 1;
  // A request typed after a plan the user turned down is what the user wants instead.
  f.planTurnedDown = null;
  const line = bothEnds(text, 600);
  if (f.firstRequest === null) f.firstRequest = line;
  const before = f.lastRequest;
  f.lastRequest = line;
  const answers = answeredMessage(line, f.lastAgentText);
  f.turnTexts = 0;
  // "yes please" answering the agent's question is the user's decision, not a bare "continue".
  const answersQuestion = /\?\s*$/.test(f.lastAgentText ?? "");
  if (isOwnPrompt(text, f.ownPrompts, !answersQuestion)) return;
  // A slash command run first (a workflow that then asks what to do, `/code-review --fix`) is
  // completed by the typed request that follows it: `/create-tech-spec, then: implement the plugin`.
  if (f.goal === null || (at > 0 && f.goalAt > 0 && at < f.goalAt && f.midStory === null)) setGoal(f, line, at, lines);
  else if (COMMAND.test(f.goal) && f.goal === f.latestReal && !COMMAND.test(line) && f.midStory === null)
    setGoal(f, oneLine(`${f.goal}, then: ${line}`, 600), f.goalAt, [...f.goalLines, ...lines]);
  if (at === 0 || f.latestAt === 0 || at >= f.latestAt || f.latestReal === null) {
    f.latestReal = line;
    f.latestAnswers = answers;
    f.latestAnswersLine = answers ? (f.decisionLines.items.at(-1) ?? 0) : 0;
    // "Well then, you know what to do" after "Did you push them?" / "No, not pushed": the question says what.
    f.latestFollows =
      answers && before && before !== line && before.length <= FOLLOWED && /\?\s*$/.test(before) ? before : null;
    f.latestAt = at;
    f.latestLines = lines;
  }
}

/** The longest earlier question carried as the exchange a short reply continues. */
const FOLLOWED = 200;

/** Sets the goal, with when it was typed and the lines it came from. */
export function setGoal(f: Facts, text: string, at: number, lines: number[]): void {
  f.goal = text;
  f.goalAt = at;
  f.goalLines = lines.slice(-6);
}

/**
 * The user turned a tool call down: not an error. Without feedback (Esc at a tool call) it is the
 * stop an interrupt line then counts; with feedback, or for a plan, the agent's messages of that
 * turn (the plan it proposed) are marked as rejected, and the feedback the user typed is a request.
 */
export function onRejected(
  f: Facts,
  tool: string,
  input: Record<string, unknown>,
  described: string,
  feedback: string,
): void {
  const plan = tool === "ExitPlanMode";
  if (!feedback && !plan) {
    f.stoppedAt = described;
    return;
  }
  push(f.rejections, feedback ? `${plan ? "the plan" : described}, saying "${oneLine(feedback, 200)}"` : "the plan");
  const items = f.agentTexts.items;
  for (let i = Math.max(0, items.length - f.turnTexts); i < items.length; i++)
    if (!items[i]!.startsWith(REJECTED_MARK)) items[i] = `${REJECTED_MARK}${items[i]}`;
  if (plan && typeof input.plan === "string") push(f.agentTexts, `${REJECTED_MARK}plan: ${oneLine(input.plan, 240)}`);
  if (feedback) noteRequest(f, feedback, f.lineAt, [f.line]);
  // After its feedback: the plan stays open until a later request, an approved plan or work on files.
  if (plan)
    f.planTurnedDown = {
      title: oneLine(String(input.plan ?? "").match(/^\s*#{1,6}\s+(.+)$/m)?.[1] ?? "the plan", 160),
      line: f.line,
    };
}

/**
 * The user's answers to the agent's AskUserQuestion (a request in the user's own words): the
 * structured `answers` ({question: answer}), else the result's text as the client writes it
 * (`Your questions have been answered: "Q"="A", …` (2.1.3xx), `User has answered your questions:
 * "Q"="A". …` (older), or `The user responded: …`).
 */
export function onAnswered(f: Facts, text: string, structured: unknown): void {
  const given = (structured as { answers?: unknown } | undefined)?.answers;
  let pairs: [string, string][] =
    given && typeof given === "object" && !Array.isArray(given)
      ? Object.entries(given).flatMap(([q, a]) =>
          typeof a === "string" && a.trim() ? [[q, a] as [string, string]] : [],
        )
      : [];
  if (!pairs.length && /^\s*(?:User has answered your questions?|Your questions have been answered):/.test(text))
    pairs = [...text.matchAll(/"([^"]*)"="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]);
  const free = /^\s*The user responded:\s*([\s\S]+)$/.exec(text)?.[1]?.trim() ?? "";
  const said = pairs.length ? pairs.map(([q, a]) => `${q} → ${a}`).join("; ") : free;
  if (said) noteRequest(f, said, f.lineAt, [f.line]);
}

/** A slash command (a workflow or a skill), with or without arguments. */
const COMMAND = /^\/[^\s/]+(?:\s|$)/;

/** How a decision the user turned down is marked in the summary. */
const REJECTED_MARK = "(rejected by the user) ";

/** Whitespace-collapsed, lower case: how queued prompts are matched. */
function norm(text: string): string {
  return text.replace(/\s+/g, " ").trim().toLowerCase();
}
