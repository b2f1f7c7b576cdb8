/**
 * A transcript kept as rows of a client's database (a SQLite store its adapter's `store` names), read like a JSONL file:
 * the path names the database and a session (the adapter's `store.split`), each row is one record.
 * Opened read-only (the store is the client's, and may be in use: WAL lets readers in), never through
 * a symlink; bun:sqlite loads only when a store is read.
 */
import { AGENTS, type TranscriptStore } from "../../core/agents/index.ts";
import { isObject } from "../../core/json.ts";
import { sys } from "../fs/sys.ts";
import type { StreamEnd, StreamOptions } from "./stream.ts";

/** The store a transcript path names, with its database and session key; undefined for a plain file. */
export function storeOf(path: string): { store: TranscriptStore; file: string; key: string } | undefined {
  for (const a of AGENTS) {
    const at = a.store?.split(path);
    if (a.store && at) return { store: a.store, ...at };
  }
  return undefined;
}

/**
 * Calls `onEntry` with each record of the session, from record `opts.offset` on (past the end: from 0);
 * the end's `offset` is the number of records. Undefined when the database cannot be read.
 */
export function streamStore(
  at: { store: TranscriptStore; file: string; key: string },
  onEntry: (entry: Record<string, unknown>, recordNo: number) => void,
  opts: StreamOptions = {},
): StreamEnd | undefined {
  let db: import("bun:sqlite").Database | undefined;
  try {
    if (!sys().lstat(at.file).isFile) return undefined;
    const { Database } = require("bun:sqlite") as typeof import("bun:sqlite");
    db = new Database(at.file, { readonly: true });
    const rows = db.query(at.store.query).all(at.key) as Array<{ record: string }>;
    const reset = (opts.offset ?? 0) > rows.length;
    const from = reset ? 0 : (opts.offset ?? 0);
    rows.slice(from).forEach((row, i) => {
      const v: unknown = JSON.parse(row.record);
      if (isObject(v)) onEntry(v, from + i + 1);
    });
    return { offset: rows.length, size: rows.length, reset };
  } catch {
    return undefined;
  } finally {
    db?.close();
  }
}
