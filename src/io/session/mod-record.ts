/** The record of the newest figure ctx's Claude Code mod gave for a session (`state/monitor/<sid>.mod.json`). */
import { layout, STATE_DIRS } from "../../core/layout.ts";
import { modRecord, parseModRecord, type ModFigure, type ModRecord } from "../../core/mod/figure.ts";
import { ensureDirUnder } from "../fs/dirs.ts";
import { readState } from "../fs/state-file.ts";
import { writeJsonAtomic } from "../fs/write.ts";

/** The session's mod record under state root `root`, or undefined when no mod reported for it. */
export function readModRecord(root: string, sessionId: unknown, nowMs: number): ModRecord | undefined {
  const path = layout(root).modFile(sessionId);
  return path ? readState(path, parseModRecord, nowMs) : undefined;
}

/** Writes the record of `figure` atomically; a state directory that cannot be written loses it silently. */
export function writeModRecord(root: string, sessionId: unknown, figure: ModFigure, nowMs: number): ModRecord {
  const rec = modRecord(figure, nowMs);
  const path = layout(root).modFile(sessionId);
  try {
    if (path) {
      ensureDirUnder(root, STATE_DIRS.monitor);
      writeJsonAtomic(path, rec);
    }
  } catch {
    // read-only or full: the mod's answer still carries the figure
  }
  return rec;
}
