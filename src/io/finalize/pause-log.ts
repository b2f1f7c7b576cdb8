/** The ACTIVE-PAUSE log at finalize: counted, its newest entries for the record, archived beside it. */
import type { PauseEntry } from "../../core/track/pause.ts";
import { readFileSafe } from "../fs/read.ts";
import { unlinkQuiet } from "../fs/sys.ts";
import { writeFileAtomic } from "../fs/write.ts";
import { layout } from "../../core/layout.ts";

/** The pause log's entries: how many, and the newest `keep` parsed ones. */
export function readPauseLog(
  path: string,
  keep: number,
): { text: string | undefined; count: number; recent: PauseEntry[] } {
  const text = readFileSafe(path, { maxBytes: 256 * 1024 * 1024 });
  if (text === undefined) return { text, count: 0, recent: [] };
  const lines = text.split("\n").filter((l) => l.trim() !== "");
  const recent = lines.slice(-keep).flatMap((l) => {
    try {
      return [JSON.parse(l) as PauseEntry];
    } catch {
      return [];
    }
  });
  return { text, count: lines.length, recent };
}

/** Copies the ACTIVE-PAUSE log to the archive (whole, so a rerun rewrites it); removes it when the session ended. */
export function archivePause(root: string, sessionId: string, archive: string, ended: boolean): string | null {
  const active = layout(root).pauseLog(sessionId)!;
  const log = readPauseLog(active, 0);
  if (log.text === undefined) return readPauseLog(archive, 0).text !== undefined ? archive : null;
  writeFileAtomic(archive, log.text, 0o600);
  if (ended) unlinkQuiet(active);
  return archive;
}
