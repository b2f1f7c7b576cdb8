/**
 * Issue 29: a `/compact` the user types. The real client in a real tmux, a few exchanges (the pinned client
 * refuses "Not enough messages to compact." on one), the session at WARNING; the user types `/compact` like a
 * person. ctx records it with trigger `manual` and the level it left, the level and debounce start over, and
 * the summary written after it still names the goal from before it.
 */
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { CLIENT } from "./claude.ts";
import { stopAfterEach } from "./client-pane.ts";
import { bashTurn, type Script, textTurn } from "./fake-api.ts";
import { compactionEvent, hooksRan } from "./project-state.ts";

const rig = stopAfterEach();

const GOAL = "Move the audit log writer to the new storage layer";

test(`e2e manual /compact (${CLIENT.version}): recorded as manual, the level reset, the goal kept`, async () => {
  const script: Script = {
    main: [
      bashTurn("echo one", 60_000),
      textTurn("Step one done.", 61_000),
      bashTurn("echo two", 140_000), // WARNING: 70 % of a 200k window, or of the default 200k budget of a 1M one
      textTurn("Step two done.", 141_000),
      textTurn("Step three noted.", 142_000),
      bashTurn("echo four", 20_000), // after the compaction: back to ok
      textTurn("Done after the compaction.", 20_200),
    ],
    compact: () => ({
      content: [
        {
          type: "text",
          text: `<summary>\n1. Primary Request and Intent:\n   ${GOAL}.\n\n2. Pending Tasks:\n   - step four\n</summary>`,
        },
      ],
      usage: { input_tokens: 200, output_tokens: 60 },
    }),
  };
  // no --model: the client's default, a 1M window
  const { api, sandbox, pane: tmux } = await rig.installed(script, { model: null, height: 60 });
  await tmux.sendText(GOAL);
  await tmux.waitFor((s) => s.includes("Step one done."), 90_000);
  await tmux.sendText("go on with step two");
  await tmux.waitFor((s) => s.includes("Step two done."), 90_000);
  await tmux.sendText("note step three");
  await tmux.waitFor((s) => s.includes("Step three noted."), 90_000);
  const root = join(sandbox.project, ".ctx");
  const sessions = join(root, "state", "sessions");
  const sid = readdirSync(sessions)
    .find((n) => /^[0-9a-f-]{36}\.json$/.test(n))!
    .slice(0, -5);
  const stateOf = () => JSON.parse(readFileSync(join(sessions, `${sid}.json`), "utf8"));
  expect(stateOf().threshold_reached).toBe("warning");
  // the user types /compact like a person: the letters, then Enter
  await tmux.sendKeys("-l", "/compact");
  await Bun.sleep(400);
  await tmux.sendKeys("Enter");
  for (let i = 0; i < 600 && api.compactRequests().length === 0; i++) await Bun.sleep(100);
  expect(api.compactRequests().length).toBeGreaterThanOrEqual(1);
  // An empty input box: under load the typed `/compact` can stand in it again after the compaction (whole
  // runs sent "/compactrun step four", or kept "/compact" with its menu open), so a person would clear it.
  const empty = (screen: string) => /^❯\s*$/m.test(screen);
  if (
    !(await tmux.waitFor(empty, 10_000).then(
      () => true,
      () => false,
    ))
  ) {
    // Backspaces, as a person would: Escape and C-u left "/compact" standing in 2.1.197's box (a loaded run).
    for (let round = 0; round < 3; round++) {
      await tmux.sendKeys(...Array<string>(16).fill("BSpace"));
      const cleared = await tmux.waitFor(empty, 10_000).then(
        () => true,
        () => false,
      );
      if (cleared) break;
    }
    await tmux.waitFor(empty, 10_000);
  }
  await hooksRan(sandbox.project, ["SessionStart"]); // the compaction done: its SessionStart (source compact)
  await tmux.sendText("run step four");
  await tmux.waitFor((s) => s.includes("Done after the compaction."), 90_000);
  const event = await compactionEvent(sandbox.project);
  console.log(`client ${CLIENT.version}: the compaction event ${JSON.stringify(event)}`);
  expect(event).toMatchObject({ session_id: sid, trigger: "manual", level_before: "warning", debounce_reset: true });
  expect(event!.tokens_before).toBeGreaterThanOrEqual(140_000);
  // the context after it: the first usage after the compaction (2.1.197's boundary gives no size of its own)
  expect(event!.tokens_after as number).toBeGreaterThan(0);
  expect(event!.tokens_after as number).toBeLessThan(100_000);
  // the level and debounce started over
  const state = stateOf();
  expect(state.threshold_reached).toBeNull();
  expect(state.compactions).toBe(1);
  // the summary written after the compaction still names the goal from before it
  const fin = await runCtx(["finalize", "--session", sid], { env: sandbox.env, cwd: sandbox.project });
  expect(fin.code).toBe(0);
  const md = readFileSync(fin.stdout.trim(), "utf8");
  expect(md).toContain(`## Goal\n> ${GOAL}`);
  expect(md).toMatch(/1 compaction: 1 manual\)/);
}, 240_000);
