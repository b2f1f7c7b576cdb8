/**
 * Symlinked state directories (a cloned repository can commit `.ctx -> /elsewhere`):
 * ctx never writes through a link at its state root or any directory under it,
 * nor through a link or FIFO at the respawn log.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { runInproc } from "./inproc.ts";
import { makeSandbox, waitForStrays, type Sandbox } from "./sandbox.ts";

let sb: Sandbox;
beforeEach(() => (sb = makeSandbox({ CTX_TRACK_FINALIZE_ON_END: "never", CTX_MONITOR_TRANSCRIPT_WAIT_MS: "0" })));
afterEach(() => sb.cleanup());

const SID = "s-link";
const hook = (event: string, extra: Record<string, unknown> = {}) =>
  Buffer.from(
    JSON.stringify({
      session_id: SID,
      cwd: sb.project,
      hook_event_name: event,
      transcript_path: sb.transcript,
      tool_name: "Bash",
      tool_input: { command: "ls" },
      tool_response: { stdout: "" },
      ...extra,
    }),
  );

/** Every hook that writes state, plus finalize and the resume hook. */
async function runEverything(): Promise<void> {
  writeFileSync(
    join(sb.env.TMPDIR!, `claude-ctx-${SID}.json`),
    JSON.stringify({ session_id: SID, used_pct: 80, remaining_percentage: 20, timestamp: Date.now() / 1000 }),
  );
  const run = (argv: string[], stdin: Uint8Array) => runInproc(argv, { env: sb.env, cwd: sb.project, stdin });
  for (const [argv, stdin] of [
    [["track"], hook("SessionStart", { source: "startup" })],
    [["track"], hook("PostToolUse")],
    [["track"], hook("PreCompact", { trigger: "auto" })],
    [["monitor"], hook("PostToolUse")],
    [["resume", "--hook"], hook("SessionStart", { source: "clear" })],
    [["finalize", "--session", SID, "--transcript", sb.transcript], new Uint8Array()],
  ] as const) {
    const r = await run([...argv], stdin);
    expect(r.thrown).toBeUndefined();
  }
  await waitForStrays(sb.dir);
}

describe("a symlinked state directory is never written through", () => {
  const LINKS = [
    ".ctx",
    ".ctx/state",
    ".ctx/sessions",
    ".ctx/state/sessions",
    ".ctx/state/monitor",
    ".ctx/events",
    "$XDG_STATE_HOME/ctx",
    "$XDG_STATE_HOME/ctx/sessions",
  ];
  test.each(LINKS)("%s -> elsewhere: nothing lands there, nothing there is removed", async (at) => {
    const elsewhere = join(sb.dir, "elsewhere");
    mkdirSync(elsewhere);
    // A file there named like an abandoned temp file of ours: the SessionStart sweep must not touch it.
    const victim = join(elsewhere, ".precious.123.abc.tmp");
    writeFileSync(victim, "precious");
    utimesSync(victim, new Date(Date.now() - 86_400_000), new Date(Date.now() - 86_400_000));
    const link = at.startsWith("$") ? at.replace("$XDG_STATE_HOME", sb.env.XDG_STATE_HOME!) : join(sb.project, at);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(elsewhere, link);
    await runEverything();
    expect(readdirSync(elsewhere)).toEqual([".precious.123.abc.tmp"]);
  });

  test("the control: with real directories the same runs write state, records and the index", async () => {
    await runEverything();
    expect(readdirSync(join(sb.project, ".ctx", "state", "sessions"))).toContain(`${SID}.json`);
    expect(readdirSync(join(sb.project, ".ctx", "sessions")).some((n) => n.startsWith("summary-"))).toBe(true);
    expect(readdirSync(join(sb.env.XDG_STATE_HOME!, "ctx", "sessions"))).toContain(`${SID}.json`);
    expect(readdirSync(join(sb.project, ".ctx", "events")).some((n) => n.startsWith("session-compressed-"))).toBe(true);
  });
});

describe("the respawn log", () => {
  const start = () =>
    runCtx(["respawn", "start", "--name", "lg", "--daemon"], {
      env: { ...sb.env, TMUX_TMPDIR: join(sb.dir, "tmux"), CTX_CLAUDE: join(sb.dir, "no-such-claude") },
      cwd: sb.project,
      timeoutMs: 8000,
    });
  const logPath = () => join(sb.project, ".ctx", "state", "respawn", "lg.log");

  test("a symlink at the log: the file it points to is never appended to", async () => {
    const victim = join(sb.dir, "victim.txt");
    writeFileSync(victim, "precious\n");
    mkdirSync(dirname(logPath()), { recursive: true });
    symlinkSync(victim, logPath());
    const r = await start();
    expect(r.code).toBe(1);
    expect(readFileSync(victim, "utf8")).toBe("precious\n");
  });

  test("a FIFO at the log: start does not block on it", async () => {
    mkdirSync(dirname(logPath()), { recursive: true });
    Bun.spawnSync(["mkfifo", logPath()]);
    const r = await start();
    expect(r.code).toBe(1); // it ended by itself (a start blocked on the FIFO would be killed at timeoutMs)
  });

  test("a symlinked .ctx/state/respawn: start refuses and says why", async () => {
    const elsewhere = join(sb.dir, "elsewhere");
    mkdirSync(elsewhere);
    mkdirSync(join(sb.project, ".ctx", "state"), { recursive: true });
    symlinkSync(elsewhere, join(sb.project, ".ctx", "state", "respawn"));
    const r = await start();
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("symlink");
    expect(readdirSync(elsewhere)).toEqual([]);
    rmSync(join(sb.project, ".ctx", "state", "respawn"));
  });
});
