/**
 * A hook / statusLine command that records its stdin. Used by tests and by record-fixtures.ts.
 *
 * Usage: `bun test/e2e/hook-recorder.ts <label> [--print <stdout text>]`
 * Appends one JSON line to `$E2E_RECORD_DIR/records.jsonl`:
 * `{ label, at, stdin (parsed JSON or raw string), transcriptAtCall? }` where
 * `transcriptAtCall` is the transcript file's content when the hook ran (only if
 * `--snapshot` is given), for checking what the client had written by then. With
 * `--snapshot`, tool events also get `flushWaitMs`: how long after the hook started the
 * assistant line holding the event's `tool_use_id` appeared in the transcript (polled
 * every 5 ms for up to 3 s; null if it never did).
 */
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const args = process.argv.slice(2);
const label = args[0] ?? "unknown";
const printIdx = args.indexOf("--print");
const toPrint = printIdx >= 0 ? args[printIdx + 1] : undefined;
const snapshot = args.includes("--snapshot");

const raw = await new Response(Bun.stdin.stream()).text();
let stdin: unknown = raw;
try {
  stdin = JSON.parse(raw);
} catch {
  /* keep raw */
}
const rec: Record<string, unknown> = { label, at: Date.now(), stdin };
const tp = (stdin as { transcript_path?: string } | null)?.transcript_path;
const t0 = Date.now();
const read = (p: string): string | null => (existsSync(p) ? readFileSync(p, "utf8") : null);
if (snapshot && typeof tp === "string") {
  rec.transcriptAtCall = read(tp);
  const id = (stdin as { tool_use_id?: string }).tool_use_id;
  if (typeof id === "string") {
    const has = (t: string | null): boolean =>
      !!t && t.split("\n").some((l) => l.includes('"type":"assistant"') && l.includes(id));
    rec.flushWaitMs = null;
    while (Date.now() - t0 < 3000) {
      if (has(read(tp))) {
        rec.flushWaitMs = Date.now() - t0;
        break;
      }
      await Bun.sleep(5);
    }
  }
}
const dir = process.env.E2E_RECORD_DIR;
if (dir) appendFileSync(join(dir, "records.jsonl"), `${JSON.stringify(rec)}\n`);
if (toPrint !== undefined) process.stdout.write(`${toPrint}\n`);
