/**
 * Time under a running respawn supervisor (the real driver, a real tmux pane on
 * a private server): the clock jumps backwards and forwards and the session's
 * transcript is rotated, truncated and deleted while it watches. The
 * supervisor must keep running, never type into the pane without a real
 * trigger, keep a parseable record, and stop cleanly.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, readFileSync, renameSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { resolveConfig } from "../../src/core/config.ts";
import { settingsFromConfig } from "../../src/core/respawn/settings.ts";
import { reading, windowFor } from "../../src/core/usage.ts";
import { runDriver } from "../../src/io/respawn/driver.ts";
import { tmuxClient } from "../../src/io/respawn/tmux.ts";
import { latestUsage } from "../../src/io/transcript/tail.ts";
import { assistantLine } from "../helpers/transcript.ts";
import { idlePane, tmuxBox, type TmuxBox } from "../helpers/tmux-pane.ts";

const DAY = 86_400_000;
let box: TmuxBox;
let t: TmuxBox["t"];
let env: Record<string, string>;
beforeEach(() => {
  box = tmuxBox();
  ({ t, env } = box);
});
afterEach(() => box.cleanup());

test("clock jumps and a rotated, truncated, deleted transcript neither crash the supervisor nor make it act", async () => {
  const project = join(t.dir, "proj");
  const root = join(project, ".ctx");
  mkdirSync(join(root, "state"), { recursive: true });
  const transcript = join(t.dir, "session.jsonl");
  writeFileSync(transcript, `${assistantLine(100_000)}\n`); // 50 %: below every trigger
  writeFileSync(
    join(root, "state", "context-usage.json"),
    JSON.stringify({
      version: 1,
      session_id: "s1",
      used_tokens: 100_000,
      used_pct: 50,
      updated_at: new Date().toISOString(),
      last_stop_at: new Date().toISOString(),
      transcript_path: transcript,
    }),
  );

  const tmux = tmuxClient(env);
  const pane = await idlePane(box, "rt", project);
  let clock = Date.now();
  const ac = new AbortController();
  const cfg = resolveConfig([]);
  const logs: string[] = [];
  const run = runDriver({
    name: "rt",
    target: pane,
    project,
    root,
    env,
    settings: { ...settingsFromConfig(cfg), quietMs: 200 },
    pollMs: 100,
    enterDelayMs: 50,
    tmux,
    claude: "/bin/false",
    now: () => clock,
    signal: ac.signal,
    log: (l) => logs.push(l),
    transcriptPct: (p) => {
      const tail = latestUsage(p, 1 << 20);
      return tail ? reading(tail.usedTokens, windowFor(tail.model, tail.usedTokens, false)).usedPct : undefined;
    },
  });

  const chaos: Array<() => void> = [
    () => (clock -= DAY),
    () => renameSync(transcript, `${transcript}.1`), // rotated away
    () => (clock += 365 * DAY),
    () => writeFileSync(transcript, `${assistantLine(90_000)}\n`), // a new file in its place
    () => truncateSync(transcript, 10), // truncated mid-line
    () => (clock -= 365 * DAY + 3600_000),
    () => rmSync(transcript), // deleted
    () => (clock += 30_000),
  ];
  for (const step of chaos) {
    step();
    await Bun.sleep(250);
  }
  ac.abort();
  const final = await run;

  expect(final.cycles).toBe(0);
  const screen = await tmux.capture(pane);
  expect(screen).not.toMatch(/\/compact|\/clear|Continue the work/);
  expect((await tmux.paneInfo(pane)).dead).toBe(false);
  const record = JSON.parse(readFileSync(join(root, "state", "respawn", "rt.json"), "utf8"));
  // It did watch: it saw the session, recognised the idle screen, and stopped on the signal.
  expect(record).toMatchObject({ name: "rt", session_id: "s1", cycles: 0, reason: "signal", phase: "stopped" });
  expect(record.events.map((e: { event: string }) => e.event)).toContain("idle");
}, 30_000);
