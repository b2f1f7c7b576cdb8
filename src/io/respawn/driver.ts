/**
 * The thin driver around the pure respawn machine: it polls the pane
 * (capture-pane) and the hooks' state, feeds screen, Stop-hook, usage and tick
 * events, carries out the actions, and persists the record.
 */
import { existsSync } from "node:fs";
import { classifyScreen } from "../../core/screen.ts";
import { initialState, transition } from "../../core/respawn/machine.ts";
import type { RespawnAction, RespawnEvent, RespawnSettings, RespawnState } from "../../core/respawn/types.ts";
import { runAiCheck, runFinalize, writePending } from "./actions.ts";
import { PaneSession, PID_CACHE_MS } from "./binding.ts";
import { setRespawn } from "../session/index.ts";
import { writeRecord, type RespawnLogEntry, type RespawnRecord } from "./store.ts";
import { fileStamp } from "./poll.ts";
import { abortableSleep as sleep } from "../process/sleep.ts";
import type { Tmux } from "./tmux.ts";

type Env = Record<string, string | undefined>;

/** Everything the driver needs. */
export interface DriverOptions {
  /** Supervisor name (record file name). */
  name: string;
  /** The pane id (`%N`). */
  target: string;
  /** Project directory and state root. */
  project: string;
  root: string;
  /** The environment for children (finalize, claude -p) and for the index location. */
  env: Env;
  settings: RespawnSettings;
  /** Capture interval and the pause between text and Enter. */
  pollMs: number;
  enterDelayMs: number;
  tmux: Tmux;
  /** The claude binary for the AI check. */
  claude: string;
  now: () => number;
  /** Aborted on SIGINT/SIGTERM: the driver then stops cleanly. */
  signal: AbortSignal;
  /** Diagnostics. */
  log: (line: string) => void;
  /** The used % the transcript shows (its latest main-chain request), or undefined. */
  transcriptPct: (path: string, sessionId: string) => number | undefined;
}

const MAX_EVENTS = 50;
const HEARTBEAT_MS = 10_000;

/** Runs the supervisor until it stops (signal, pane gone); returns its final state. */
export async function runDriver(o: DriverOptions): Promise<RespawnState> {
  const d = new Driver(o);
  return d.loop();
}

// --- internal ---

class Driver {
  state: RespawnState;
  events: RespawnLogEntry[] = [];
  queue: RespawnEvent[] = [];
  prevText = "";
  lastStop: number | null = null;
  lastUsageKey = "";
  sessionId: string | null = null;
  indexedSid: string | null = null;
  summaryPath: string | null = null;
  lastWrite = 0;
  dirty = true;
  startedAt: string;
  done = false;
  /** The hooks' state of the session running in the pane (set when the loop starts). */
  session!: PaneSession;
  boundAt = 0;

  constructor(readonly o: DriverOptions) {
    this.state = initialState(o.settings, o.now());
    this.startedAt = new Date(o.now()).toISOString();
  }

  async loop(): Promise<RespawnState> {
    await this.bind();
    const hook = this.session.read();
    // Signals from before the supervisor started are spent.
    this.lastStop = hook?.last_stop_ms ?? null;
    this.sessionId = hook?.session_id ?? null;
    while (!this.done) {
      if (this.o.signal.aborted) await this.feed({ type: "stop", reason: "signal" });
      else await this.poll();
      this.persist(false);
      if (!this.done) await sleep(this.o.pollMs, this.o.signal);
    }
    this.persist(true);
    return this.state;
  }

  async poll(): Promise<void> {
    const text = await this.o.tmux.capture(this.o.target).catch(() => undefined);
    if (text === undefined) return this.feed({ type: "pane_gone" });
    // The pane's command was replaced (respawn-pane): follow its new process.
    if (Math.abs(this.o.now() - this.boundAt) > PID_CACHE_MS && !existsSync(`/proc/${this.session.panePid}`))
      await this.bind();
    const changed = text !== this.prevText;
    this.prevText = text;
    await this.feed({ type: "screen", screen: classifyScreen(text), changed });
    this.readHooks();
    for (let ev = this.queue.shift(); ev && !this.done; ev = this.queue.shift()) await this.feed(ev);
    if (!this.done) await this.feed({ type: "tick" });
  }

  /** Binds to the pane's process (`#{pane_pid}`; 0 when unknown: then no session matches). */
  async bind(): Promise<void> {
    const info = await this.o.tmux.paneInfo(this.o.target).catch(() => undefined);
    this.session = new PaneSession(this.o.root, info?.pid ?? 0, this.o.now);
    this.boundAt = this.o.now();
  }

  /** Queues Stop-hook and usage events from the pane's session state when they changed. */
  readHooks(): void {
    const h = this.session.read();
    if (!h) return;
    if (h.session_id !== this.sessionId) {
      this.sessionId = h.session_id;
      this.dirty = true;
    }
    if (h.last_stop_ms !== null && h.last_stop_ms !== this.lastStop) {
      this.lastStop = h.last_stop_ms;
      this.queue.push({ type: "stop_hook", at: h.last_stop_ms });
    }
    const t = h.transcript_path ? fileStamp(h.transcript_path) : undefined;
    const key = `${h.session_id} ${h.used_pct} ${h.updated_ms} ${t?.key ?? ""}`;
    if (key === this.lastUsageKey) return;
    this.lastUsageKey = key;
    // The transcript is the freshest source (the hooks may not have read it yet); the hooks' figure is the fallback.
    const fromTranscript = h.transcript_path ? this.o.transcriptPct(h.transcript_path, h.session_id) : undefined;
    const pct = fromTranscript !== undefined && fromTranscript > 0 ? fromTranscript : h.used_pct;
    if (pct !== null) this.queue.push({ type: "usage", pct, at: Math.max(h.updated_ms, t?.mtime ?? 0) });
  }

  async feed(ev: RespawnEvent): Promise<void> {
    const t = transition(this.state, ev, this.o.now());
    if (t.state.phase !== this.state.phase || t.state.cycles !== this.state.cycles) this.dirty = true;
    this.state = t.state;
    for (const a of t.actions) await this.act(a);
  }

  async act(a: RespawnAction): Promise<void> {
    const o = this.o;
    switch (a.type) {
      case "record":
        return this.record(a.event, a.detail);
      case "notify":
        o.log(a.message.replace(/^ctx respawn: /, ""));
        return o.tmux.message(o.target, a.message);
      case "send_text":
        if (a.text === "/clear" && this.summaryPath) {
          writePending(o.root, this.summaryPath, o.now());
          this.summaryPath = null;
        }
        // A newline typed into the input box would submit half the prompt: one line only.
        return o.tmux
          .sendText(o.target, a.text.replace(/\s*\n\s*/g, " "), o.enterDelayMs)
          .catch((e) => this.record("send_failed", String(e)));
      case "send_keys":
        return o.tmux.sendKeys(o.target, a.keys).catch((e) => this.record("send_failed", String(e)));
      case "finalize":
        return void this.finalize();
      case "ai_check":
        return void runAiCheck({
          claude: o.claude,
          env: o.env,
          screen: this.prevText,
          timeoutMs: o.settings.aiCheckTimeoutMs,
        }).then((r) =>
          this.queue.push({ type: "ai_verdict", verdict: r.verdict, ...(r.detail ? { detail: r.detail } : {}) }),
        );
      case "exit":
        this.done = true;
        return;
    }
  }

  async finalize(): Promise<void> {
    const o = this.o;
    try {
      this.summaryPath = await runFinalize({
        project: o.project,
        env: o.env,
        sessionId: this.sessionId,
        timeoutMs: o.settings.stepTimeoutMs,
      });
      this.record("summary", this.summaryPath);
      this.queue.push({ type: "finalize_done", ok: true });
    } catch (err) {
      this.queue.push({ type: "finalize_done", ok: false, detail: (err as Error).message });
    }
  }

  record(event: string, detail?: string): void {
    const entry: RespawnLogEntry = { at: new Date(this.o.now()).toISOString(), event, ...(detail ? { detail } : {}) };
    this.events.push(entry);
    if (this.events.length > MAX_EVENTS) this.events.splice(0, this.events.length - MAX_EVENTS);
    this.o.log(`${entry.at} ${event}${detail ? `: ${detail}` : ""}`);
    this.dirty = true;
  }

  persist(force: boolean): void {
    const now = this.o.now();
    if (!force && !this.dirty && now - this.lastWrite < HEARTBEAT_MS) return;
    const o = this.o;
    const s = this.state;
    const rec: RespawnRecord = {
      version: 1,
      name: o.name,
      pid: process.pid,
      target: o.target,
      project: o.project,
      root: o.root,
      phase: s.phase,
      cycles: s.cycles,
      reason: s.reason,
      brake: s.brake,
      session_id: this.sessionId,
      used_pct: s.usage?.pct ?? null,
      started_at: this.startedAt,
      updated_at: new Date(now).toISOString(),
      events: this.events,
      machine: { ...s, screen: s.screen },
    };
    try {
      writeRecord(rec);
      // After /clear the old session is no longer supervised: its entry says so.
      if (this.indexedSid && this.indexedSid !== this.sessionId) setRespawn(o.env, this.indexedSid, o, null);
      this.indexedSid = this.sessionId;
      if (this.sessionId)
        setRespawn(o.env, this.sessionId, o, {
          name: o.name,
          state: s.phase,
          cycles: s.cycles,
          reason: s.reason,
          state_path: `${o.root}/state/respawn/${o.name}.json`,
          updated_at: rec.updated_at,
        });
    } catch (err) {
      o.log(`cannot write the respawn record: ${(err as Error).message}`);
    }
    this.lastWrite = now;
    this.dirty = false;
  }
}
