/**
 * Where the supervisor's state goes: `<root>/state/respawn/<name>.json` (its
 * record and recent events) and the `respawn` field of the per-user index entry.
 */
import { join } from "node:path";
import { sessionFile, userStateDir } from "../../core/paths.ts";
import type { RespawnRecord } from "../../core/respawn/record.ts";
import { isValidSessionId } from "../../core/session-id.ts";
import { ensureDirUnder } from "../fs/dirs.ts";
import { writeJsonAtomic } from "../fs/write.ts";
import { withLock } from "../fs/lock.ts";
import { readState } from "../fs/state-file.ts";
import { asObject } from "../../core/json.ts";
import { listDir } from "../fs/list-dir.ts";
import type { Env } from "../../core/deps.ts";

/** Names are file names: the session-id alphabet only. */
export const isValidName = isValidSessionId;

/** The record file of supervisor `name`. */
export function recordPath(root: string, name: string): string {
  return join(root, "state", "respawn", `${name}.json`);
}

/** Writes the record atomically. */
export function writeRecord(rec: RespawnRecord): void {
  ensureDirUnder(rec.root, "state/respawn");
  writeJsonAtomic(recordPath(rec.root, rec.name), rec);
}

/** Reads a record, or undefined. */
export function readRecord(root: string, name: string): RespawnRecord | undefined {
  return readState(recordPath(root, name), (v) => asObject(v) as RespawnRecord | undefined, Date.now(), {
    maxBytes: 4 * 1024 * 1024,
  });
}

/** Names of every supervisor record under `root`. */
export function listRecords(root: string): string[] {
  return listDir(join(root, "state", "respawn"))
    .filter((f) => f.endsWith(".json"))
    .map((f) => f.slice(0, -5))
    .filter(isValidName);
}

/**
 * Sets the `respawn` field of the session's per-user index entry (under the
 * entry's lock, keeping every other field). A missing entry is created with
 * what the supervisor knows, so `ctx status` shows it before the first hook.
 */
export function writeIndexRespawn(
  env: Env,
  sessionId: string,
  base: { project: string; root: string },
  respawn: Record<string, unknown> | null,
): void {
  const dir = join(userStateDir(env), "sessions");
  const path = sessionFile(dir, sessionId);
  if (!path) return;
  ensureDirUnder(userStateDir(env), "sessions");
  withLock(
    `${path}.lock`,
    () => {
      // A corrupt entry is kept aside (readState) and started over.
      const prev = readState(path, asObject, Date.now(), { maxBytes: 1024 * 1024 });
      const entry = prev ?? {
        version: 1,
        session_id: sessionId,
        project: base.project,
        root: base.root,
        updated_at: new Date().toISOString(),
      };
      writeJsonAtomic(path, { ...entry, respawn });
    },
    { timeoutMs: 1000 },
  );
}
