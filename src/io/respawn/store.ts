/**
 * Where the supervisor's state goes: `<root>/state/respawn/<name>.json` (its
 * record and recent events). The `respawn` field of the per-user index entry
 * is written by `setRespawn` (io/session/index.ts).
 */
import { layout, STATE_DIRS } from "../../core/layout.ts";
import { parseRecord, type RespawnRecord } from "../../core/respawn/record.ts";
import { isValidSessionId } from "../../core/session-id.ts";
import { ensureDirUnder } from "../fs/dirs.ts";
import { writeJsonAtomic } from "../fs/write.ts";
import { readState } from "../fs/state-file.ts";
import { listDir } from "../fs/list-dir.ts";

/** Names are file names: the session-id alphabet only. */
export const isValidName = isValidSessionId;

/** Writes the record atomically. */
export function writeRecord(rec: RespawnRecord): void {
  ensureDirUnder(rec.root, STATE_DIRS.respawn);
  writeJsonAtomic(layout(rec.root).respawnRecord(rec.name), rec);
}

/** Reads a record, or undefined. */
export function readRecord(root: string, name: string): RespawnRecord | undefined {
  return readState(layout(root).respawnRecord(name), parseRecord, Date.now(), { maxBytes: 4 * 1024 * 1024 });
}

/** Names of every supervisor record under `root`. */
export function listRecords(root: string): string[] {
  return listDir(layout(root).respawn)
    .filter((f) => f.endsWith(".json"))
    .map((f) => f.slice(0, -5))
    .filter(isValidName);
}
