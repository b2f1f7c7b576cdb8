/** The files a session changed, in the facts: tool edits, and moves and deletions by commands. Pure. */
import { MAX_FILES, type Facts, type FileItem } from "./facts.ts";
import { fileMoves } from "./moves.ts";

/** Temp folders (Linux, macOS's `/private/tmp` and per-user `/var/folders`): scratch space, not the project. */
const TEMP = /^(?:\/private)?\/(?:tmp|var\/tmp|var\/folders)\//;

/** Files a successful command moved or deleted: a moved entry takes its new path, a deleted one is marked. */
export function moveFiles(f: Facts, command: string, cwd: string): void {
  if (!cwd.startsWith("/")) return;
  const { moved, deleted } = fileMoves(command, cwd);
  for (const [from, to] of moved) {
    const prev = f.files.get(from);
    f.files.delete(from);
    putFile(f, { path: to, ops: prev?.ops ?? {}, from: prev?.from ?? from });
  }
  for (const path of deleted) {
    // A removed folder (`rm -rf dir`) takes the files the session wrote in it along.
    const inside = [...f.files.values()].filter((x) => x.path.startsWith(`${path}/`));
    for (const x of inside) putFile(f, { ...x, deleted: true });
    // A folder whose files are listed, or a scratch path in a temp folder the session never wrote: not a change.
    if (!f.files.has(path) && (inside.length || TEMP.test(path))) continue;
    putFile(f, { ...(f.files.get(path) ?? { path, ops: {} }), deleted: true });
  }
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
