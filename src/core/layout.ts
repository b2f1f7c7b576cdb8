/**
 * Where every state file lives: the one map of docs/state.md's "Where" table
 * (`test/core/layout.test.ts` checks the two agree). `layout(root)` is a
 * project's state root (`CTX_DIR`, else `<project>/.ctx`), `userLayout(env)` the
 * per-user state and the bridge file. A session id becomes a path only through
 * `sessionFile` (`isValidSessionId`): an unsafe id gives undefined, never a path.
 */
import { sessionFile } from "./paths.ts";
import { join, normalize } from "./pathx.ts";
import { isValidSessionId } from "./session-id.ts";

/**
 * The folders under a state root, relative to it: what `ensureDirUnder` and
 * `realDirsUnder` (io/fs/dirs.ts) check level by level before a write or a read.
 */
export const STATE_DIRS = {
  /** Hooks' working state. */
  state: "state",
  /** Per-session state, `state/sessions/<sid>.json`. */
  sessionsState: "state/sessions",
  /** The monitor's debounce state and markers. */
  monitor: "state/monitor",
  /** The respawn supervisors' records and logs. */
  respawn: "state/respawn",
  /** Git snapshots at a session's start. */
  gitStart: "state/git-start",
  /** The cached client choice per session. */
  window: "state/window",
  /** Pause logs, finalized session records, summaries. */
  records: "sessions",
  /** Compaction events. */
  events: "events",
} as const;

/**
 * The names of the files of `sessions/` and `events/` (and the bridge file's), built and
 * recognised here only: `test/architecture.test.ts` finds any other spelling of them in src/.
 */
export const STATE_NAMES = {
  /** `session-<stamp>`: the base of a session record's `.json`, `.yaml`, `.md` and `-incremental.jsonl`. */
  record: (stamp: string): string => `session-${stamp}`,
  /** The `YYYYMMDDHHMMSS` of a session record's file name, or undefined for another name. */
  recordStamp(name: string): string | undefined {
    const m = /^session-(\d{8})-(\d{6})(?:\.json|\.yaml|\.md|-incremental\.jsonl)$/.exec(name);
    return m ? `${m[1]}${m[2]}` : undefined;
  },
  /** `session-compressed-<stamp>.json`: a compaction event. */
  compaction: (stamp: string): string => `session-compressed-${stamp}.json`,
  /** True for a compaction event's name. */
  isCompaction: (name: string): boolean => /^session-compressed-[A-Za-z0-9_.:-]+\.json$/.test(name),
  /** The session of a pause log's name (`ACTIVE-PAUSE-<sid>.jsonl`), or undefined. */
  pauseLogSession: (name: string): string | undefined => /^ACTIVE-PAUSE-(.+)\.jsonl$/.exec(name)?.[1],
  /** `summary-<task_id>-<stamp>.md`. */
  summary: (taskId: string, stamp: string): string => `summary-${taskId}-${stamp}.md`,
  /** True for a summary's name (stamped or not). */
  isSummary: (name: string): boolean => /^summary-.+\.md$/.test(name),
  /** The task id of a stamped summary's name (`summary-<task>-<YYYYMMDD>-<HHMMSS>.md`), or undefined. */
  summaryTask: (name: string): string | undefined => /^summary-(.+)-\d{8}-\d{6}\.md$/.exec(name)?.[1],
  /** The session of a bridge file's name (`claude-ctx-<sid>.json`), or undefined. */
  bridgeSession: (name: string): string | undefined => /^claude-ctx-(.+)\.json$/.exec(name)?.[1],
} as const;

/** The folder of the per-user index under `userLayout(env).dir`. */
export const INDEX_DIR = "sessions";

/** A project's state layout: absolute paths under its root. */
export interface Layout {
  /** The state root itself. */
  root: string;
  /** `state/`. */
  state: string;
  /** `state/sessions/`: per-session state. */
  sessionsState: string;
  /** `state/context-usage.json`: a copy of the latest session's state. */
  contextUsage: string;
  /** `state/monitor/`. */
  monitor: string;
  /** `state/respawn/`. */
  respawn: string;
  /** `state/respawn-pending.json`: the summary the next SessionStart must inject. */
  respawnPending: string;
  /** `state/resume-ledger.json`: summaries already injected. */
  resumeLedger: string;
  /** `state/git-start/`. */
  gitStart: string;
  /** `state/retention.json`: when `ctx prune` last ran here, and what it removed. */
  retention: string;
  /** `state/retention.claim`: held while a SessionStart starts the background `ctx prune`. */
  retentionClaim: string;
  /** `state/window/`. */
  window: string;
  /** `sessions/`: pause logs, session records, summaries. */
  records: string;
  /** `sessions/LATEST-SESSION.txt`: the name of the newest session record. */
  latestSession: string;
  /** `events/`: compaction events. */
  events: string;
  /** `token-ledger.json`: per-task token totals. */
  tokenLedger: string;
  /** `state/sessions/<sid>.json`, or undefined for an unsafe id. */
  stateFile(sessionId: unknown): string | undefined;
  /** `state/sessions/<sid>.json.finalize.lock`: held while `ctx finalize` writes the session's summary. */
  finalizeLock(sessionId: unknown): string | undefined;
  /** `state/monitor/<sid><suffix>` (`.json`: the debounce state), or undefined for an unsafe id. */
  monitorFile(sessionId: unknown, suffix?: string): string | undefined;
  /** `state/monitor/<sid>.finalize`: a finalize already ran for the current critical crossing. */
  finalizeMarker(sessionId: unknown): string | undefined;
  /** `state/monitor/<sid>.mod.json`: the newest figure ctx's Claude Code mod gave (the session runs under it). */
  modFile(sessionId: unknown): string | undefined;
  /** `state/git-start/<sid>.json`, or undefined for an unsafe id. */
  gitStartFile(sessionId: unknown): string | undefined;
  /** `state/window/<sid>.json`, or undefined for an unsafe id. */
  windowFile(sessionId: unknown): string | undefined;
  /** `sessions/ACTIVE-PAUSE-<sid>.jsonl`, or undefined for an unsafe id. */
  pauseLog(sessionId: unknown): string | undefined;
  /** `sessions/summary-<task_id>-<stamp>.md`. */
  summary(taskId: string, stamp: string): string;
  /** `state/respawn/<name>.json`: supervisor `name`'s record (the caller checks the name). */
  respawnRecord(name: string): string;
  /** `state/respawn/<name>.log`: its output. */
  respawnLog(name: string): string;
}

/**
 * The layout under state root `root` (see docs/state.md). The last one is kept: a hook asks for the
 * same root many times, and building every path each time showed in the monitor's start-up cost.
 */
export function layout(root: string): Layout {
  if (lastLayout?.root !== root) lastLayout = buildLayout(root);
  return lastLayout;
}

let lastLayout: Layout | undefined;

function buildLayout(root: string): Layout {
  const at = (...parts: string[]): string => normalize(join(root, ...parts));
  const sessionsState = at(STATE_DIRS.sessionsState);
  const monitor = at(STATE_DIRS.monitor);
  const respawn = at(STATE_DIRS.respawn);
  const gitStart = at(STATE_DIRS.gitStart);
  const window = at(STATE_DIRS.window);
  const records = at(STATE_DIRS.records);
  const stateFile = (sid: unknown) => sessionFile(sessionsState, sid);
  return {
    root,
    state: at(STATE_DIRS.state),
    sessionsState,
    contextUsage: at(STATE_DIRS.state, "context-usage.json"),
    monitor,
    respawn,
    respawnPending: at(STATE_DIRS.state, "respawn-pending.json"),
    resumeLedger: at(STATE_DIRS.state, "resume-ledger.json"),
    gitStart,
    retention: at(STATE_DIRS.state, "retention.json"),
    retentionClaim: at(STATE_DIRS.state, "retention.claim"),
    window,
    records,
    latestSession: join(records, "LATEST-SESSION.txt"),
    events: at(STATE_DIRS.events),
    tokenLedger: at("token-ledger.json"),
    stateFile,
    finalizeLock: (sid) => sessionFile(sessionsState, sid, ".json.finalize.lock"),
    monitorFile: (sid, suffix = ".json") => sessionFile(monitor, sid, suffix),
    finalizeMarker: (sid) => sessionFile(monitor, sid, ".finalize"),
    modFile: (sid) => sessionFile(monitor, sid, ".mod.json"),
    gitStartFile: (sid) => sessionFile(gitStart, sid),
    windowFile: (sid) => sessionFile(window, sid),
    pauseLog: (sid) => (isValidSessionId(sid) ? join(records, `ACTIVE-PAUSE-${sid}.jsonl`) : undefined),
    summary: (taskId, stamp) => join(records, STATE_NAMES.summary(taskId, stamp)),
    respawnRecord: (name) => join(respawn, `${name}.json`),
    respawnLog: (name) => join(respawn, `${name}.log`),
  };
}

export { type UserLayout, userLayout } from "./layout-user.ts";
