/**
 * The real respawn driver on a real tmux pane (private server): it acts only
 * on the session whose Claude Code process runs in its own pane.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { resolveConfig } from "../../../src/core/config.ts";
import { settingsFromConfig } from "../../../src/core/respawn/settings.ts";
import { runDriver } from "../../../src/io/respawn/driver.ts";
import { tmuxClient } from "../../../src/io/respawn/tmux.ts";
import { idlePane, tmuxBox, type TmuxBox } from "../../helpers/tmux-pane.ts";

let box: TmuxBox;
let t: TmuxBox["t"];
let env: Record<string, string>;
beforeEach(() => {
  box = tmuxBox();
  ({ t, env } = box);
});
afterEach(() => box.cleanup());

/** A session state as ctx track writes it (and its copy in context-usage.json when `latest`). */
function writeSession(
  root: string,
  sid: string,
  pct: number,
  claudePid: number,
  latest: boolean,
  more: Record<string, unknown> = {},
): void {
  const now = new Date().toISOString();
  const s = {
    ...more,
    version: 1,
    session_id: sid,
    project: root,
    used_tokens: pct * 2000,
    used_pct: pct,
    updated_at: now,
    last_stop_at: now,
    claude_pid: claudePid,
    transcript_path: null,
  };
  writeFileSync(join(root, "state", "sessions", `${sid}.json`), JSON.stringify(s));
  if (latest) writeFileSync(join(root, "state", "context-usage.json"), JSON.stringify(s));
}

/** Runs the driver on a fresh idle pane for `ms`, with the session states `setup` writes (given the pane's pid). */
async function supervise(name: string, setup: (root: string, panePid: number) => void, ms: number) {
  const project = join(t.dir, name);
  const root = join(project, ".ctx");
  mkdirSync(join(root, "state", "sessions"), { recursive: true });
  const tmux = tmuxClient(env);
  const pane = await idlePane(box, name, project);
  setup(root, (await tmux.paneInfo(pane)).pid);
  const ac = new AbortController();
  const settings = {
    ...settingsFromConfig(resolveConfig([])),
    quietMs: 200,
    cooldownMs: 0,
    limitMarginMs: 0,
    limitContinuePrompt: "GO-ON-AFTER-LIMIT",
  };
  const run = runDriver({
    name,
    target: pane,
    project,
    root,
    env,
    settings,
    pollMs: 100,
    enterDelayMs: 50,
    tmux,
    claude: "/bin/false",
    now: Date.now,
    signal: ac.signal,
    log: () => {},
    transcriptPct: () => undefined,
  });
  await Bun.sleep(ms);
  ac.abort();
  const final = await run;
  const record = JSON.parse(readFileSync(join(root, "state", "respawn", `${name}.json`), "utf8"));
  return { final, record, screen: await tmux.capture(pane) };
}

test("another session of the project at 95 % (reported last) triggers nothing: the supervisor follows its pane's claude_pid", async () => {
  const { final, record, screen } = await supervise(
    "two",
    (root, panePid) => {
      writeSession(root, "in-pane", 40, panePid, false);
      writeSession(root, "elsewhere", 95, process.pid, true);
    },
    2500,
  );
  expect(final.cycles).toBe(0);
  expect(final.usage?.pct).toBe(40);
  expect(record.session_id).toBe("in-pane");
  expect(record.events.map((e: { event: string }) => e.event)).not.toContain("cycle_start");
  expect(screen).not.toMatch(/\/compact|\/clear/);
});

test("control: the pane's own session at 95 % is compacted", async () => {
  const { record, screen } = await supervise(
    "own",
    (root, panePid) => {
      writeSession(root, "elsewhere", 40, process.pid, true);
      writeSession(root, "in-pane", 95, panePid, false);
    },
    2500,
  );
  expect(record.session_id).toBe("in-pane");
  expect(record.events.map((e: { event: string }) => e.event)).toContain("cycle_start");
  expect(screen).toContain("/compact");
});

/** The session state at the usage limit, as `ctx track` writes it on StopFailure, resetting `resetIn` ms from now. */
function atLimit(resetIn: number): Record<string, unknown> {
  return {
    limit: "You've hit your session limit · resets 3:03pm (UTC)",
    limit_at: new Date().toISOString(),
    resets_at: new Date(Date.now() + resetIn).toISOString(),
  };
}

test("at the usage limit (from the session state) nothing is typed before the reset, not even a due cycle", async () => {
  const { final, record, screen } = await supervise(
    "limited",
    (root, panePid) => writeSession(root, "in-pane", 95, panePid, true, atLimit(3_600_000)),
    2500,
  );
  const events = record.events.map((e: { event: string }) => e.event);
  expect(final.phase).toBe("stopped");
  expect(events).toContain("limit_wait");
  expect(events).not.toContain("cycle_start");
  expect(events).not.toContain("limit_continue");
  expect(screen).not.toMatch(/GO-ON-AFTER-LIMIT|\/compact/);
});

test("once the reset has passed, the continue prompt is typed at the idle input box", async () => {
  const { record, screen } = await supervise(
    "reset",
    (root, panePid) => writeSession(root, "in-pane", 40, panePid, true, atLimit(-120_000)),
    2500,
  );
  expect(record.events.map((e: { event: string }) => e.event)).toContain("limit_continue");
  expect(screen).toContain("GO-ON-AFTER-LIMIT");
});
