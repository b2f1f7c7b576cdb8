import { join, resolve } from "node:path";
import { layout, STATE_DIRS, STATE_NAMES } from "../../core/layout.ts";
import { fileIn } from "../../core/paths.ts";
import { addToLedger, asTokenLedger, emptyTokenLedger } from "../../core/track/ledger.ts";
import { eventStamp } from "../../core/track/stamp.ts";
import type { ModelTotals, SessionState } from "../../core/track/state.ts";
import { ensureDirUnder, realDirsUnder } from "../fs/dirs.ts";
import { readJsonFile } from "../fs/read.ts";
import { writeJsonAtomic } from "../fs/write.ts";
import { withLock, type LockOptions } from "../fs/lock.ts";
import { readState } from "../fs/state-file.ts";
import { STATE_LOCK } from "./store.ts";

/** A compaction event `<root>/events/session-compressed-<timestamp>.json`. */
export interface CompactionEvent {
  version: 1;
  session_id: string;
  /** When PreCompact fired (ISO-8601). */
  timestamp: string;
  /** `auto`, `manual` (the client's words) or `idle` (an automatic one of an idle session); Gemini CLI's own word. */
  trigger: string | null;
  /** The level the session had reached before it (null: ok); the ladder and the debounce start over after it. */
  level_before: string | null;
  /** Always true: the monitor's debounce and the CRITICAL marker were reset for it. */
  debounce_reset: boolean;
  /** Context tokens before the compaction. */
  tokens_before: number;
  /** Context tokens of the first usage after it; null until seen. */
  tokens_after: number | null;
  window_size: number;
  /** When tokens_after was filled in. */
  completed_at: string | null;
}

/** Writes a new compaction event and returns its path. */
export function writeCompactionEvent(
  root: string,
  state: SessionState,
  nowMs: number,
  iso: string,
  trigger: string | null,
  tokensBefore: number,
  levelBefore: string | null = null,
): string {
  const dir = layout(root).events;
  ensureDirUnder(root, STATE_DIRS.events);
  const path = join(dir, STATE_NAMES.compaction(eventStamp(nowMs)));
  const event: CompactionEvent = {
    version: 1,
    session_id: state.session_id,
    timestamp: iso,
    trigger,
    level_before: levelBefore,
    debounce_reset: true,
    tokens_before: tokensBefore,
    tokens_after: null,
    window_size: state.window_size,
    completed_at: null,
  };
  writeJsonAtomic(path, event);
  return path;
}

/**
 * Fills in the tokens after a compaction (a missing or foreign file is left alone).
 * `path` comes out of a state file: only an event file directly in `<root>/events/` is touched.
 */
export function completeCompactionEvent(
  root: string,
  path: string,
  tokensAfter: number,
  iso: string,
  lock: LockOptions = STATE_LOCK,
): void {
  const name = fileIn(resolve(layout(root).events), resolve(path));
  if (!name || !STATE_NAMES.isCompaction(name) || !realDirsUnder(root, STATE_DIRS.events)) return;
  withLock(
    `${path}.lock`,
    () => {
      const read = readJsonFile<CompactionEvent>(path, { maxBytes: 1024 * 1024 });
      if (read.status !== "ok" || read.value?.version !== 1) return;
      writeJsonAtomic(path, { ...read.value, tokens_after: tokensAfter, completed_at: iso });
    },
    lock,
  );
}

/** Adds token deltas to the task's line of `<root>/token-ledger.json`, under its lock. */
export function addLedgerTokens(
  root: string,
  taskId: string,
  sessionId: string,
  deltas: Record<string, ModelTotals>,
  iso: string,
  lock: LockOptions = STATE_LOCK,
): void {
  if (Object.keys(deltas).length === 0) return;
  const path = layout(root).tokenLedger;
  ensureDirUnder(root);
  withLock(
    `${path}.lock`,
    () => {
      // A corrupt ledger is kept aside as <file>.corrupt-<ms> (docs/state.md), never silently overwritten.
      const ledger =
        readState(path, asTokenLedger, Date.parse(iso), { maxBytes: 16 * 1024 * 1024 }) ?? emptyTokenLedger();
      writeJsonAtomic(path, addToLedger(ledger, taskId, sessionId, deltas, iso));
    },
    lock,
  );
}
