/**
 * Issue 21, class 6: the supervisor typed into a pane that was not Claude Code. `ctx respawn
 * attach` in keep-working mode typed its update prompt and `/clear` into a bash pane whose prompt
 * looked like the client's input box (the old code looked only at the screen). Now it checks,
 * before attaching and before every keystroke, that the pane's foreground process is the Claude
 * Code it started or attached to (/proc: the terminal's foreground group, the process, its start
 * time and executable), and otherwise types nothing, records why and stops. Real tmux, private server.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { resolveConfig } from "../../src/core/config.ts";
import { settingsFromConfig } from "../../src/core/respawn/settings.ts";
import { runDriver } from "../../src/io/respawn/driver.ts";
import { tmuxClient } from "../../src/io/respawn/tmux.ts";
import { runCtx } from "../helpers/ctx.ts";
import { fakeClaudeBin, IDLE_SCREEN, tmuxBox, type TmuxBox } from "../helpers/tmux-pane.ts";

let box: TmuxBox;
let project: string;
beforeEach(() => {
  box = tmuxBox();
  project = join(box.t.dir, "proj");
  mkdirSync(join(project, ".ctx", "state", "sessions"), { recursive: true });
});
afterEach(() => box.cleanup());

/** bash whose prompt is the client's idle screen: a completion line, a rule, then `❯ `. */
const LOOK_ALIKE = ["sh", "-c", `PS1="$(printf '✻ Baked for 3s\\n\\n────────\\n❯ ')" exec bash --norc --noprofile`];
const UPDATE = "Update your notes";

/** Polls the pane until `fn(screen)` holds (at most ~5 s); returns the last screen. */
async function screenUntil(pane: string, fn: (s: string) => boolean): Promise<string> {
  let screen = "";
  for (let i = 0; i < 100; i++) {
    screen = await tmuxClient(box.env).capture(pane);
    if (fn(screen)) break;
    await Bun.sleep(50);
  }
  return screen;
}

test("attach to a bash pane that imitates the input box: refused, and not one keystroke reaches it", async () => {
  const tmux = tmuxClient(box.env);
  const pane = await tmux.newSession("lookalike", project, LOOK_ALIKE, box.env);
  // The screen is what the old supervisor took for an idle client.
  expect(await screenUntil(pane, (s) => s.includes("❯"))).toMatch(/─{8}\n❯ *$/m);
  const env = {
    ...box.env,
    CTX_CLAUDE: "/bin/false",
    CTX_RESPAWN_MODE: "keep-working",
    CTX_RESPAWN_POLL_MS: "100",
    CTX_RESPAWN_QUIET_MS: "200",
  };
  const r = await runCtx(["respawn", "attach", "--target", pane, "--daemon"], { env, cwd: project });
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("does not run Claude Code: bash (pid");
  await Bun.sleep(2500); // the old supervisor had typed its update prompt by now
  const screen = await tmux.capture(pane);
  expect(screen).not.toContain(UPDATE);
  expect(screen).not.toContain("/clear");
  await runCtx(["respawn", "stop"], { env, cwd: project });
});

test("the attached client exits and the look-alike shell is back: nothing is typed, the record says why", async () => {
  const tmux = tmuxClient(box.env);
  const pane = await tmux.newSession("exits", project, LOOK_ALIKE, box.env);
  await screenUntil(pane, (s) => s.includes("❯"));
  // The user runs Claude Code (a stand-in named claude) from the shell: it takes the foreground.
  const claude = fakeClaudeBin(box.t.dir);
  await tmux.sendText(pane, `clear; '${claude}' 600`, 50);
  await screenUntil(pane, (s) => !s.includes("❯"));
  const ac = new AbortController();
  const settings = { ...settingsFromConfig(resolveConfig([])), mode: "keep-working" as const, quietMs: 200 };
  const log: string[] = [];
  const run = runDriver({
    name: "exits",
    target: pane,
    project,
    root: join(project, ".ctx"),
    env: box.env,
    settings,
    pollMs: 100,
    enterDelayMs: 50,
    tmux,
    claude: "/bin/false",
    now: Date.now,
    signal: ac.signal,
    log: (l) => log.push(l),
    transcriptPct: () => undefined,
  });
  // Bound to the client in the foreground once the first record is written (after the bind and a poll; a fixed
  // 800 ms was too short on a loaded machine: the client exited before the bind); its screen is not idle.
  const recordPath = join(project, ".ctx", "state", "respawn", "exits.json");
  for (let i = 0; i < 300 && !existsSync(recordPath); i++) await Bun.sleep(100);
  expect(existsSync(recordPath)).toBe(true);
  await Bun.sleep(300);
  await tmux.sendKeys(pane, ["C-c"]); // the client exits: bash draws its look-alike prompt
  const stopped = await Promise.race([run, Bun.sleep(8000).then(() => undefined)]);
  ac.abort();
  const final = stopped ?? (await run);
  const record = JSON.parse(readFileSync(join(project, ".ctx", "state", "respawn", "exits.json"), "utf8"));
  const events = record.events.map((e: { event: string }) => e.event);
  expect(events).toContain("not_claude");
  expect(events.filter((e: string) => e === "not_claude").length).toBe(1);
  expect(final.phase).toBe("stopped");
  expect(final.reason).toMatch(
    /^not typing: bash \(pid \d+\) is in the pane's foreground, not the Claude Code \(pid \d+\)/,
  );
  expect(log.some((l) => l.includes("not_claude"))).toBe(true);
  const screen = await tmux.capture(pane);
  expect(screen).not.toContain(UPDATE);
  expect(screen).not.toContain("/clear");
});

test("control: with the client in the foreground, the same supervisor types", async () => {
  const tmux = tmuxClient(box.env);
  const claude = fakeClaudeBin(box.t.dir);
  const pane = await tmux.newSession(
    "types",
    project,
    ["sh", "-c", `printf '${IDLE_SCREEN}'; exec '${claude}' 600`],
    box.env,
  );
  const ac = new AbortController();
  const settings = { ...settingsFromConfig(resolveConfig([])), mode: "keep-working" as const, quietMs: 200 };
  const run = runDriver({
    name: "types",
    target: pane,
    project,
    root: join(project, ".ctx"),
    env: box.env,
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
  const screen = await screenUntil(pane, (s) => s.includes(UPDATE));
  ac.abort();
  const final = await run;
  expect(screen).toContain(UPDATE);
  const record = JSON.parse(readFileSync(join(project, ".ctx", "state", "respawn", "types.json"), "utf8"));
  expect(record.events.map((e: { event: string }) => e.event)).not.toContain("not_claude");
  expect(final.reason).toBe("signal");
});
