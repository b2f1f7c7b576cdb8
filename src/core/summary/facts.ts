import type { TranscriptCompaction } from "../compaction.ts";
import { emptySessionTools, type SessionTools } from "../plan-tools.ts";
import { ring, type Ring } from "./ring.ts";
import type { TrackerState } from "./tracker.ts";

export type { CommandItem, ErrorItem, FileItem, TaskItem } from "./items.ts";
import type { CommandItem, ErrorItem, FileItem, TaskItem } from "./items.ts";

/** Everything the summary says, gathered in one streaming pass over the transcript. */
export interface Facts {
  /** The transcript line being read (1-based; 0 when the reader gives none). */
  line: number;
  /** The newest `timestamp` seen (ms), the time of a line that has none. */
  lineAt: number;
  /** Lines and times (ms) of the goal and of the newest real request (requests are ordered by time). */
  goalLines: number[];
  goalAt: number;
  latestLines: number[];
  latestAt: number;
  /** The line of each of `agentTexts`, oldest first. */
  decisionLines: Ring<number>;
  /** The line of `lastStep`. */
  lastStepLine: number;
  /** The line of the newest main-chain assistant message (text or tool call). */
  lastAgentLine: number;
  /** The line of the newest main-chain tool call or tool result (open-work.ts: a turn that ended on one). */
  lastToolLine: number;
  /** The line of the newest interrupt by the user (an interrupt line, Codex `turn_aborted`), or 0. */
  interruptLine: number;
  /** Lines of the newest turn's start and end where the client marks them (Codex `task_started`, `task_complete`). */
  turnMarks: { started: number; ended: number };
  /** The step (tool results before it) of the newest success per program and subcommand (`prog:git push`) and per target (`target:src/a.ts`). */
  okAt: Map<string, number>;
  /** Failed calls that tried to achieve something (a failureKey), shown or not. */
  attempts: number;
  /** Tool calls that were steps of the work: not a lookup (errors.ts `isLookup`). */
  workSteps: number;
  /** The line of the newest successful `git commit` (0: none). */
  lastCommitLine: number;
  /** Successful version-control commands (core/summary/asked.ts): each one's line and the steps it took. */
  vcs: Array<{ line: number; steps: string[] }>;
  /** The newest plan (ExitPlanMode) the user turned down and no later plan was approved, with its line. */
  planTurnedDown: { title: string; line: number } | null;
  /** Prompts queued while the agent worked and not delivered yet (queue.ts). */
  waiting: { text: string; at: number; line: number; removed: boolean }[];
  /** Background work started and not seen finished: tool_use id → what and where (open-work.ts). */
  background: Map<string, { what: string; line: number; task?: string }>;
  /** How the transcript began when it continues earlier work: a compaction summary or a plan to implement. */
  midStory: { kind: "compaction" | "plan"; line: number; previous?: string } | null;
  /** The tools the transcript shows the session had (core/plan-tools.ts). */
  tools: SessionTools;
  /** The agent's newest text message as written, and its line (remaining.ts). */
  lastWordsText: { text: string; line: number } | null;
  /** The newest agent message (or ExitPlanMode plan) holding a numbered or checkbox list (plan.ts). */
  planText: { text: string; line: number; report?: boolean } | null;
  firstRequest: string | null;
  lastRequest: string | null;
  /** ctx's own prompts (kickstart, update, compact): never a goal (see goal.ts). */
  ownPrompts: string[];
  /** The first real request: not one of ctx's prompts, not a "continue". */
  goal: string | null;
  /** The newest real request. */
  latestReal: string | null;
  /** The agent message the newest real request answers, when that request is short (requests.ts), and its line. */
  latestAnswers: string | null;
  latestAnswersLine: number;
  /** The user's message that agent message replied to, when it was short: the exchange a short reply continues. */
  latestFollows: string | null;
  /** Prompts queued while the agent worked, not yet seen again as a user line (deduped on that). */
  queued: string[];
  /** Shell commands the user ran with `!` (never requests), oldest first. */
  userShell: Ring<string>;
  /** Times the user interrupted the agent. */
  interrupts: number;
  /** The tool call the user stopped last (Esc at it), or null. */
  stoppedAt: string | null;
  /** Tool calls and plans the user turned down, with their feedback, oldest first. */
  rejections: Ring<string>;
  /** Agent text messages since the newest user request (a rejection marks them). */
  turnTexts: number;
  /** The agent's newest text messages (at most three), oldest first: its decisions and reasons. */
  agentTexts: Ring<string>;
  /** Failures no later call resolved, by failureKey (errors.ts), each the newest attempt of its intent, oldest first. */
  unresolved: Map<string, ErrorItem>;
  /** What succeeded calls achieved and no later failure undid (successKeys, bounded): resolves errors of earlier sessions. */
  succeeded: Set<string>;
  /** The newest step that changed something: an edit or write, or a command that is not a pure read. */
  lastStep: string | null;
  /** Requests typed by the user (main chain, not tool results or meta lines). */
  userRequests: number;
  /** The agent's newest text message. */
  lastAgentText: string | null;
  /** Changed files by path, the most recently changed last. */
  files: Map<string, FileItem>;
  /** Files dropped from `files` to bound memory. */
  filesDropped: number;
  errors: Ring<ErrorItem>;
  commands: Ring<CommandItem>;
  /** Task-tool tasks by id. */
  tasks: Map<string, TaskItem>;
  /** A command-line tracker the session used (`bd`, `gh issue`, …) and its last listing, or null. */
  tracker: TrackerState | null;
  /** The lines of the tracker's last listing and of the closes and creates after it (command-steps.ts). */
  trackerLines: number[];
  /** The latest TodoWrite snapshot (older clients), or null. */
  todos: TaskItem[] | null;
  /** A description of the newest tool call that succeeded. */
  lastSuccess: string | null;
  /** Successful tool calls. */
  successes: number;
  /** Tool calls (results seen). */
  toolResults: number;
  /** Compaction boundaries seen. */
  compactions: number;
  /** Each compaction with its trigger (auto, manual, idle), oldest first (core/compaction.ts). */
  compactionList: TranscriptCompaction[];
  /** Sidechain (subagent) lines seen. */
  sidechainLines: number;
  /** Transcript lines no client's decoder claimed (reported, never read as another client's). */
  unclaimedLines: number;
  /** The largest context of a main-chain request (input + cache creation + cache read). */
  peakTokens: number;
  /** The context of the newest main-chain request (or the size after the newest compaction). */
  latestTokens: number;
  /** When that request's line was written (ms), 0 when the line has no timestamp. */
  latestAtMs: number;
  /** A Codex rollout: the context figures before its newest token_count (undone when a compaction follows). */
  codexBefore?: { peak: number; latest: number; at: number };
  /** A Codex rollout: the newest user message that began with a tag, until its `user_message` event (if any). */
  codexTagged?: string;
  /** The model of the newest main-chain request. */
  model: string | null;
  /** The window the transcript itself records for its newest turn (a Codex rollout's `model_context_window`), or 0. */
  windowSize: number;
  /** Tool calls waiting for their result: id → name and input. */
  pending: Map<string, { name: string; input: Record<string, unknown>; line?: number }>;
}

/** Most files remembered; older ones are counted in filesDropped. */
export const MAX_FILES = 2000;
/** Most pending tool calls remembered (a result may never come). */
export const MAX_PENDING = 5000;

/** Empty facts; `ownPrompts` are ctx's configured prompts, never taken for the goal. */
export function emptyFacts(ownPrompts: string[] = []): Facts {
  return {
    line: 0,
    lineAt: 0,
    goalLines: [],
    goalAt: 0,
    latestLines: [],
    latestAt: 0,
    decisionLines: ring(3),
    lastStepLine: 0,
    lastAgentLine: 0,
    lastToolLine: 0,
    interruptLine: 0,
    turnMarks: { started: 0, ended: 0 },
    okAt: new Map(),
    attempts: 0,
    workSteps: 0,
    lastCommitLine: 0,
    vcs: [],
    planTurnedDown: null,
    waiting: [],
    background: new Map(),
    midStory: null,
    tools: emptySessionTools(),
    planText: null,
    lastWordsText: null,
    firstRequest: null,
    lastRequest: null,
    ownPrompts,
    goal: null,
    latestReal: null,
    latestAnswers: null,
    latestAnswersLine: 0,
    latestFollows: null,
    queued: [],
    userShell: ring(5),
    interrupts: 0,
    stoppedAt: null,
    rejections: ring(5),
    turnTexts: 0,
    agentTexts: ring(3),
    unresolved: new Map(),
    succeeded: new Set(),
    lastStep: null,
    userRequests: 0,
    lastAgentText: null,
    files: new Map(),
    filesDropped: 0,
    errors: ring(40),
    commands: ring(40),
    tasks: new Map(),
    tracker: null,
    trackerLines: [],
    todos: null,
    lastSuccess: null,
    successes: 0,
    toolResults: 0,
    compactions: 0,
    compactionList: [],
    sidechainLines: 0,
    unclaimedLines: 0,
    peakTokens: 0,
    latestTokens: 0,
    latestAtMs: 0,
    model: null,
    windowSize: 0,
    pending: new Map(),
  };
}
