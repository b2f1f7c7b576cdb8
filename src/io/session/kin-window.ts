/**
 * What the user's other sessions of the same project say of a model's window (issue 27). Whether the
 * client's default Opus runs at 1M depends on the user's plan, which no transcript names; the client
 * keeps a project's sessions side by side in one folder, and those of the same user share the plan.
 * Read only when that default would decide the window (io/finalize/usage.ts), bounded in files and
 * bytes, newest first, and only sessions begun before this one ended.
 */
import { basename, dirname, join } from "node:path";
import { isValidSessionId } from "../../core/session-id.ts";
import { emptyTranscriptWindow, kinVerdict, noteWindowLine, type SignedModel } from "../../core/window-evidence.ts";
import { listDir } from "../fs/list-dir.ts";
import { mtimeMs, withReadFile } from "../fs/read.ts";
import { sys } from "../fs/sys.ts";
import { streamEntries } from "../transcript/stream.ts";

/** At most this many other sessions are read, and this many bytes of them in all. */
const MAX_SESSIONS = 12;
const MAX_BYTES = 64 * 1024 * 1024;
/** A session's start is the first `timestamp` in its first bytes. */
const HEAD_BYTES = 64 * 1024;
/** Only lines that can hold evidence are decoded: a `/model` answer, a commit trailer, a compaction, a request's model. */
const NEEDLES = ["Set model to", "Co-Authored-By: ", "compact_boundary", '"model":"'];

/**
 * The newest verdict on `model` (core/window-evidence.ts `kinVerdict`) among the other sessions in the
 * folder of `transcript` that began at or before `endMs`; undefined when none of them tells.
 */
export function kinWindow(transcript: string, model: string, endMs: number): SignedModel | undefined {
  let budget = MAX_BYTES;
  for (const k of newestBegun(transcript, endMs)) {
    if (budget <= 0) break;
    const w = emptyTranscriptWindow();
    const end = streamEntries(k.path, (e) => noteWindowLine(w, e), { needles: NEEDLES, maxBytes: budget });
    budget -= Math.max(end?.offset ?? 0, 1);
    const verdict = kinVerdict(w, model);
    if (verdict) return verdict;
  }
  return undefined;
}

/**
 * The other sessions beside `transcript` begun at or before `endMs`, newest start first, at most
 * {@link MAX_SESSIONS}. A session begins before its file was last written, so the files are taken newest
 * write first and their heads read only until no file left can have begun later than those kept.
 */
function newestBegun(transcript: string, endMs: number): { path: string; start: number }[] {
  const dir = dirname(transcript);
  const self = basename(transcript);
  const files = listDir(dir)
    .filter((n) => n !== self && n.endsWith(".jsonl") && isValidSessionId(n.slice(0, -".jsonl".length)))
    .map((n) => ({ path: join(dir, n), mtime: mtimeMs(join(dir, n)) ?? Number.NaN }))
    .filter((f) => Number.isFinite(f.mtime))
    .sort((a, b) => b.mtime - a.mtime);
  const kept: { path: string; start: number }[] = [];
  for (const f of files) {
    if (kept.length >= MAX_SESSIONS && f.mtime < kept[MAX_SESSIONS - 1]!.start) break;
    const start = startMs(f.path);
    if (start === undefined || start > endMs) continue;
    kept.push({ path: f.path, start });
    kept.sort((a, b) => b.start - a.start);
  }
  return kept.slice(0, MAX_SESSIONS);
}

/** When a transcript began: the first `timestamp` in its first bytes (a symlink or unreadable file: undefined). */
function startMs(path: string): number | undefined {
  const head = withReadFile(path, (fd, st) => {
    if (!st.isFile) return undefined;
    const buf = Buffer.alloc(Math.min(HEAD_BYTES, st.size));
    const n = sys().pread(fd, buf, 0, buf.length, 0);
    return buf.subarray(0, n).toString("utf8");
  });
  const stamp = head ? /"timestamp":"([^"]{10,40})"/.exec(head)?.[1] : undefined;
  const ms = stamp ? Date.parse(stamp) : Number.NaN;
  return Number.isFinite(ms) ? ms : undefined;
}
