/** The files a session changed, in the facts: tool edits, and moves and deletions by commands. Pure. */
import { MAX_FILES, type Facts, type FileItem } from "./facts.ts";
import { fileMoves } from "./moves.ts";

/**
 * Temp folders (Linux, macOS's `/private/tmp` and per-user `/var/folders`, Git Bash's `/tmp` and a Windows
 * user's `AppData/Local/Temp`, in the compared form): scratch space, not the project.
 */
const TEMP = /^(?:\/private)?\/(?:tmp|var\/tmp|var\/folders)\/|^[A-Z]:\/Users\/[^/]+\/AppData\/Local\/Temp\//;
/** Folders of installed dependencies, build output and caches: a tool makes them again. */
const GENERATED =
  /(?:^|\/)(?:node_modules|dist|build|target|coverage|\.?venv|__pycache__|\.next|\.nuxt|\.turbo|\.cache|\.parcel-cache|\.pytest_cache|\.mypy_cache|\.ruff_cache|\.gradle)\/?$/;

/** A Windows working folder (`D:\oh-my-posh`): its commands run in Git Bash, with `/d/…` or relative paths. */
const WINDOWS = /^[A-Za-z]:[\\/]/;

/** Files a successful command moved or deleted: a moved entry takes its new path, a deleted one is marked. */
export function moveFiles(f: Facts, command: string, cwd: string): void {
  const win = WINDOWS.test(cwd);
  if (!cwd.startsWith("/") && !win) return;
  // On Windows, paths are compared in one form (`D:/a/b`) and shown in the client's (`D:\a\b`).
  const key = (p: string) => (win ? winKey(p) : p);
  const { moved, deleted } = fileMoves(command, key(cwd));
  if (moved.length === 0 && deleted.length === 0) return;
  const shown = new Map([...f.files.keys()].map((p) => [key(p), p]));
  const entry = (p: string) => shown.get(p) ?? (win ? p.replace(/\//g, "\\") : p);
  // The files the session wrote inside a folder a command moved or removed.
  const under = (dir: string) => [...f.files.values()].filter((x) => key(x.path).startsWith(`${dir}/`));
  for (const [rawFrom, rawTo] of moved) {
    // A moved folder (`git mv changes/x changes/archive/x`) takes the files the session wrote in it along.
    const dirFrom = key(rawFrom);
    const inside = under(dirFrom);
    if (inside.length && !f.files.has(entry(dirFrom))) {
      for (const x of inside) {
        f.files.delete(x.path);
        putFile(f, { ...x, path: entry(key(rawTo) + key(x.path).slice(dirFrom.length)), from: x.from ?? x.path });
      }
      continue;
    }
    const from = entry(dirFrom);
    const prev = f.files.get(from);
    f.files.delete(from);
    putFile(f, { path: entry(key(rawTo)), ops: prev?.ops ?? {}, from: prev?.from ?? from });
  }
  for (const raw of deleted) {
    const dir = key(raw);
    const path = entry(dir);
    // A removed folder (`rm -rf dir`) takes the files the session wrote in it along.
    const inside = under(dir);
    for (const x of inside) putFile(f, { ...x, deleted: true });
    // A folder whose files are listed, a scratch path in a temp folder, or a folder of installed or built files
    // (`rm -rf node_modules dist`), which the session never wrote: not a change of its work.
    if (!f.files.has(path) && (inside.length || TEMP.test(dir) || GENERATED.test(dir))) continue;
    putFile(f, { ...(f.files.get(path) ?? { path, ops: {} }), deleted: true });
  }
}

/** A Windows path in one form: `D:\a\b`, `d:/a/b` and Git Bash's `/d/a/b` all give `D:/a/b`. */
function winKey(p: string): string {
  return p
    .replace(/\\/g, "/")
    .replace(/^\/([A-Za-z])(?=\/|$)/, "$1:")
    .replace(/^([a-z]):/, (_, d: string) => `${d.toUpperCase()}:`);
}

/** A file a tool deleted (Codex's `*** Delete File:`): shown as deleted, whatever the session did to it before. */
export function deleteFile(f: Facts, path: string): void {
  if (path) putFile(f, { ...(f.files.get(path) ?? { path, ops: {} }), deleted: true });
}

/** A file a tool moved (Codex's `*** Move to:`): the entry takes its new path, `tool` counted there. */
export function moveFile(f: Facts, tool: string, from: string, to: string): void {
  const prev = f.files.get(from);
  f.files.delete(from);
  const ops = { ...(prev?.ops ?? {}) };
  ops[tool] = (ops[tool] ?? 0) + 1;
  putFile(f, { path: to, ops, from: prev?.from ?? from });
}

/** Records a file a successful tool call changed (`file_path` or `notebook_path`). */
export function addFile(f: Facts, tool: string, input: Record<string, unknown>): void {
  const path =
    typeof input.file_path === "string"
      ? input.file_path
      : typeof input.notebook_path === "string"
        ? input.notebook_path
        : "";
  if (!path) return;
  const item = f.files.get(path) ?? { path, ops: {} };
  item.ops[tool] = (item.ops[tool] ?? 0) + 1;
  delete item.deleted; // written again after a delete
  putFile(f, item);
}

/** Puts a file last (newest), with the line being read as evidence, dropping the oldest beyond MAX_FILES. */
function putFile(f: Facts, item: FileItem): void {
  if (f.line > 0) item.evidence = [...(item.evidence ?? []).filter((n) => n !== f.line), f.line].slice(-5);
  f.files.delete(item.path);
  f.files.set(item.path, item);
  if (f.files.size > MAX_FILES) {
    f.files.delete(f.files.keys().next().value!);
    f.filesDropped += 1;
  }
}
