/**
 * `ctx monitor` called by ctx's Claude Code mod (or ctx's OpenCode plugin, its tokens and limit in the
 * payload) at an idle turn's end (`ModIdle`) and when the mod has carried a cycle out
 * (`ModCycleDone`): the in-client respawn (`respawn.in_client`).
 * ctx decides with the tmux supervisor's plan and brakes (core/respawn/in-client.ts), writes the
 * handoff summary (awaited) and the hand-over before a restart, and keeps the supervisor's record
 * (`state/respawn/client-<pid>.json`, the index entry's `respawn`), so `ctx status` shows it.
 */
import { decodeHook } from "../core/agents/index.ts";
import type { Deps } from "../core/deps.ts";
import { isObject } from "../core/json.ts";
import { stateRoot } from "../core/paths.ts";
import {
  afterCycle,
  afterLimit,
  holdDetail,
  type IdleFacts,
  inClientDecision,
  limitPlan,
  withReading,
} from "../core/respawn/in-client.ts";
import { initialState } from "../core/respawn/machine.ts";
import { appendEvent, buildRecord, indexRespawn, type RespawnLogEntry } from "../core/respawn/record.ts";
import { settingsFromConfig } from "../core/respawn/settings.ts";
import type { RespawnState } from "../core/respawn/types.ts";
import { isValidSessionId } from "../core/session-id.ts";
import { layout } from "../core/layout.ts";
import { loadConfig } from "../io/config.ts";
import { hookProject } from "../io/project.ts";
import { readRecord, writeRecord } from "../io/respawn/store.ts";
import { writePending } from "../io/resume/state.ts";
import { setRespawn } from "../io/session/index.ts";
import { payloadReading } from "../io/session/usage-source.ts";
import { finalize } from "./finalize.ts";
import { MOD_CYCLE_DONE_EVENT, MOD_LIMIT_EVENT, modTake } from "./monitor-mod.ts";

/** What the mod is asked to do: `/compact` with instructions, or `/clear` and the continue prompt. */
export type CycleOrder = { kind: "compact"; instructions: string } | { kind: "restart"; prompt: string };

/** What the mod does at the usage limit: look again at `at_ms`, then submit `prompt` unless the session went on. */
export interface LimitOrder {
  at_ms: number;
  prompt: string;
}

/** The answer to a `ModIdle`, `ModCycleDone` or `ModLimit` call, or undefined when ctx has nothing to say. */
export async function modCycle(
  input: Record<string, unknown>,
  deps: Deps,
): Promise<{ ctx_cycle: CycleOrder | null; ctx_limit?: LimitOrder; ctx_continue?: string | null } | undefined> {
  const sid = input.session_id;
  if (!isValidSessionId(sid)) return undefined;
  const project = hookProject(deps.env, input.cwd, deps.cwd);
  const cfg = loadConfig(deps, project);
  if (!cfg["respawn.in_client"]) return undefined;
  const root = stateRoot(deps.env, project);
  const now = deps.now();
  // One in-client supervisor per client process (the mod's host, this call's parent): it outlives /clear.
  const name = `client-${process.ppid}`;
  const prev = readRecord(root, name);
  const settings = settingsFromConfig(cfg);
  const base = prev?.machine?.version === 1 ? { ...prev.machine, settings } : initialState(settings, now);
  const log = {
    events: prev?.events ?? [],
    who: {
      name,
      pid: process.ppid,
      target: "in-client",
      project,
      root,
      started_at: prev?.started_at ?? new Date(now).toISOString(),
    },
  };
  const note = (event: string, detail?: string) => {
    const entry: RespawnLogEntry = { at: new Date(now).toISOString(), event, ...(detail ? { detail } : {}) };
    log.events = appendEvent(log.events, entry);
  };
  const save = (s: RespawnState) => {
    const rec = buildRecord(log.who, s, sid, log.events, new Date(now).toISOString());
    writeRecord(rec);
    if (prev?.session_id && prev.session_id !== sid) setRespawn(deps.env, prev.session_id, log.who, null);
    setRespawn(deps.env, sid, log.who, { ...indexRespawn(rec, layout(root).respawnRecord(name)) });
  };
  if (input.hook_event_name === MOD_CYCLE_DONE_EVENT) {
    const ok = input.ctx_ok === true;
    note(
      ok ? "cycle_done" : "cycle_failed",
      typeof input.ctx_detail === "string" ? input.ctx_detail.slice(0, 200) : undefined,
    );
    const last = base.lastCycle;
    save(
      ok || !last
        ? base
        : { ...base, cycles: Math.max(0, base.cycles - 1), lastCycle: { ...last, ok: false }, awaitingProgress: false },
    );
    return { ctx_cycle: null };
  }
  if (input.hook_event_name === MOD_LIMIT_EVENT) {
    const f = isObject(input.ctx_after) ? input.ctx_after : {};
    const why = afterLimit({
      autoContinued: f.autoContinued === true,
      turnStarted: f.turnStarted === true,
      draft: f.draft === true,
    });
    note(why ? "limit_left" : "limit_continue", why ?? "no auto-continue after the reset: the continue prompt, once");
    save(base);
    return { ctx_cycle: null, ctx_continue: why ? null : settings.limitContinuePrompt || null };
  }
  const reading = idleReading(input, root, sid, now);
  const facts = idleFacts(input.ctx_idle);
  if (!reading || !facts) return undefined;
  let state = withReading(base, reading.usedPct, now);
  const resets = isObject(input.ctx_idle) ? input.ctx_idle.resetsAtMs : undefined;
  const plan = facts.limited ? limitPlan(state, typeof resets === "number" && resets > 0 ? resets : null) : undefined;
  if (plan) {
    note(
      "limit",
      `waiting for the reset at ${new Date(plan.atMs).toISOString()}; the client's own auto-continue first`,
    );
    save(state);
    return { ctx_cycle: null, ctx_limit: { at_ms: plan.atMs, prompt: plan.prompt } };
  }
  const d = inClientDecision(state, facts, now);
  if (d.kind === "none") {
    // Once per hold: a later idle turn held for the same reason at the same figure adds nothing.
    const held = holdDetail(state, facts);
    if (held && log.events.at(-1)?.detail !== held) note("hold", held);
    save(state);
    return { ctx_cycle: null };
  }
  if (d.kind === "brake") {
    if (state.brake !== d.reason) note(d.halt ? "halted" : "brake", d.reason);
    save({ ...state, brake: d.reason, ...(d.halt ? { phase: "halted" as const, reason: d.reason } : {}) });
    return { ctx_cycle: null };
  }
  note("cycle_start", `${d.kind} at ${reading.usedPct}% (trigger ${d.trigger}%), in the client`);
  let order: CycleOrder;
  if (d.kind === "restart") {
    const transcript = typeof input.transcript_path === "string" ? input.transcript_path : undefined;
    try {
      const done = finalize({ project, sessionId: sid, transcriptPath: transcript, reason: "respawn" }, deps);
      writePending(root, done.summaryPath, now);
      note("step", `finalize: ${done.summaryPath}`);
    } catch (err) {
      note("cycle_failed", `finalize: ${(err as Error).message}`);
      save(afterCycle(state, d.kind, d.trigger, false, now));
      return { ctx_cycle: null };
    }
    order = { kind: "restart", prompt: settings.kickstartPrompt };
  } else order = { kind: "compact", instructions: settings.compactPrompt.replace(/^\/compact\s*/, "") };
  state = afterCycle(state, d.kind, d.trigger, true, now);
  save(state);
  return { ctx_cycle: order };
}

// --- internal ---

/** The reading at an idle: the mod's figure, else the usage the payload carries (OpenCode's plugin). */
function idleReading(input: Record<string, unknown>, root: string, sid: string, now: number) {
  const take = modTake(input, root, sid, now);
  if (take.kind !== "none") return take.reading;
  const usage = decodeHook(input)?.usage;
  return usage ? payloadReading(usage) : undefined;
}

function idleFacts(v: unknown): IdleFacts | undefined {
  if (!isObject(v)) return undefined;
  const n = v.subagentsRunning;
  return {
    turnReason: typeof v.turnReason === "string" ? v.turnReason : "unknown",
    draft: v.draft === true,
    dialogOpen: v.dialogOpen === true,
    queuedPrompt: v.queuedPrompt === true,
    subagentsRunning: typeof n === "number" && Number.isFinite(n) && n > 0 ? Math.floor(n) : 0,
    limited: v.limited === true,
  };
}
