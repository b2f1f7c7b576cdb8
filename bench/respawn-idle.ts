/**
 * The cost of watching an idle session: `ctx respawn attach` on a tmux pane
 * showing an idle Claude Code screen, with the hooks' state and a 1 MB
 * transcript in place. Reports CPU time / wall time (share of one core) of
 * the supervisor with its tmux client children, and of the tmux server.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CTX, sandbox, table, type Row } from "./lib.ts";

const WALL_S = Number(process.env.BENCH_RESPAWN_S ?? 20);
const TARGET_PCT = 2;
const RULE = "─".repeat(100);
const IDLE_SCREEN = `❯ hello there\n● working on it\n✻ Churned for 4s\n${RULE}\n❯ \n${RULE}\n  ? for shortcuts · ← for agents`;

/** Measures the idle watch and returns the table rows. */
export async function benchRespawnIdle(): Promise<Row[]> {
  const { root, env } = sandbox();
  const project = join(root, "proj");
  const state = join(project, ".ctx", "state");
  mkdirSync(state, { recursive: true });
  const transcript = join(root, "t.jsonl");
  const line = JSON.stringify({
    type: "assistant",
    message: {
      model: "claude-sonnet-4-5",
      usage: { input_tokens: 100, cache_read_input_tokens: 99_900 },
      content: [{ type: "text", text: "x".repeat(500) }],
    },
  });
  writeFileSync(transcript, `${line}\n`.repeat(Math.ceil(1e6 / line.length)));
  writeFileSync(
    join(state, "context-usage.json"),
    JSON.stringify({
      version: 1,
      session_id: "bench",
      used_tokens: 100_000,
      used_pct: 50,
      updated_at: new Date().toISOString(),
      last_stop_at: null,
      transcript_path: transcript,
    }),
  );
  writeFileSync(join(root, "screen.txt"), IDLE_SCREEN);
  const tenv = { ...env, TMUX_TMPDIR: root, CTX_CLAUDE: "/bin/true", CLAUDE_PROJECT_DIR: project };
  const tmux = (...a: string[]) =>
    Bun.spawnSync(["tmux", ...a], { env: tenv })
      .stdout.toString()
      .trim();
  tmux(
    "new-session",
    "-d",
    "-s",
    "idle",
    "-x",
    "120",
    "-y",
    "30",
    "sh",
    "-c",
    `cat ${join(root, "screen.txt")}; exec sleep 100000`,
  );
  const serverPid = Number(tmux("display-message", "-p", "#{pid}"));
  const sup = Bun.spawn([CTX, "respawn", "attach", "--target", "idle", "--name", "bench"], {
    cwd: project,
    env: tenv,
    stdout: "ignore",
    stderr: "ignore",
  });
  try {
    await Bun.sleep(3000); // start-up and the first captures are not the steady state
    const [s0, t0, w0] = [cpuTicks(sup.pid, true), cpuTicks(serverPid, false), performance.now()];
    await Bun.sleep(WALL_S * 1000);
    const [s1, t1, w1] = [cpuTicks(sup.pid, true), cpuTicks(serverPid, false), performance.now()];
    const rec = JSON.parse(readFileSync(join(state, "respawn", "bench.json"), "utf8"));
    if (rec.phase !== "idle" || rec.machine.screen?.finished !== true)
      throw new Error(`the supervisor is not watching the idle pane: ${rec.phase}`);
    const hz = 100; // USER_HZ on Linux
    const wallS = (w1 - w0) / 1000;
    const supPct = ((s1 - s0) / hz / wallS) * 100;
    const srvPct = ((t1 - t0) / hz / wallS) * 100;
    return [
      {
        figure: `respawn idle watch: supervisor CPU / wall (${WALL_S} s, poll 1 s)`,
        measured: `${supPct.toFixed(2)} %`,
        target: `< ${TARGET_PCT} %`,
        pass: supPct < TARGET_PCT,
      },
      {
        figure: "respawn idle watch: supervisor + tmux server CPU / wall",
        measured: `${(supPct + srvPct).toFixed(2)} %`,
        target: `< ${TARGET_PCT} %`,
        pass: supPct + srvPct < TARGET_PCT,
      },
    ];
  } finally {
    sup.kill("SIGTERM");
    await sup.exited;
    tmux("kill-server");
    Bun.spawnSync(["rm", "-rf", root]);
  }
}

// --- internal ---

/** utime + stime (+ the reaped children's with `children`) of a process, in clock ticks. */
function cpuTicks(pid: number, children: boolean): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat
    .slice(stat.lastIndexOf(")") + 2)
    .split(" ")
    .map(Number);
  // Fields after ")" start at field 3; utime=14, stime=15, cutime=16, cstime=17.
  const [ut, st, cut, cst] = [f[11]!, f[12]!, f[13]!, f[14]!];
  return ut + st + (children ? cut + cst : 0);
}

if (import.meta.main) {
  console.log(table(await benchRespawnIdle()));
}
