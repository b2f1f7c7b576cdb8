/**
 * A shell command in the facts with the transcript lines it came from: the command list of "This
 * session" and a command-line tracker's listing, closes and creates (their lines are the tracker's
 * `evidence` in the twin). Pure.
 */
import type { Facts } from "./facts.ts";
import { oneLine, push } from "./ring.ts";
import { onTrackerCommand } from "./tracker.ts";
import { noteVcs } from "./asked.ts";

/** Most tracker lines kept. */
const MAX_TRACKER_LINES = 20;

/** Notes a shell command and whether it succeeded, with its lines (the call's and the result's). */
export function noteCommand(f: Facts, command: string, ok: boolean, lines: number[]): void {
  const evidence = lines.filter((n) => n > 0);
  push(f.commands, { command: oneLine(command, 160), ok, ...(evidence.length ? { evidence } : {}) });
  if (ok) noteVcs(f, command, evidence[0] ?? 0);
}

/**
 * Notes a successful shell command's effect on a command-line tracker (tracker.ts), and its line
 * when it is a listing or changed what the summary says: a listing starts the lines over (listings
 * in a row add up, as their items do), a close or a create after it adds its line.
 */
export function onTrackerStep(f: Facts, command: string, output: string): void {
  const sign = () =>
    f.tracker ? `${f.tracker.listedBy}|${f.tracker.closedSince.length}|${f.tracker.createdSince}` : "";
  const before = sign();
  const quiet = f.tracker !== null && f.tracker.listedBy !== null && before.endsWith("|0|0");
  f.tracker = onTrackerCommand(f.tracker, command, output);
  const t = f.tracker;
  if (!t || f.line <= 0) return;
  // A listing leaves its command as (the end of) `listedBy`, with nothing closed or created since.
  const cmd = oneLine(command, 160);
  const listing =
    t.listedBy !== null && sign().endsWith("|0|0") && (t.listedBy === cmd || t.listedBy.endsWith(`; ${cmd}`));
  if (listing) f.trackerLines = [...(quiet ? f.trackerLines : []), f.line].slice(-MAX_TRACKER_LINES);
  else if (sign() !== before) f.trackerLines = [...f.trackerLines, f.line].slice(-MAX_TRACKER_LINES);
}
