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

/** What `ctx monitor` answers a mod's call (src/commands/monitor-mod.ts). */
interface CtxAnswer {
  hookSpecificOutput?: { additionalContext?: string };
  ctx_mod?: { used_pct: number; level: string };
}

/** The session as the settings hooks name it: from `classic.SessionStart` (and after each /clear). */
interface Session {
  id: string;
  transcript: string;
  cwd: string;
}

let session: Session | undefined;
/** The newest main-thread request's figure, sent with the next tool call. */
let figure: { tokens: number; window: number; model: string } | undefined;

/** Runs `ctx monitor` with a payload; never throws (a failed call is no answer). */
async function callCtx(
  $: EngineInterface,
  event: string,
  extra: Record<string, unknown>,
): Promise<CtxAnswer | undefined> {
  if (!session || !figure) return undefined;
  const payload = {
    session_id: session.id,
    transcript_path: session.transcript,
    cwd: session.cwd,
    hook_event_name: event,
    ...extra,
    ctx_mod: { v: 1, ...figure },
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

/** Records one request's usage: the input tokens of the request, in the window the client reports. */
async function measured(
  $: EngineInterface,
  usage: {
    input_tokens: number;
    cache_read_input_tokens: number;
    cache_creation_input_tokens?: number | null;
    model: string;
  },
): Promise<void> {
  const context = (await $.session.usage()).context;
  if (!context.window) return;
  const tokens = usage.input_tokens + usage.cache_read_input_tokens + (usage.cache_creation_input_tokens ?? 0);
  figure = { tokens, window: context.window, model: usage.model };
  show($, await callCtx($, "ModStep", {}));
}

export const register: Register = (on) => {
  on("classic.SessionStart", async (_$, e, next) => {
    session = { id: e.session_id, transcript: e.transcript_path, cwd: e.cwd };
    figure = undefined;
    return next(e);
  });

  on("turn.step", async function* ($, e, next) {
    const r = yield* next(e);
    if (e.agentId === undefined && r.usage) await measured($, r.usage);
    return r;
  });

  on("tool.call", async ($, e, next) => {
    if (e.agentId !== undefined) return next(e);
    const asked = callCtx($, "PostToolUse", { tool_name: e.tool, tool_use_id: e.tool_use_id });
    const ran = await next(e);
    const answer = await asked;
    show($, answer);
    const warning = answer?.hookSpecificOutput?.additionalContext;
    if (!warning || ran.deny !== undefined) return ran;
    return { ...ran, context: [...(ran.context ?? []), warning] };
  });
};
