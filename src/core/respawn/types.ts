/**
 * Types of the respawn supervisor's state machine `transition(state, event, now) -> { state, actions }`
 * (machine.ts); the driver (src/io/respawn/driver.ts) feeds it events and carries out actions.
 */
import type { ScreenState } from "../screen.ts";
import type { Verdict } from "./ai-check.ts";
import type { LimitWait } from "./limit.ts";

/** `context`: act near the context limit. `keep-working`: cycle on every idle (Codeman's mode). */
export type RespawnMode = "context" | "keep-working";

/** The settings the machine runs with, resolved from the `respawn.*` config keys. */
export interface RespawnSettings {
  /** The strategy. */
  mode: RespawnMode;
  /** Used % at which an idle session is compacted; false = never compact. */
  compactAt: number | false;
  /** Used % at which the full cycle runs (after a compaction that did not help, or when compaction is off); false = never. */
  restartAt: number | false;
  /** At most this many cycles start in any 60-minute window. */
  maxCyclesPerHour: number;
  /** No new cycle starts within this long after the last one ended. */
  cooldownMs: number;
  /** The full `/compact …` command line. */
  compactPrompt: string;
  /** Keep-working: the prompt sent first ("" = skip the step). */
  updatePrompt: string;
  /** The prompt sent last, after `/clear` ("" = skip the step). */
  kickstartPrompt: string;
  /** The prompt sent once `/compact` is done, so the agent goes on with its next step ("" = skip the step). */
  compactContinuePrompt: string;
  /** Keep-working: send `/clear` in the cycle. */
  sendClear: boolean;
  /** Send `/init` after `/clear`. */
  sendInit: boolean;
  /** Press Enter on a plan-approval menu (never on permission prompts or questions). */
  autoAcceptPlans: boolean;
  /** Confirm an output-silence idle with a `claude -p` verdict. */
  aiCheck: boolean;
  /** Longest wait for one AI verdict. */
  aiCheckTimeoutMs: number;
  /** No new AI check within this long after a WORKING verdict. */
  aiCheckCooldownMs: number;
  /** Quiet period (no screen change) that confirms an idle signal or a finished step. */
  quietMs: number;
  /** Output silence after which a pane showing the empty prompt counts as idle. */
  silenceMs: number;
  /** Longest wait for one step to be confirmed before recovery. */
  stepTimeoutMs: number;
  /** A cycle (or AI check) lasting longer than this is abandoned: recovery back to watching. */
  stuckTimeoutMs: number;
  /** After a compaction, the wait for a newer usage reading; then the latest decides (a no-op `/compact` writes none). */
  progressWaitMs: number;
  /** `limits.checkpoint_at`: from this % of the 5-hour usage window no cycle starts before its reset (false = off). */
  checkpointAt?: number | false;
  /** At the usage limit: nothing is typed before the reset plus this margin. */
  limitMarginMs: number;
  /** Typed at the idle input box once the limit has reset ("" = type nothing). */
  limitContinuePrompt: string;
}

/** One step of a cycle. */
export type StepKind = "update" | "compact" | "finalize" | "clear" | "init" | "kickstart";

/** A step and the text it types (none for `finalize`, which runs `ctx finalize`). */
export interface Step {
  /** What the step does. */
  kind: StepKind;
  /** The text typed into the client, then Enter. */
  text?: string;
}

/** Which cycle runs: `compact`, `restart` (finalize, /clear, kickstart) or `keep-working`. */
export type CycleKind = "compact" | "restart" | "keep-working";

/** A cycle in progress. */
export interface Cycle {
  /** Which cycle. */
  kind: CycleKind;
  /** Its steps, in order. */
  steps: Step[];
  /** Index of the current step in `steps`. */
  index: number;
  /** When the cycle started (ms). */
  startedAt: number;
  /** When the current step was sent (ms). */
  stepStartedAt: number;
  /** The client was seen busy since the step was sent. */
  sawBusy: boolean;
  /** The screen changed since the step was sent. */
  sawChange: boolean;
  /** Enter was pressed again once for this step (the first one was taken as a newline). */
  retried: boolean;
  /** The used % that triggered the cycle (null when unknown or keep-working). */
  trigger: number | null;
  /** When the step that resets the context (`compact`, `clear`) was confirmed, or null. */
  resetAt: number | null;
  /** The summary `ctx finalize` wrote in this cycle: handed over to the session `/clear` starts. */
  summaryPath: string | null;
}

/** The phases. See docs/respawn.md for the diagram. */
export type Phase = Working | "halted" | "stopped";
type Working = "watching" | "confirming_idle" | "ai_checking" | "idle" | "cycling" | "limited";

/** What made the machine believe the client is idle. */
export type IdleSignal = "stop_hook" | "completion" | "silence" | "ai_check";

/** The latest usage reading from the hooks' state. */
export interface UsageReading {
  /** Used % of the context window. */
  pct: number;
  /** When the hooks wrote it (ms). */
  at: number;
}

/** The last finished (or abandoned) cycle. */
export interface LastCycle {
  /** Which cycle. */
  kind: CycleKind;
  /** When it ended (ms). */
  endedAt: number;
  /** The used % that triggered it (null = no progress check). */
  trigger: number | null;
  /** False when it was abandoned (timeout, failure). */
  ok: boolean;
  /** Usage readings written after this time reflect the cycle (the no-progress check). */
  freshAfter: number;
}

/** The machine's whole state: serialisable JSON. */
export interface RespawnState {
  /** Format version. */
  version: 1;
  /** The settings in force. */
  settings: RespawnSettings;
  /** The current phase. */
  phase: Phase;
  /** When the phase was entered (ms). */
  phaseSince: number;
  /** The latest screen, classified (null before the first capture). */
  screen: ScreenState | null;
  /** When the screen text last changed (ms). */
  lastChangeAt: number;
  /** When the client was last seen busy (ms), or null. */
  lastBusyAt: number | null;
  /** The latest Stop hook time (`last_stop_at`), or null. */
  lastStopAt: number | null;
  /** When the machine last acted or settled an idle; idle signals older than this are spent. */
  handledAt: number;
  /** The latest usage reading, or null. */
  usage: UsageReading | null;
  /** When the used % last changed (token stability), or null. */
  usageChangedAt: number | null;
  /** What confirmed (or is confirming) the idle. */
  idleSignal: IdleSignal | null;
  /** The cycle in progress. */
  cycle: Cycle | null;
  /** Start times of the cycles of the last hour (the hourly cap). */
  cycleStarts: number[];
  /** Cycles finished since the supervisor started. */
  cycles: number;
  /** The last cycle, or null. */
  lastCycle: LastCycle | null;
  /** The first fresh usage after the last cycle has not come yet (it decides the no-progress check). */
  awaitingProgress: boolean;
  /** Cycles in a row after which usage was back at the trigger. */
  noProgress: number;
  /** No new cycle before this time (ms). */
  cooldownUntil: number;
  /** The 5-hour usage window at `limits.checkpoint_at` and not yet reset: no cycle before its reset. */
  usageWindow?: { usedPct: number; resetsMs: number | null } | null;
  /** The brake currently holding a cycle back (reported once), or null. */
  brake: string | null;
  /** AI check bookkeeping. */
  ai: { errors: number; disabled: boolean; cooldownUntil: number };
  /** When a plan menu was last accepted (ms), or null. */
  planAcceptedAt: number | null;
  /** Why the supervisor halted or stopped, or null. */
  reason: string | null;
  /** The usage limit being waited out (phase `limited`), or null. */
  limit: LimitWait | null;
  /** Limits in a row without a turn going through in between (the back-off). */
  limitRepeat: number;
}

/** What the driver feeds the machine. */
export type RespawnEvent =
  | { type: "screen"; screen: ScreenState; changed: boolean }
  | { type: "stop_hook"; at: number }
  | { type: "usage"; pct: number; at: number }
  | { type: "usage_window"; window: { usedPct: number; resetsMs: number | null } | null }
  // The usage limit, from the hooks' state (StopFailure) or the pane (the limit menu opened).
  | { type: "limit"; message: string; resetsAt: number | null }
  | { type: "tick" }
  | { type: "finalize_done"; ok: boolean; detail?: string; summaryPath?: string }
  | { type: "ai_verdict"; verdict: Verdict; detail?: string }
  | { type: "pane_gone" }
  | { type: "stop"; reason: string };

/** What the machine asks the driver to do. */
export type RespawnAction =
  | { type: "send_text"; text: string }
  | { type: "send_keys"; keys: string[] }
  | { type: "finalize" }
  // Write the hand-over (state/respawn-pending.json): the next SessionStart injects this summary.
  | { type: "handover"; summaryPath: string }
  | { type: "ai_check" }
  // Tell the user: logged, and shown in tmux as `ctx respawn: <message>`.
  | { type: "notify"; message: string }
  | { type: "record"; event: string; detail?: string }
  | { type: "exit"; reason: string };

/** The result of one transition. */
export interface Transition {
  /** The next state. */
  state: RespawnState;
  /** What to do, in order. */
  actions: RespawnAction[];
}
