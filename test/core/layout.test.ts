/**
 * `src/core/layout.ts` against the "Where" table of docs/state.md: every row of
 * the table is a path of the layout, and every path of the layout is in the
 * table (a file, or the folder of one), so the two cannot drift.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { INDEX_DIR, layout, STATE_DIRS, userLayout } from "../../src/core/layout.ts";
import { twinPathOf } from "../../src/core/summary/twin.ts";

const ROOT = "/r";
const ENV = { TMPDIR: "/t", XDG_STATE_HOME: "/x", HOME: "/h" };
const L = layout(ROOT);
const U = userLayout(ENV);

/** The doc's placeholders, as the values this test gives them. */
const PLACEHOLDERS: [string, string][] = [
  ["<root>", ROOT],
  ["${TMPDIR:-/tmp}", "/t"],
  ["${XDG_STATE_HOME:-~/.local/state}", "/x"],
  ["<sid>", "S1"],
  ["<agent_id>", "A1"],
  ["<name>", "N1"],
  ["<task_id>", "T1"],
  ["<stamp>", "ST"],
  ["<key>", "0123456789abcdef"],
  ["<sha256 of the path>", "a".repeat(64)],
  ["<mac>", "a".repeat(64)],
];
const HASH = "a".repeat(64);

/**
 * Each row of the table: the layout's member that gives it and the path it gives.
 * `folder` rows name files ctx names by time (their folder is the layout's).
 */
const ROWS: Record<string, { member: string; path: string | undefined; folder?: true }> = {
  "${TMPDIR:-/tmp}/claude-ctx-<sid>.json": { member: "bridge", path: U.bridge("S1") },
  "<root>/state/monitor/<sid>.json": { member: "monitorFile", path: L.monitorFile("S1") },
  "<root>/state/monitor/<sid>.agent-<agent_id>.json": {
    member: "monitorFile",
    path: L.monitorFile("S1", ".agent-A1.json"),
  },
  "<root>/state/monitor/<sid>.finalize": { member: "finalizeMarker", path: L.finalizeMarker("S1") },
  "<root>/state/monitor/<sid>.mod.json": { member: "modFile", path: L.modFile("S1") },
  "<root>/state/monitor/<sid>.no-transcript": { member: "monitorFile", path: L.monitorFile("S1", ".no-transcript") },
  "<root>/state/monitor/<sid>.checkpoint": { member: "monitorFile", path: L.monitorFile("S1", ".checkpoint") },
  "<root>/state/monitor/<sid>.continued": { member: "monitorFile", path: L.monitorFile("S1", ".continued") },
  "<root>/state/git-start/<sid>.json": { member: "gitStartFile", path: L.gitStartFile("S1") },
  "<root>/state/sessions/<sid>.json": { member: "stateFile", path: L.stateFile("S1") },
  "<root>/state/sessions/<sid>.json.finalize.lock": { member: "finalizeLock", path: L.finalizeLock("S1") },
  "<root>/state/context-usage.json": { member: "contextUsage", path: L.contextUsage },
  "<root>/sessions/ACTIVE-PAUSE-<sid>.jsonl": { member: "pauseLog", path: L.pauseLog("S1") },
  "<root>/sessions/session-<YYYYMMDD-HHMMSS>.{json,yaml,md}": { member: "records", path: L.records, folder: true },
  "<root>/sessions/summary-<task_id>-<stamp>.md": { member: "summary", path: L.summary("T1", "ST") },
  "<root>/sessions/summary-<task_id>-<stamp>.json": { member: "summary", path: twinPathOf(L.summary("T1", "ST")) },
  "<root>/sessions/LATEST-SESSION.txt": { member: "latestSession", path: L.latestSession },
  "<root>/events/session-compressed-<timestamp>.json": { member: "events", path: L.events, folder: true },
  "<root>/token-ledger.json": { member: "tokenLedger", path: L.tokenLedger },
  "<root>/state/respawn/<name>.json": { member: "respawnRecord", path: L.respawnRecord("N1") },
  "<root>/state/respawn/<name>.log": { member: "respawnLog", path: L.respawnLog("N1") },
  "<root>/state/respawn-pending.json": { member: "respawnPending", path: L.respawnPending },
  "<root>/state/resume-ledger.json": { member: "resumeLedger", path: L.resumeLedger },
  "<root>/state/retention.json": { member: "retention", path: L.retention },
  "<root>/state/retention.claim": { member: "retentionClaim", path: L.retentionClaim },
  "${XDG_STATE_HOME:-~/.local/state}/ctx/index-digest.json": { member: "indexDigest", path: U.indexDigest },
  "${XDG_STATE_HOME:-~/.local/state}/ctx/sessions/<sid>.json": { member: "indexEntry", path: U.indexEntry("S1") },
  "${XDG_STATE_HOME:-~/.local/state}/ctx/errors.log": { member: "errorLog", path: U.errorLog },
  "${XDG_STATE_HOME:-~/.local/state}/ctx/unclaimed.log": { member: "unclaimedLog", path: U.unclaimedLog },
  "${XDG_STATE_HOME:-~/.local/state}/ctx/metrics-refresh.json": { member: "metricsRefresh", path: U.metricsRefresh },
  "${XDG_STATE_HOME:-~/.local/state}/ctx/windows.json": { member: "windows", path: U.windows },
  "${XDG_STATE_HOME:-~/.local/state}/ctx/rate-limits.json": { member: "rateLimits", path: U.rateLimits },
  "${XDG_STATE_HOME:-~/.local/state}/ctx/install/backups-<key>/settings.json.bak-<stamp>": {
    member: "settingsBackups",
    path: U.settingsBackups("0123456789abcdef"),
    folder: true,
  },
  "${XDG_STATE_HOME:-~/.local/state}/ctx/install/claude-plugin/<file>": {
    member: "claudePlugin",
    path: U.claudePlugin,
    folder: true,
  },
  "${XDG_STATE_HOME:-~/.local/state}/ctx/install/installed-<key>.json": {
    member: "installRecord",
    path: U.installRecord("0123456789abcdef"),
  },
  "${XDG_STATE_HOME:-~/.local/state}/ctx/install/statusline-<key>.json": {
    member: "statuslineRecord",
    path: U.statuslineRecord("0123456789abcdef"),
  },
  "<root>/state/window/<sid>.json": { member: "windowFile", path: L.windowFile("S1") },
  "${XDG_STATE_HOME:-~/.local/state}/ctx/trust/<sha256 of the path>.json": {
    member: "trustRecord",
    path: U.trustRecord(HASH),
  },
  "${XDG_STATE_HOME:-~/.local/state}/ctx/summary-key": { member: "summaryKey", path: U.summaryKey },
  "${XDG_STATE_HOME:-~/.local/state}/ctx/written/<mac>": { member: "writtenRecord", path: U.writtenRecord(HASH) },
};

/** The first column of docs/state.md's "Where" table. */
function documentedPaths(): string[] {
  const text = readFileSync(join(import.meta.dir, "..", "..", "docs", "state.md"), "utf8");
  const where = text.slice(text.indexOf("## Where"), text.indexOf("\n## ", text.indexOf("## Where") + 1));
  return [...where.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]!);
}

function expand(docPath: string): string {
  return PLACEHOLDERS.reduce((p, [from, to]) => p.split(from).join(to), docPath);
}

test("every row of docs/state.md's table is the layout's path", () => {
  const documented = documentedPaths();
  expect(documented.length).toBeGreaterThan(20);
  expect(documented.sort()).toEqual(Object.keys(ROWS).sort());
  for (const doc of documented) {
    const row = ROWS[doc]!;
    expect([doc, row.folder ? dirname(expand(doc)) : expand(doc)]).toEqual([doc, row.path!]);
  }
});

test("every path of the layout is in the table, as a file or as the folder of one", () => {
  const files = Object.values(ROWS).map((r) => r.path!);
  const folders = new Set(files.map((f) => dirname(f)));
  const members = new Set(Object.values(ROWS).map((r) => r.member));
  for (const [name, value] of [...Object.entries(L), ...Object.entries(U)]) {
    if (typeof value === "function") expect([name, members.has(name)]).toEqual([name, true]);
    else if (name !== "root") expect([name, files.includes(value) || folders.has(value)]).toEqual([name, true]);
  }
});

test("the relative folders are the layout's folders", () => {
  for (const [name, rel] of Object.entries(STATE_DIRS))
    expect(L[name as keyof typeof STATE_DIRS]).toBe(join(ROOT, rel));
  expect(U.index).toBe(join(U.dir, INDEX_DIR));
});

test("an unsafe session id never becomes a path", () => {
  for (const sid of ["../x", "a/b", "", "a.b", 5, null, "a".repeat(129)]) {
    expect(L.stateFile(sid)).toBeUndefined();
    expect(L.finalizeLock(sid)).toBeUndefined();
    expect(L.monitorFile(sid)).toBeUndefined();
    expect(L.finalizeMarker(sid)).toBeUndefined();
    expect(L.modFile(sid)).toBeUndefined();
    expect(L.gitStartFile(sid)).toBeUndefined();
    expect(L.windowFile(sid)).toBeUndefined();
    expect(L.pauseLog(sid)).toBeUndefined();
    expect(U.indexEntry(sid)).toBeUndefined();
    expect(U.bridge(sid)).toBeUndefined();
  }
  for (const id of ["../x", "A".repeat(64), "a".repeat(63), `${"a".repeat(64)}/`]) {
    expect(U.trustRecord(id)).toBeUndefined();
    expect(U.writtenRecord(id)).toBeUndefined();
  }
  expect(L.pauseLog("a".repeat(128))).toBe(`/r/sessions/ACTIVE-PAUSE-${"a".repeat(128)}.jsonl`);
});

test("the bridge file is under TMPDIR and refuses unsafe ids", () => {
  expect(userLayout({ TMPDIR: "/t/x/" }).bridge("abc")).toBe("/t/x/claude-ctx-abc.json");
  expect(userLayout({}).bridge("abc")).toBe("/tmp/claude-ctx-abc.json");
  expect(userLayout({ TMPDIR: "relative" }).bridge("abc")).toBe("/tmp/claude-ctx-abc.json");
  expect(userLayout({}).bridge("../x")).toBeUndefined();
});

test("the per-user state follows XDG_STATE_HOME, else HOME", () => {
  expect(userLayout({ XDG_STATE_HOME: "/xs", HOME: "/h" }).dir).toBe("/xs/ctx");
  expect(userLayout({ HOME: "/h" }).dir).toBe("/h/.local/state/ctx");
  expect(userLayout({ XDG_STATE_HOME: "relative", HOME: "/h" }).index).toBe("/h/.local/state/ctx/sessions");
});

test("a root is taken as node:path would join it", () => {
  expect(layout("/p/./.ctx/").contextUsage).toBe("/p/.ctx/state/context-usage.json");
  expect(layout("/a/../b").stateFile("s")).toBe(join("/a/../b", "state", "sessions", "s.json"));
});

test("the kept layout follows the root and the environment it is asked for", () => {
  expect(layout("/p/.ctx").contextUsage).toBe("/p/.ctx/state/context-usage.json");
  expect(layout("/q/.ctx").contextUsage).toBe("/q/.ctx/state/context-usage.json");
  expect(layout("/p/.ctx").stateFile("s1")).toBe("/p/.ctx/state/sessions/s1.json");
  const a = userLayout({ HOME: "/h", TMPDIR: "/t" });
  expect(a.windows).toBe("/h/.local/state/ctx/windows.json");
  expect(userLayout({ HOME: "/h", XDG_STATE_HOME: "/x", TMPDIR: "/t" }).windows).toBe("/x/ctx/windows.json");
  expect(userLayout({ HOME: "/h", TMPDIR: "/u" }).bridge("s1")).toBe("/u/claude-ctx-s1.json");
  expect(userLayout({ HOME: "/g", TMPDIR: "/u" }).errorLog).toBe("/g/.local/state/ctx/errors.log");
  expect(userLayout({ HOME: "/g" }).statuslineRecord("0123456789abcdef")).toBe(
    "/g/.local/state/ctx/install/statusline-0123456789abcdef.json",
  );
  expect(userLayout({ HOME: "/g" }).statuslineRecord("../x")).toBeUndefined();
});
