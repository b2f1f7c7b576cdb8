/**
 * The supervisor's record as it runs: the newest events, and writing
 * `<root>/state/respawn/<name>.json` and the supervised session's index entry
 * when something changed or the heartbeat is due.
 */
import {
  appendEvent,
  buildRecord,
  indexRespawn,
  recordDue,
  type RespawnLogEntry,
  type Supervisor,
} from "../../core/respawn/record.ts";
import type { RespawnState } from "../../core/respawn/types.ts";
import { layout } from "../../core/layout.ts";
import { setRespawn } from "../session/index.ts";
import { writeRecord } from "./store.ts";

/** Keeps the record of one supervisor. */
export class Recorder {
  private events: RespawnLogEntry[] = [];
  private dirty = true;
  private lastWrite = 0;
  /** The session whose index entry names this supervisor. */
  private indexedSid: string | null = null;

  constructor(
    private readonly who: Supervisor,
    private readonly env: Record<string, string | undefined>,
    private readonly now: () => number,
    private readonly log: (line: string) => void,
  ) {}

  /** Adds an event to the record (and the log). */
  note(event: string, detail?: string): void {
    const entry: RespawnLogEntry = { at: new Date(this.now()).toISOString(), event, ...(detail ? { detail } : {}) };
    this.events = appendEvent(this.events, entry);
    this.log(`${entry.at} ${event}${detail ? `: ${detail}` : ""}`);
    this.dirty = true;
  }

  /** Something the record shows changed: write it at the next `persist`. */
  touch(): void {
    this.dirty = true;
  }

  /** Writes the record and the index entry when due (always when `force`); a failed write is logged. */
  persist(state: RespawnState, sessionId: string | null, force: boolean): void {
    const now = this.now();
    if (!recordDue(force, this.dirty, now, this.lastWrite)) return;
    const who = this.who;
    const rec = buildRecord(who, state, sessionId, this.events, new Date(now).toISOString());
    try {
      writeRecord(rec);
      // After /clear the old session is no longer supervised: its entry says so.
      if (this.indexedSid && this.indexedSid !== sessionId) setRespawn(this.env, this.indexedSid, who, null);
      this.indexedSid = sessionId;
      if (sessionId)
        setRespawn(this.env, sessionId, who, { ...indexRespawn(rec, layout(who.root).respawnRecord(who.name)) });
    } catch (err) {
      this.log(`cannot write the respawn record: ${(err as Error).message}`);
    }
    this.lastWrite = now;
    this.dirty = false;
  }
}
