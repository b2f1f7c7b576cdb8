/**
 * The resume hook's state: the consumed-summaries ledger
 * (`<root>/state/resume-ledger.json`) and the respawn hand-over
 * (`<root>/state/respawn-pending.json`, which the supervisor writes with
 * `writePending`). Read-modify-write under the ledger's lock.
 */
import { emptyLedger, markConsumed, parseLedger, type ConsumedEntry, type Ledger } from "../../core/resume/ledger.ts";
import { parsePending, type RespawnPending } from "../../core/resume/pending.ts";
import { layout, STATE_DIRS } from "../../core/layout.ts";
import { ensureDirUnder } from "../fs/dirs.ts";
import { readJsonFile } from "../fs/read.ts";
import { writeJsonAtomic } from "../fs/write.ts";
import { withLock } from "../fs/lock.ts";
import { quarantine } from "../fs/state-file.ts";

/** What a transaction sees and may change. */
export interface ResumeState {
  ledger: Ledger;
  pending?: RespawnPending;
}

/**
 * Runs `fn` on the current ledger and pending file under the ledger's lock, and
 * writes back whatever it returns in `ledger` / `pending`. Throws on a lock
 * timeout or a failed write (the caller, a hook, then injects nothing).
 */
export function resumeTransaction<T extends object>(
  root: string,
  nowMs: number,
  fn: (s: ResumeState) => T,
  lockTimeoutMs = 1500,
): T {
  const { resumeLedger: ledgerFile, respawnPending: pendingFile } = layout(root);
  ensureDirUnder(root, STATE_DIRS.state);
  return withLock(
    `${ledgerFile}.lock`,
    () => {
      const state: ResumeState = { ledger: readLedger(ledgerFile, nowMs), pending: readPending(pendingFile, nowMs) };
      const result = fn(state);
      const out = result as Partial<ResumeState>;
      if (out.ledger) writeJsonAtomic(ledgerFile, out.ledger);
      if (out.pending)
        withLock(`${pendingFile}.lock`, () => writeJsonAtomic(pendingFile, out.pending), { timeoutMs: lockTimeoutMs });
      return result;
    },
    { timeoutMs: lockTimeoutMs },
  );
}

/** The ledger and pending file as they are now, read without a lock (for a look before deciding). */
export function readResumeState(root: string, nowMs: number): ResumeState {
  const files = layout(root);
  return { ledger: readLedger(files.resumeLedger, nowMs), pending: readPending(files.respawnPending, nowMs) };
}

/** Records that `ctx resume` handed summary `name` to a session it launched. */
export function markConsumedByCli(root: string, name: string, nowMs: number): void {
  const entry: ConsumedEntry = { session_id: null, via: "cli", at: new Date(nowMs).toISOString() };
  resumeTransaction(root, nowMs, (s) => ({ ledger: markConsumed(s.ledger, name, entry) }));
}

// --- internal ---

function readLedger(path: string, nowMs: number): Ledger {
  const r = readJsonFile<unknown>(path, { maxBytes: 4 * 1024 * 1024 });
  if (r.status === "ok") return parseLedger(r.value);
  if (r.status === "corrupt") quarantine(path, nowMs);
  return emptyLedger();
}

function readPending(path: string, nowMs: number): RespawnPending | undefined {
  const r = readJsonFile<unknown>(path, { maxBytes: 64 * 1024 });
  if (r.status === "ok") return parsePending(r.value);
  if (r.status === "corrupt") quarantine(path, nowMs);
  return undefined;
}

/** Writes `<root>/state/respawn-pending.json` so the next SessionStart injects `summaryPath` (issue 4's hand-over). */
export function writePending(root: string, summaryPath: string, nowMs: number): void {
  ensureDirUnder(root, STATE_DIRS.state);
  writeJsonAtomic(layout(root).respawnPending, {
    version: 1,
    summary_path: summaryPath,
    created_at: new Date(nowMs).toISOString(),
    consumed_by: null,
    consumed_at: null,
  });
}
