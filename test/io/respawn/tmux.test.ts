import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tmuxClient } from "../../../src/io/respawn/tmux.ts";

// A private tmux server: TMUX_TMPDIR in a temp dir, TMUX unset, so the user's server is never touched.
let dir = "";
let env: Record<string, string> = {};
beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "ctx-tmux-")));
  env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: dir, TMUX_TMPDIR: dir, TERM: "xterm-256color" };
});
afterAll(async () => {
  await tmuxClient(env)
    .run(["kill-server"])
    .catch(() => {});
  rmSync(dir, { recursive: true, force: true });
});

test("tmuxClient uses the default server under TMUX_TMPDIR, passes the environment and types text then Enter", async () => {
  const tmux = tmuxClient(env);
  expect(await tmux.hasSession("t1")).toBe(false);
  const script = 'printf "ready %s\\n" "$CTX_PROBE"; while IFS= read -r line; do printf "got[%s]\\n" "$line"; done';
  const pane = await tmux.newSession(
    "t1",
    dir,
    ["sh", "-c", script],
    { ...env, CTX_PROBE: "probe-42", TMUX: "/elsewhere,1,0" },
    { width: 80, height: 20 },
  );
  expect(pane).toMatch(/^%\d+$/);
  expect(await tmux.hasSession("t1")).toBe(true);
  // The server's socket lives in TMUX_TMPDIR, as tmux itself does it.
  expect(Bun.spawnSync(["ls", join(dir, `tmux-${process.getuid!()}`)]).stdout.toString()).toContain("default");
  await waitFor(async () => (await tmux.capture(pane)).includes("ready probe-42"));
  await tmux.sendText(pane, "hello world", 100);
  await waitFor(async () => (await tmux.capture(pane)).includes("got[hello world]"));
  const info = await tmux.paneInfo(pane);
  expect(info).toMatchObject({ id: pane, dead: false, path: dir });
  expect(info.pid).toBeGreaterThan(1);
  await tmux.sendKeys(pane, ["C-d"]);
  await waitFor(async () => !(await tmux.hasSession("t1")));
  await expect(tmux.capture(pane)).rejects.toThrow("capture-pane");
});

test("paneInfo() of a target that does not exist fails instead of naming tmux's default pane", async () => {
  const tmux = tmuxClient(env);
  await tmux.newSession("t2", dir, ["sh", "-c", "sleep 30"], env, { width: 80, height: 20 });
  await expect(tmux.paneInfo("nosuch:0")).rejects.toThrow(/can't find|no such|not found/i);
  await expect(tmux.paneInfo("")).rejects.toThrow();
  expect((await tmux.paneInfo("t2")).id).toMatch(/^%\d+$/);
});

test("newSession() gives the pane exactly our environment, not the running server's globals too", async () => {
  const tmux = tmuxClient(env);
  await tmux.newSession("g1", dir, ["sh", "-c", "sleep 30"], env, { width: 80, height: 20 });
  await tmux.run(["set-environment", "-g", "CTX_LEAK_PROBE", "leaked"]);
  const pane = await tmux.newSession(
    "g2",
    dir,
    ["sh", "-c", 'printf "probe=[%s] mine=[%s]\\n" "$CTX_LEAK_PROBE" "$CTX_MINE"; exec sleep 30'],
    { ...env, CTX_MINE: "yes" },
    { width: 80, height: 20 },
  );
  await waitFor(async () => (await tmux.capture(pane)).includes("probe=["));
  expect(await tmux.capture(pane)).toContain("probe=[] mine=[yes]");
});

async function waitFor(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await Bun.sleep(50);
  }
}
