import type { ModelTotals } from "./state.ts";
import { addInto, isZero } from "./tokens.ts";
import { emptyTotals } from "./state.ts";

/** One task's line in `<root>/token-ledger.json`. */
export interface TokenLedgerTask extends ModelTotals {
  /** Sessions that worked on the task, oldest first. */
  sessions: string[];
  /** Totals per model. */
  models: Record<string, ModelTotals>;
  /** Last update (ISO-8601). */
  updated_at: string;
}

/** The per-task token ledger `<root>/token-ledger.json` (not the resume ledger of consumed summaries). */
export interface TokenLedger {
  version: 1;
  /** task id (CTX_TASK_ID, else the session id) → totals. */
  tasks: Record<string, TokenLedgerTask>;
}

/** A ledger with no task yet. */
export function emptyTokenLedger(): TokenLedger {
  return { version: 1, tasks: {} };
}

/** `value` when it is a token ledger (version 1, an object of tasks), else undefined. */
export function asTokenLedger(value: unknown): TokenLedger | undefined {
  const v = value as Partial<TokenLedger> | null | undefined;
  return v &&
    typeof v === "object" &&
    v.version === 1 &&
    v.tasks &&
    typeof v.tasks === "object" &&
    !Array.isArray(v.tasks)
    ? (v as TokenLedger)
    : undefined;
}

/** Adds per-model token deltas of `sessionId` to `taskId` (pure: returns a new ledger). */
export function addToLedger(
  ledger: TokenLedger,
  taskId: string,
  sessionId: string,
  deltas: Record<string, ModelTotals>,
  iso: string,
): TokenLedger {
  const prev = ledger.tasks[taskId];
  const task: TokenLedgerTask = prev
    ? { ...prev, sessions: [...(prev.sessions ?? [])], models: { ...(prev.models ?? {}) } }
    : { ...emptyTotals(), sessions: [], models: {}, updated_at: iso };
  for (const [model, delta] of Object.entries(deltas)) {
    if (isZero(delta)) continue;
    addInto(task, delta);
    const m = { ...(task.models[model] ?? emptyTotals()) };
    addInto(m, delta);
    task.models[model] = m;
  }
  if (!task.sessions.includes(sessionId)) task.sessions.push(sessionId);
  task.updated_at = iso;
  return { version: 1, tasks: { ...ledger.tasks, [taskId]: task } };
}
