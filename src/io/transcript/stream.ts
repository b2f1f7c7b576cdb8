import { readSync } from "node:fs";
import { withReadFile } from "../fs/read.ts";
import { storeOf, streamStore } from "./store.ts";

const CHUNK = 1024 * 1024;

/** Where a streamed read ended. */
export interface StreamEnd {
  /** Offset just past the last complete line read (a partial last line is left for next time). */
  offset: number;
  /** The file's size when read. */
  size: number;
  /** True when the file was shorter than the start offset (truncated or replaced) and was read from 0. */
  reset: boolean;
}

/** Options of {@link streamLines}. */
export interface StreamOptions {
  /** Start at this byte offset (default 0); past the end means the file shrank: start over. */
  offset?: number;
  /** Lines longer than this are skipped without being decoded (default 16 MiB). */
  maxLineBytes?: number;
  /** Only lines containing one of these byte strings are decoded and passed on. */
  needles?: readonly string[];
  /** Read at most this many bytes (default: to the end); a cut line is left for next time. */
  maxBytes?: number;
  /**
   * A one-shot read of the whole file (finalize): a last line without a newline is passed on too
   * (a copied or published transcript may lack the final newline; a line cut mid-write does not
   * parse and is skipped). The offset returned still ends before it.
   */
  lastLine?: boolean;
}

/**
 * Reads a JSONL file line by line in fixed-size chunks, so memory stays bounded
 * whatever the file's size, and calls `onLine` with each complete line. A symlink
 * or non-regular file reads as nothing. Returns undefined when the file cannot be opened.
 */
function streamLines(
  path: string,
  onLine: (line: string, lineNo: number) => void,
  opts: StreamOptions = {},
): StreamEnd | undefined {
  return withReadFile(path, (fd, st) => {
    const size = st.isFile ? st.size : 0;
    const reset = (opts.offset ?? 0) > size;
    const start = reset ? 0 : (opts.offset ?? 0);
    const stop = opts.maxBytes !== undefined ? Math.min(size, start + opts.maxBytes) : size;
    const offset = readRange(fd, start, stop, onLine, opts);
    return { offset, size, reset };
  });
}

/**
 * Calls `onEntry` with each line of a JSONL file that parses to an object, and its line number
 * (1-based from the start offset; blank, broken and over-long lines count too), or each record of a
 * session kept in a client's database (store.ts; the offset and the number then count records).
 */
export function streamEntries(
  path: string,
  onEntry: (entry: Record<string, unknown>, lineNo: number) => void,
  opts: StreamOptions = {},
): StreamEnd | undefined {
  const store = storeOf(path);
  if (store) return streamStore(store, onEntry, opts);
  return streamLines(
    path,
    (line, lineNo) => {
      let v: unknown;
      try {
        v = JSON.parse(line);
      } catch {
        return; // a broken line (a crash mid-write): skip it
      }
      if (v && typeof v === "object" && !Array.isArray(v)) onEntry(v as Record<string, unknown>, lineNo);
    },
    opts,
  );
}

// --- internal ---

function readRange(
  fd: number,
  start: number,
  stop: number,
  onLine: (line: string, lineNo: number) => void,
  opts: StreamOptions,
): number {
  const maxLine = opts.maxLineBytes ?? 16 * 1024 * 1024;
  const needles = opts.needles?.map((s) => Buffer.from(s));
  const chunk = Buffer.allocUnsafe(CHUNK);
  let carry: Buffer[] = [];
  let carryLen = 0;
  let skipping = false; // inside an over-long line
  let pos = start;
  let lineStart = start;
  let lineNo = 0;
  while (pos < stop) {
    const n = readSync(fd, chunk, 0, Math.min(CHUNK, stop - pos), pos);
    if (n <= 0) break;
    let from = 0;
    for (let nl = chunk.indexOf(10, from); nl >= 0 && nl < n; nl = chunk.indexOf(10, from)) {
      const piece = chunk.subarray(from, nl);
      lineNo += 1;
      if (!skipping) emit(carryLen ? Buffer.concat([...carry, piece]) : piece, lineNo, onLine, needles);
      carry = [];
      carryLen = 0;
      skipping = false;
      from = nl + 1;
      lineStart = pos + from;
    }
    if (from < n && !skipping) {
      carry.push(Buffer.from(chunk.subarray(from, n)));
      carryLen += n - from;
      if (carryLen > maxLine) {
        carry = [];
        carryLen = 0;
        skipping = true;
      }
    }
    pos += n;
  }
  if (opts.lastLine && carryLen && !skipping && pos >= stop) emit(Buffer.concat(carry), lineNo + 1, onLine, needles);
  return lineStart;
}

function emit(
  line: Buffer,
  lineNo: number,
  onLine: (line: string, lineNo: number) => void,
  needles: Buffer[] | undefined,
): void {
  if (line.length < 2) return;
  if (needles && !needles.some((needle) => line.includes(needle))) return;
  onLine(line.toString("utf8"), lineNo);
}
