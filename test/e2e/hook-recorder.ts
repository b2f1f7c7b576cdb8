/**
 * A hook / statusLine command that records its stdin. Used by tests and by record-fixtures.ts.
 *
 * Usage: `bun test/e2e/hook-recorder.ts <label> [--print <stdout text>]`
 * Appends one JSON line to `$E2E_RECORD_DIR/records.jsonl`:
 * `{ label, at, stdin (parsed JSON or raw string), transcriptAtCall? }` where
 * `transcriptAtCall` is the transcript file's content when the hook ran (only if
 * `--snapshot` is given), for checking what the client had written by then.
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
try { stdin = JSON.parse(raw); } catch { /* keep raw */ }
const rec: Record<string, unknown> = { label, at: Date.now(), stdin };
const tp = (stdin as { transcript_path?: string } | null)?.transcript_path;
if (snapshot && typeof tp === "string") rec.transcriptAtCall = existsSync(tp) ? readFileSync(tp, "utf8") : null;
const dir = process.env.E2E_RECORD_DIR;
if (dir) appendFileSync(join(dir, "records.jsonl"), JSON.stringify(rec) + "\n");
if (toPrint !== undefined) process.stdout.write(toPrint + "\n");
