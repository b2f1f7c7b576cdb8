/**
 * `${XDG_STATE_HOME:-~/.local/state}/ctx/index-digest.json` (docs/state.md): what `ctx status`
 * needs of an index entry that has not been updated for a while (its project, used %, last
 * update and whether it ended), keyed by the entry file's mtime and size. Such entries are only
 * counted as hidden, so with the digest `ctx status` stats them instead of reading each entry and
 * its state file: 5,000 old sessions cost 5,000 lstat calls, not 10,000 reads. A cache: a changed
 * entry (another mtime or size) is read again, a missing or broken digest is rebuilt.
 */
import { userLayout, type UserLayout } from "../../core/layout.ts";
import type { IndexEntry } from "../../core/status/entry.ts";
import type { Env } from "../../core/deps.ts";
import { readJsonFile } from "../fs/read.ts";
import { sys } from "../fs/sys.ts";
import { writeJsonAtomic } from "../fs/write.ts";

/** One remembered entry: mtime, size, last update (ms), ended, project, used %. */
interface Item {
  m: number;
  s: number;
  t: number;
  e: boolean;
  p: string;
  u: number | null;
}

/** The digest while `readIndex` walks the index. */
export interface Digest {
  /** The remembered session, when the entry at `path` is unchanged and settled; else its stat, to `remember` it after reading. */
  lookup(sid: string, path: string): { hit?: { entry: IndexEntry; ended: boolean }; stat?: { m: number; s: number } };
  /** Remembers an entry just read, when it is settled (last updated before the digest's horizon). */
  remember(sid: string, stat: { m: number; s: number } | undefined, entry: IndexEntry, ended: boolean): void;
  /** Writes the digest when it changed, keeping only the entries seen; errors are ignored (it is a cache). */
  save(seen: ReadonlySet<string>): void;
}

/** Opens the digest; `settledBeforeMs`: an entry last updated before it is only counted, never shown. */
export function openDigest(env: Env, settledBeforeMs: number): Digest {
  const user = userLayout(env);
  const items = load(user);
  let changed = false;
  return {
    lookup(sid, path) {
      let st: { m: number; s: number };
      try {
        const l = sys().lstat(path);
        st = { m: l.mtimeMs, s: l.size };
      } catch {
        return {};
      }
      const it = items[sid];
      if (it && it.m === st.m && it.s === st.s && it.t < settledBeforeMs)
        return { hit: { entry: stub(sid, it), ended: it.e } };
      return { stat: st };
    },
    remember(sid, stat, entry, ended) {
      if (!stat || !(entry.updated_ms < settledBeforeMs)) return;
      items[sid] = { m: stat.m, s: stat.s, t: entry.updated_ms, e: ended, p: entry.project, u: entry.used_pct };
      changed = true;
    },
    save(seen) {
      for (const sid of Object.keys(items))
        if (!seen.has(sid)) {
          delete items[sid];
          changed = true;
        }
      if (!changed) return;
      try {
        writeJsonAtomic(user.indexDigest, { version: 1, entries: items });
      } catch {
        // a read-only state directory: the next run reads the entries again
      }
    },
  };
}

// --- internal ---

function load(user: UserLayout): Record<string, Item> {
  const r = readJsonFile<{ version?: unknown; entries?: unknown }>(user.indexDigest, { maxBytes: 64 * 1024 * 1024 });
  const entries = r.status === "ok" && r.value?.version === 1 ? r.value.entries : undefined;
  const out: Record<string, Item> = Object.create(null);
  if (!entries || typeof entries !== "object") return out;
  for (const [sid, v] of Object.entries(entries as Record<string, unknown>)) {
    const it = v as Partial<Item> | null;
    if (
      it &&
      typeof it.m === "number" &&
      typeof it.s === "number" &&
      typeof it.t === "number" &&
      typeof it.e === "boolean" &&
      typeof it.p === "string" &&
      (it.u === null || typeof it.u === "number")
    )
      out[sid] = it as Item;
  }
  return out;
}

/** The entry as far as a hidden row needs it: project, used %, last update. */
function stub(sid: string, it: Item): IndexEntry {
  return {
    session_id: sid,
    task_id: "",
    previous_session_id: "",
    agent: "",
    project: it.p,
    root: "",
    state_path: "",
    model: "",
    used_pct: it.u,
    used_tokens: null,
    window_size: null,
    context_window_source: "",
    threshold_reached: null,
    auto_pause_active: false,
    limit: null,
    resets_ms: null,
    respawn: null,
    updated_ms: it.t,
    updated_at: new Date(it.t).toISOString(),
  };
}
