/**
 * The compiled binary runs inside users' projects (hooks get the project as
 * cwd): Bun's standalone autoloading of `.env` and `bunfig.toml` must be off,
 * or a project's bunfig `preload` would run code inside every hook and its
 * `.env` would change ctx's configuration.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "./helpers/ctx.ts";
import { projectSandbox, type ProjectSandbox } from "./helpers/tmp.ts";

let sb: ProjectSandbox;
beforeEach(() => (sb = projectSandbox()));
afterEach(() => sb.t.cleanup());

test("ctx ignores the project's bunfig.toml preload and .env", async () => {
  const marker = join(sb.t.dir, "preloaded");
  writeFileSync(join(sb.project, "evil.ts"), `require("fs").writeFileSync(${JSON.stringify(marker)}, "ran");\n`);
  writeFileSync(join(sb.project, "bunfig.toml"), 'preload = ["./evil.ts"]\n');
  writeFileSync(join(sb.project, ".env"), "CTX_MONITOR_WARNING_REMAINING=off\nNO_COLOR=\n");
  const now = Math.floor(Date.now() / 1000);
  writeFileSync(
    join(sb.env.TMPDIR!, "claude-ctx-s1.json"),
    JSON.stringify({
      session_id: "s1",
      used_pct: 70,
      remaining_percentage: 30,
      timestamp: now,
      used_tokens: 140000,
      context_window_size: 200000,
    }),
  );
  const r = await runCtx(["monitor"], {
    stdin: JSON.stringify({ session_id: "s1", cwd: sb.project, hook_event_name: "PostToolUse" }),
    env: sb.env,
    cwd: sb.project,
  });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("CONTEXT WARNING");
  expect(existsSync(marker)).toBe(false);
});
