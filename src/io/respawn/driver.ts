/**
 * The thin driver around the pure respawn machine: it polls the pane
 * (capture-pane) and the hooks' state, feeds screen, Stop-hook, usage and tick
 * events, carries out the actions, and persists the record. Every decision is
 * the machine's (`core/respawn/`): the driver only reads, types and writes.
 */
import { nativeAutoContinue } from "../settings-applied.ts";
import { nearReset } from "../../core/rate-limits.ts";
import { readRateLimits } from "../session/rate-limits.ts";
import { type HookMemory, observeHooks, startMemory } from "../../core/respawn/hooks.ts";
import { initialState, transition } from "../../core/respawn/machine.ts";
import { statusChanged } from "../../core/respawn/record.ts";
import type { RespawnAction, RespawnEvent, RespawnSettings, RespawnState } from "../../core/respawn/types.ts";
import { classifyScreen, limitFromPane } from "../../core/screen.ts";
import { parseResetTime } from "../../core/limit.ts";
import { stripAnsi } from "../../core/terminal.ts";
import { abortableSleep as sleep } from "../process/sleep.ts";
import { writePending } from "../resume/state.ts";
import { runAiCheck, runFinalize } from "./actions.ts";
import { PaneSession } from "./binding.ts";
import { checkPaneClient, type PaneClient } from "./foreground.ts";
import { fileChange } from "./poll.ts";
import { Recorder } from "./recorder.ts";
import type { Tmux } from "./tmux.ts";
import type { Env } from "../../core/deps.ts";

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

/** Runs the supervisor until it stops (signal, pane gone); returns its final state. */
export async function runDriver(o: DriverOptions): Promise<RespawnState> {
  return new Driver(o).loop();
}

// --- internal ---

/** The limit event of a pane showing the limit: its newest limit line, the reset read from it. */
function paneLimit(line: string | undefined, now: number): RespawnEvent {
  const message = line ?? "usage limit (shown in the pane)";
  return { type: "limit", message, resetsAt: parseResetTime(message, now) };
}

class Driver {
  private state: RespawnState;
  /** Events that came between two polls (hooks, child processes), fed after the screen. */
  private readonly queue: RespawnEvent[] = [];
  /** The pane's text at the last capture. */
  private screen = "";
  private hooks: HookMemory = startMemory(undefined);
  /** The hooks' state of the session running in the pane (bound when the loop starts). */
  private session!: PaneSession;
  private readonly recorder: Recorder;
  private done = false;
  /** The Claude Code process keystrokes go to: found at the first one, the same one from then on. */
  private client: PaneClient | undefined;
  /** Set once the pane's foreground was not that client: nothing is typed any more. */
  private refused = false;
  /** The usage-limit menu or notice was shown at the last capture. */
  private limitShown = false;

  constructor(private readonly o: DriverOptions) {
    // the client's own "continue automatically at usage limit" is on: ctx never continues a second time
    const native = nativeAutoContinue(o.env, o.project) ? { limitContinuePrompt: "" } : {};
    this.state = initialState({ ...o.settings, ...native }, o.now());
    const who = { name: o.name, pid: process.pid, target: o.target, project: o.project, root: o.root };
    this.recorder = new Recorder({ ...who, started_at: new Date(o.now()).toISOString() }, o.env, o.now, o.log);
  }

  async loop(): Promise<RespawnState> {
    await this.bind();
    this.hooks = startMemory(this.session.read());
    while (!this.done) {
      if (this.o.signal.aborted) await this.feed({ type: "stop", reason: "signal" });
      else await this.poll();
      this.recorder.persist(this.state, this.hooks.sessionId, false);
      if (!this.done) await sleep(this.o.pollMs, this.o.signal);
    }
    this.recorder.persist(this.state, this.hooks.sessionId, true);
    return this.state;
  }

  private async poll(): Promise<void> {
    const text = await this.o.tmux.capture(this.o.target).catch(() => undefined);
    if (text === undefined) return this.feed({ type: "pane_gone" });
    // The pane's command was replaced (respawn-pane): follow its new process.
    if (this.session.replaced()) {
      this.client = undefined; // a new command in the pane: its client is found again
      await this.bind();
    }
    const changed = text !== this.screen;
    this.screen = text;
    const screen = classifyScreen(text);
    await this.feed({ type: "screen", screen, changed });
    // The limit menu (or a newer client's limit notice) appearing is the pane's word for the usage limit.
    const pane = limitFromPane(stripAnsi(text));
    const shown = pane.menu || pane.notice;
    if (shown && !this.limitShown) this.queue.push(paneLimit(pane.message, this.o.now()));
    this.limitShown = shown;
    // the 5-hour window at limits.checkpoint_at holds back any cycle until its reset (the brake usage_window)
    const near = nearReset(readRateLimits(this.o.env)?.limits, this.o.settings.checkpointAt ?? false, this.o.now());
    this.queue.push({ type: "usage_window", window: near ?? null });
    this.readHooks();
    for (let ev = this.queue.shift(); ev && !this.done; ev = this.queue.shift()) await this.feed(ev);
    if (!this.done) await this.feed({ type: "tick" });
  }

  /** Binds to the pane's process (`#{pane_pid}`; 0 when unknown: then no session matches). */
  private async bind(): Promise<void> {
    const info = await this.o.tmux.paneInfo(this.o.target).catch(() => undefined);
    this.session = new PaneSession(this.o.root, info?.pid ?? 0, this.o.now);
    // The client attached to (or started, once its launcher exec'd it): only it is typed to.
    const fg = info && !this.client ? checkPaneClient(info.pid) : undefined;
    if (fg?.ok) this.client = fg.client;
  }

  /** Queues the Stop-hook and usage events the pane's session state gives. */
  private readHooks(): void {
    const h = this.session.read();
    if (!h) return;
    const path = h.transcript_path;
    const pct = () => (path ? this.o.transcriptPct(path, h.session_id) : undefined);
    const seen = observeHooks(this.hooks, h, path ? fileChange(path) : undefined, pct);
    if (seen.memory.sessionId !== this.hooks.sessionId) this.recorder.touch();
    this.hooks = seen.memory;
    this.queue.push(...seen.events);
  }

  /** Queues an event for the next poll. */
  private readonly later = (ev: RespawnEvent): void => void this.queue.push(ev);

  private async feed(ev: RespawnEvent): Promise<void> {
    const t = transition(this.state, ev, this.o.now());
    if (statusChanged(this.state, t.state)) this.recorder.touch();
    this.state = t.state;
    for (const a of t.actions) await this.act(a);
  }

  private async act(a: RespawnAction): Promise<void> {
    const o = this.o;
    const failed = (e: unknown) => this.recorder.note("send_failed", String(e));
    switch (a.type) {
      case "record":
        return this.recorder.note(a.event, a.detail);
      case "notify":
        o.log(a.message);
        return o.tmux.message(o.target, `ctx respawn: ${a.message}`);
      case "handover":
        return writePending(o.root, a.summaryPath, o.now());
      case "send_text":
        if (!(await this.clientInFront())) return;
        return o.tmux.sendText(o.target, a.text, o.enterDelayMs).catch(failed);
      case "send_keys":
        if (!(await this.clientInFront())) return;
        return o.tmux.sendKeys(o.target, a.keys).catch(failed);
      // The slow ones run in the background: their outcome comes back as an event.
      case "finalize":
        return void runFinalize({
          project: o.project,
          env: o.env,
          sessionId: this.hooks.sessionId,
          timeoutMs: o.settings.stepTimeoutMs,
        }).then(this.later);
      case "ai_check":
        return void runAiCheck({
          claude: o.claude,
          env: o.env,
          screen: this.screen,
          timeoutMs: o.settings.aiCheckTimeoutMs,
        }).then(this.later);
      case "exit":
        this.done = true;
        return;
    }
  }

  /**
   * True when the pane's foreground process is the Claude Code this supervisor types to
   * (foreground.ts). Otherwise nothing is typed: the record says why (`not_claude`), the user is
   * told (log and tmux message), and supervision stops.
   */
  private async clientInFront(): Promise<boolean> {
    if (this.refused) return false;
    const info = await this.o.tmux.paneInfo(this.o.target).catch(() => undefined);
    const check = info ? checkPaneClient(info.pid, this.client) : { ok: false as const, why: "the pane is gone" };
    if (check.ok) {
      this.client = check.client;
      return true;
    }
    this.refused = true;
    const why = `not typing: ${check.why}`;
    this.recorder.note("not_claude", check.why);
    await this.o.tmux.message(this.o.target, `ctx respawn: ${why}; supervision stopped`);
    this.queue.push({ type: "stop", reason: why });
    return false;
  }
}
