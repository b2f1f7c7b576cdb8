/**
 * ctx's Claude Code mod (clients 2.1.286 and later): the client's own figure of every main-thread
 * request goes to `ctx monitor` (a `ctx_mod` payload), which records it for `ctx status` and
 * `ctx track`, and decides with the settings hook's own ladder and debounce whether the agent is
 * warned; the warning rides the tool's result into the next request, and the user's status line
 * shows the same figure. `ctx install` writes this file with the path of its binary below.
 */
import type { EngineInterface, Register } from "claude-code";

/** The ctx binary: `ctx install` writes its absolute path here. */
const CTX_BIN = "ctx";

/** What `ctx monitor` answers a mod's call (src/commands/monitor-mod.ts, monitor-cycle.ts). */
interface CtxAnswer {
  hookSpecificOutput?: { additionalContext?: string };
  ctx_mod?: { used_pct: number; level: string };
  /** The in-client cycle to run (`respawn.in_client`), or null. */
  ctx_cycle?: { kind: "compact"; instructions: string } | { kind: "restart"; prompt: string } | null;
  /** At the usage limit: look again at `at_ms` (the reset and a margin). */
  ctx_limit?: { at_ms: number; prompt: string };
  /** After the wait at the limit: the prompt to submit, or null to leave the session alone. */
  ctx_continue?: string | null;
}

/** How long the session stays quiet after a turn before the cycle is considered (interactive). */
const QUIET_MS = 1500;

/** The session as the settings hooks name it: from `classic.SessionStart` (and after each /clear). */
interface Session {
  id: string;
  transcript: string;
  cwd: string;
}

let session: Session | undefined;
/** The newest main-thread request's figure, sent with the next call of ctx. */
let figure: Figure | undefined;
/**
 * The figure of the step under way: main-thread steps run one after another, and a tool call
 * belongs to the step under way (the client may start it while that step's response streams).
 */
let stepFigure: Promise<Figure | undefined> = Promise.resolve(undefined);
/** Whether the session has a person at a prompt box (`session.start`). */
let interactive = false;
/** Main-thread tool calls under way (one waits in a permission or question dialog). */
let toolsOpen = 0;
/** Subagent loops under way, by agent id. */
const agents = new Set<string>();
/** Main-thread turns started so far: one started after a turn's end runs a prompt the person queued. */
let turns = 0;
/** A main-thread turn is running. */
let turnRunning = false;
/** The usage limit is reached: the client continues by itself after the reset. */
let limited = false;
/** When the limit resets, in ms since the epoch (`session.measure.rateLimits`). */
let resetsAtMs = 0;
/** The client's own auto-continues seen so far (`prompt.submit` from `auto-continuation`). */
let autoContinues = 0;
/** The one wait at the usage limit under way (a later report of the same limit replaces it). */
let limitWait: { cancel: () => void } | undefined;
/** A cycle is under way: no other starts. */
let cycling = false;

/** One request's figure: its context tokens and the window the client reports. */
interface Figure {
  tokens: number;
  window: number;
  model: string;
}

/** Runs `ctx monitor` with a payload; never throws (a failed call is no answer). */
async function callCtx(
  $: EngineInterface,
  event: string,
  extra: Record<string, unknown>,
): Promise<CtxAnswer | undefined> {
  if (!session) return undefined;
  const payload = {
    session_id: session.id,
    transcript_path: session.transcript,
    cwd: session.cwd,
    hook_event_name: event,
    ...extra,
    ...(figure ? { ctx_mod: { v: 1, ...figure } } : {}),
  };
  try {
    const ran = await $.process.run([CTX_BIN, "monitor"], { stdin: JSON.stringify(payload), timeoutMs: 20_000 });
    const text = ran.stdout.trim();
    return ran.exitCode === 0 && text.startsWith("{") ? (JSON.parse(text) as CtxAnswer) : undefined;
  } catch {
    return undefined;
  }
}

/** Shows ctx's answer on the user's line: the same figure the agent and `ctx status` get. */
function show($: EngineInterface, answer: CtxAnswer | undefined): void {
  const m = answer?.ctx_mod;
  if (!m) return;
  const level = m.level === "ok" ? "" : ` ${m.level.toUpperCase().replace("_", "-")}`;
  $.ui.status(`ctx ${m.used_pct}% used${level}`);
}

/** A request's figure: the input tokens of the request, in the window the client reports. */
async function figureOf(
  $: EngineInterface,
  usage: {
    input_tokens: number;
    cache_read_input_tokens: number;
    cache_creation_input_tokens?: number | null;
    model: string;
  },
): Promise<Figure | undefined> {
  const window = (await $.session.usage()).context.window;
  if (!window) return undefined;
  const tokens = usage.input_tokens + usage.cache_read_input_tokens + (usage.cache_creation_input_tokens ?? 0);
  return { tokens, window, model: usage.model };
}

/** The step's figure, or undefined when it has not come within `ms` (a step with no response). */
function settled($: EngineInterface, step: Promise<Figure | undefined>, ms: number): Promise<Figure | undefined> {
  return new Promise((resolve) => {
    const timer = $.clock.after(ms, () => resolve(undefined));
    void step.then((f) => {
      timer.cancel();
      resolve(f);
    });
  });
}

/**
 * At an idle turn's end: what the mod sees goes to ctx, which answers the cycle to run, if any
 * (`respawn.in_client`); the mod runs it as the person would, then tells ctx how it went.
 */
async function idle($: EngineInterface, turnReason: string, turnsAtEnd: number): Promise<void> {
  if (cycling || !figure) return;
  const facts = {
    turnReason,
    draft: (await $.prompt.read()).text.trim() !== "",
    dialogOpen: toolsOpen > 0,
    queuedPrompt: turnRunning || turns !== turnsAtEnd,
    subagentsRunning: agents.size,
    limited,
    resetsAtMs,
  };
  const answer = await callCtx($, "ModIdle", { ctx_idle: facts });
  if (answer?.ctx_limit && interactive) {
    const seen = { turns, autoContinues };
    limitWait?.cancel();
    limitWait = $.clock.after(Math.max(0, answer.ctx_limit.at_ms - Date.now()), () => {
      limitWait = undefined;
      void afterLimit($, seen);
    });
  }
  const order = answer?.ctx_cycle;
  if (!order) return;
  cycling = true;
  try {
    if (order.kind === "compact") await $.command.run({ command: "compact", args: order.instructions });
    else {
      await $.command.run({ command: "clear" });
      if (order.prompt) await $.prompt.submit({ text: order.prompt, asUser: true });
    }
    await callCtx($, "ModCycleDone", { ctx_ok: true });
  } catch (err) {
    await callCtx($, "ModCycleDone", { ctx_ok: false, ctx_detail: String(err) });
  } finally {
    cycling = false;
  }
}

/**
 * The wait at the usage limit is over: ctx says whether the session is continued (only where the
 * client's own auto-continue did not come and nobody went on), and the mod submits the prompt once.
 */
async function afterLimit($: EngineInterface, seen: { turns: number; autoContinues: number }): Promise<void> {
  const ctx_after = {
    autoContinued: autoContinues !== seen.autoContinues,
    turnStarted: turns !== seen.turns || turnRunning,
    draft: (await $.prompt.read()).text.trim() !== "",
  };
  const text = (await callCtx($, "ModLimit", { ctx_after }))?.ctx_continue;
  if (text) await $.prompt.submit({ text, asUser: true });
}

export const register: Register = (on) => {
  on("session.start", async (_$, e, next) => {
    interactive = e.isInteractive;
    return next(e);
  });

  on("session.measure", async (_$, e, next) => {
    const hit = e.rateLimits.filter((r) => r.percentUsed >= 100);
    limited = hit.length > 0;
    const at = hit.map((r) => Date.parse(String(r.resetsAt ?? ""))).filter((t) => Number.isFinite(t));
    resetsAtMs = at.length > 0 ? Math.max(...at) : 0;
    return next(e);
  });

  on("prompt.submit", async (_$, e, next) => {
    if (e.origin?.kind === "auto-continuation") autoContinues++;
    return next(e);
  });

  on("turn.start", async (_$, e, next) => {
    if (e.agentId !== undefined) agents.add(e.agentId);
    else {
      turns++;
      turnRunning = true;
    }
    return next(e);
  });

  on("turn.complete", async ($, e, next) => {
    if (e.agentId !== undefined) {
      agents.delete(e.agentId);
      return next(e);
    }
    turnRunning = false;
    const mark = turns;
    const r = await next(e);
    // Interactive: after a quiet moment, from a timer (the turn's own hooks have settled). Under -p the
    // session ends with this hook: the cycle runs inside it, awaited.
    if (interactive) $.clock.after(QUIET_MS, () => void idle($, e.reason, mark));
    else await idle($, e.reason, mark);
    return r;
  });

  on("classic.SessionStart", async ($, e, next) => {
    // A new session after /clear: the old session's figure is not this one's (ctx's own line says ↻).
    if (session && session.id !== e.session_id) $.ui.status(undefined);
    session = { id: e.session_id, transcript: e.transcript_path, cwd: e.cwd };
    figure = undefined;
    return next(e);
  });

  on("turn.step", async function* ($, e, next) {
    if (e.agentId !== undefined) return yield* next(e);
    let done: (f: Figure | undefined) => void = () => {};
    stepFigure = new Promise((resolve) => {
      done = resolve;
    });
    try {
      const r = yield* next(e);
      const f = r.usage ? await figureOf($, r.usage) : undefined;
      done(f);
      // A step that calls no tool (the turn's answer): record it, for the user's line and ctx status.
      if (f && r.toolUses.length === 0) {
        figure = f;
        show($, await callCtx($, "ModStep", {}));
      }
      return r;
    } finally {
      done(undefined);
    }
  });

  on("tool.call", async ($, e, next) => {
    if (e.agentId !== undefined) return next(e);
    const f = await settled($, stepFigure, 10_000);
    if (f) figure = f;
    // Before the tool runs: the figure is recorded before the settings hooks look for it.
    const answer = figure
      ? await callCtx($, "PostToolUse", { tool_name: e.tool, tool_use_id: e.tool_use_id })
      : undefined;
    show($, answer);
    toolsOpen++;
    const ran = await next(e).finally(() => {
      toolsOpen--;
    });
    const warning = answer?.hookSpecificOutput?.additionalContext;
    if (!warning || ran.deny !== undefined) return ran;
    return { ...ran, context: [...(ran.context ?? []), warning] };
  });
};
