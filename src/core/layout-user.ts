/**
 * The per-user half of the state layout (re-exported by core/layout.ts, where every caller gets
 * it): `${XDG_STATE_HOME:-~/.local/state}/ctx` and the bridge file. Pure.
 */
import { INDEX_DIR } from "./layout.ts";
import { sessionFile, tmpDir, usableDir } from "./paths.ts";
import { join } from "./pathx.ts";
import { isValidSessionId } from "./session-id.ts";

type Env = Record<string, string | undefined>;

/** The per-user state: `${XDG_STATE_HOME:-~/.local/state}/ctx`, and the bridge file in the temp directory. */
export interface UserLayout {
  /**
   * Why there is no per-user directory, when neither XDG_STATE_HOME nor HOME is an absolute
   * UTF-8 path (never `/.local/state` for an unset HOME). Then `dir`, `index`, `windows` and
   * `errorLog` are "" (a path no call can create or read) and `indexEntry` gives undefined.
   */
  missing?: string;
  /** `${XDG_STATE_HOME:-~/.local/state}/ctx`. */
  dir: string;
  /** `<dir>/sessions/`: the per-user index. */
  index: string;
  /** `<dir>/sessions/<sid>.json`: a session's index entry, or undefined for an unsafe id. */
  indexEntry(sessionId: unknown): string | undefined;
  /** `<dir>/windows.json`: the window each model id's status-line payload reported. */
  windows: string;
  /** `<dir>/rate-limits.json`: the plan's usage windows the newest status-line payload carried. */
  rateLimits: string;
  /** `<dir>/index-digest.json`: what `ctx status` needs of index entries that have not changed for a while. */
  indexDigest: string;
  /** `<dir>/errors.log`: the hooks' errors, for `ctx doctor`. */
  errorLog: string;
  /** `<dir>/unclaimed.log`: hook payloads and transcript lines no client's adapter claimed, for `ctx doctor`. */
  unclaimedLog: string;
  /** `<dir>/metrics-refresh.json`: when the background job last refreshed the metrics textfile (docs/metrics.md). */
  metricsRefresh: string;
  /**
   * `<dir>/install/statusline-<key>.json`: the statusLine ctx's took the place of in one settings
   * file (`key`: 16 hex digits naming that file), or undefined for another key.
   */
  statuslineRecord(key: string): string | undefined;
  /**
   * `<dir>/install/installed-<key>.json`: what `ctx install` wrote to one settings file and the backup of
   * the user's bytes before it (`key` as for `statuslineRecord`), so uninstall restores them exactly.
   */
  installRecord(key: string): string | undefined;
  /**
   * `<dir>/install/backups-<key>/`: the backups of a project's settings file (kept out of the
   * project, which teams commit; `key` as for `statuslineRecord`), or undefined for another key.
   */
  settingsBackups(key: string): string | undefined;
  /** `<dir>/install/claude-plugin/`: ctx's Claude Code plugin (its mod) as `ctx install` wrote it, or "" without a state directory. */
  claudePlugin: string;
  /** `<dir>/trust/`: the project config files the user trusted (`ctx trust`). */
  trust: string;
  /** `<dir>/trust/<id>.json`: the record of one file (`id`: the sha256 of its real path), or undefined for a bad id. */
  trustRecord(id: string): string | undefined;
  /** `<dir>/summary-key`: the per-user random key of the summaries' keyed hashes. */
  summaryKey: string;
  /** `<dir>/written/`: one empty file per summary ctx wrote, named by its keyed hash. */
  written: string;
  /** `<dir>/written/<mac>`: the record of one summary (`mac`: 64 hex digits), or undefined for a bad one. */
  writtenRecord(mac: string): string | undefined;
  /** `${TMPDIR:-/tmp}`. */
  tmp: string;
  /** `${TMPDIR:-/tmp}/claude-ctx-<sid>.json`: the GSD-compatible bridge file, or undefined for an unsafe id. */
  bridge(sessionId: unknown): string | undefined;
}

/** The per-user layout for environment `env` (XDG_STATE_HOME, HOME, TMPDIR); the last one is kept, as for `layout`. */
export function userLayout(env: Env): UserLayout {
  const key = `${env.XDG_STATE_HOME}\0${env.HOME}\0${env.TMPDIR}`;
  if (lastUser?.key !== key) lastUser = { key, value: buildUserLayout(env) };
  return lastUser.value;
}

let lastUser: { key: string; value: UserLayout } | undefined;

function buildUserLayout(env: Env): UserLayout {
  const home = usableDir(env.HOME);
  const base = usableDir(env.XDG_STATE_HOME) ?? (home ? join(home, ".local", "state") : undefined);
  const tmp = tmpDir(env);
  const bridge = (sid: unknown) => (isValidSessionId(sid) ? join(tmp, `claude-ctx-${sid}.json`) : undefined);
  if (!base) {
    const missing = `no per-user state directory: ${env.HOME ? "HOME is not an absolute UTF-8 path" : "HOME is not set"}, nor XDG_STATE_HOME`;
    const none = () => undefined;
    return {
      missing,
      dir: "",
      index: "",
      indexEntry: none,
      windows: "",
      rateLimits: "",
      indexDigest: "",
      errorLog: "",
      unclaimedLog: "",
      metricsRefresh: "",
      statuslineRecord: none,
      installRecord: none,
      settingsBackups: none,
      claudePlugin: "",
      trust: "",
      trustRecord: none,
      summaryKey: "",
      written: "",
      writtenRecord: none,
      tmp,
      bridge,
    };
  }
  const dir = join(base, "ctx");
  const index = join(dir, INDEX_DIR);
  const trust = join(dir, "trust");
  const written = join(dir, "written");
  const hex = (id: string) => /^[0-9a-f]{64}$/.test(id);
  return {
    dir,
    index,
    indexEntry: (sid) => sessionFile(index, sid),
    windows: join(dir, "windows.json"),
    rateLimits: join(dir, "rate-limits.json"),
    indexDigest: join(dir, "index-digest.json"),
    errorLog: join(dir, "errors.log"),
    unclaimedLog: join(dir, "unclaimed.log"),
    metricsRefresh: join(dir, "metrics-refresh.json"),
    statuslineRecord: (key) =>
      /^[0-9a-f]{16}$/.test(key) ? join(dir, "install", `statusline-${key}.json`) : undefined,
    installRecord: (key) => (/^[0-9a-f]{16}$/.test(key) ? join(dir, "install", `installed-${key}.json`) : undefined),
    settingsBackups: (key) => (/^[0-9a-f]{16}$/.test(key) ? join(dir, "install", `backups-${key}`) : undefined),
    claudePlugin: join(dir, "install", "claude-plugin"),
    trust,
    trustRecord: (id) => (hex(id) ? join(trust, `${id}.json`) : undefined),
    summaryKey: join(dir, "summary-key"),
    written,
    writtenRecord: (mac) => (hex(mac) ? join(written, mac) : undefined),
    tmp,
    bridge,
  };
}
