/**
 * Binds a respawn supervisor to the Claude Code session running in its own
 * pane. Every session state (`<root>/state/sessions/<sid>.json`) records the
 * Claude Code process (`claude_pid`, the same across /clear); the supervisor
 * follows the newest-updated state whose process is the pane's process or one
 * of its descendants. Other sessions of the same project are ignored.
 */
import { plausibleMs } from "../../core/plausible.ts";
import { existsSync, lstatSync } from "node:fs";
import { join } from "node:path";
import { layout } from "../../core/layout.ts";
import { ancestors } from "../process/proc.ts";
import { hookReading, type HookReading } from "../../core/respawn/hooks.ts";
import { readJsonFile } from "../fs/read.ts";
import { listDir } from "../fs/list-dir.ts";

/** How long a "runs in the pane" answer for a pid is reused. */
export const PID_CACHE_MS = 3000;

/** What one session state says, cached by the file's size and mtime. */
interface Entry {
  /** `inode:size:mtime` of the file when it was parsed (track replaces it by rename). */
  key: string;
  /** Its reading, or undefined when it does not parse. */
  reading: HookReading | undefined;
  /** Its `claude_pid`, or null. */
  claudePid: number | null;
}

/**
 * Reads the hooks' state of the pane's session. `panePid` is the pane's
 * process (`#{pane_pid}`); `now` drives the pid cache.
 */
export class PaneSession {
  private files = new Map<string, Entry>();
  private inPane = new Map<number, boolean>();
  private pidsAt = -Infinity;
  private readonly boundAt: number;

  constructor(
    readonly root: string,
    readonly panePid: number,
    readonly now: () => number,
    readonly procRoot = "/proc",
  ) {
    this.boundAt = now();
  }

  /**
   * True when the pane's process is gone (its command was replaced, as by
   * `respawn-pane`): bind again. Checked only once PID_CACHE_MS passed since binding.
   */
  replaced(): boolean {
    return Math.abs(this.now() - this.boundAt) > PID_CACHE_MS && !existsSync(join(this.procRoot, String(this.panePid)));
  }

  /**
   * The pane's session: the newest-updated state whose `claude_pid` runs in the
   * pane. Falls back to `context-usage.json` only when no session state has a
   * `claude_pid` at all (state written before ctx recorded it). Undefined when
   * nothing matches: a reading of another session is never returned.
   */
  read(): HookReading | undefined {
    const states = this.scan();
    if (!states.some((e) => e.claudePid !== null)) return readHookState(this.root);
    let best: HookReading | undefined;
    // Newest by plausible time: a state stamped in the future (a clock that was ahead) is not "newest forever".
    const at = (r: HookReading) => plausibleMs(this.now(), r.updated_ms);
    for (const e of states) {
      if (!e.reading || e.claudePid === null || !this.runsInPane(e.claudePid)) continue;
      if (!best || at(e.reading) > at(best)) best = e.reading;
    }
    return best;
  }

  /** True when `pid` is the pane's process or one of its descendants (cached for PID_CACHE_MS). */
  runsInPane(pid: number): boolean {
    const now = this.now();
    if (Math.abs(now - this.pidsAt) >= PID_CACHE_MS) {
      this.inPane.clear();
      this.pidsAt = now;
    }
    let yes = this.inPane.get(pid);
    if (yes === undefined) {
      yes = pid === this.panePid || ancestors(pid, this.procRoot).some((p) => p.pid === this.panePid);
      this.inPane.set(pid, yes);
    }
    return yes;
  }

  // --- internal ---

  /** Every session state, re-parsing only the files whose size or mtime changed. */
  private scan(): Entry[] {
    const dir = layout(this.root).sessionsState;
    const names = listDir(dir).filter((n) => n.endsWith(".json"));
    const next = new Map<string, Entry>();
    for (const name of names) {
      const path = join(dir, name);
      let key: string;
      try {
        const st = lstatSync(path);
        if (!st.isFile()) continue; // never follow a planted link
        key = `${st.ino}:${st.size}:${st.mtimeMs}`;
      } catch {
        continue;
      }
      const old = this.files.get(name);
      next.set(name, old && old.key === key ? old : parse(path, key));
    }
    this.files = next;
    return [...next.values()];
  }
}

/** The newest session's reading from `<root>/state/context-usage.json` (written by `ctx track`). */
export function readHookState(root: string): HookReading | undefined {
  const r = readJsonFile<Record<string, unknown>>(layout(root).contextUsage, {
    maxBytes: 4 * 1024 * 1024,
  });
  return r.status === "ok" ? hookReading(r.value) : undefined;
}

// --- internal ---

function parse(path: string, key: string): Entry {
  const r = readJsonFile<Record<string, unknown>>(path, { maxBytes: 4 * 1024 * 1024 });
  if (r.status !== "ok") return { key, reading: undefined, claudePid: null };
  const pid = r.value && typeof r.value === "object" ? r.value.claude_pid : null;
  return {
    key,
    reading: hookReading(r.value),
    claudePid: typeof pid === "number" && Number.isInteger(pid) && pid > 1 ? pid : null,
  };
}
