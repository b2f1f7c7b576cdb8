/**
 * Secrets in the process list: `ctx respawn start` must hand its environment to
 * the tmux pane without any value on a command line. Real tmux (a private
 * server under TMUX_TMPDIR), the compiled ctx, and a stand-in for claude that
 * records what it received.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tmuxClient } from "../../src/io/respawn/tmux.ts";
import { runCtx } from "../helpers/ctx.ts";
import { makeSandbox, type Sandbox } from "./sandbox.ts";

let sb: Sandbox;
let env: Record<string, string>;
const secret = () => `s3cr3t-${Math.random().toString(36).slice(2, 12)}`;

beforeEach(() => {
  sb = makeSandbox();
  const fake = join(sb.dir, "fake-claude");
  // Records the secrets it got, draws an idle screen, and waits.
  writeFileSync(
    fake,
    `#!/bin/sh\nprintf '%s %s\\n' "$MY_SECRET_TOKEN" "$ANTHROPIC_API_KEY" > "$PROBE_OUT.$$"\nprintf '✻ Baked for 3s\\n\\n────────\\n❯ \\n────────\\n'\nexec sleep 600\n`,
  );
  chmodSync(fake, 0o755);
  env = {
    ...sb.env,
    TMUX_TMPDIR: join(sb.dir, "tmux"),
    CTX_CLAUDE: fake,
    CTX_RESPAWN_POLL_MS: "200",
    PROBE_OUT: join(sb.dir, "probe"),
  };
  mkdirSync(env.TMUX_TMPDIR!, { recursive: true });
});
afterEach(async () => {
  await runCtx(["respawn", "stop"], { env, cwd: sb.project }).catch(() => {});
  await tmuxClient(env)
    .run(["kill-server"])
    .catch(() => {});
  sb.cleanup();
});

/** Every command line on the machine, as `ps -eo args` shows them. */
const psArgs = () => Bun.spawnSync(["ps", "-eo", "args"]).stdout.toString();

test("respawn start (fresh server, then a running one): no value of the supervisor's environment shows in ps, the pane still gets it", async () => {
  for (const [i, name] of ["leak1", "leak2"].entries()) {
    const values = { MY_SECRET_TOKEN: secret(), ANTHROPIC_API_KEY: `sk-ant-${secret()}` };
    const runEnv = { ...env, ...values };
    const r = await runCtx(["respawn", "start", "--name", name, "--daemon"], { env: runEnv, cwd: sb.project });
    expect({ i, code: r.code, stderr: r.stderr }).toMatchObject({ i, code: 0 });
    // The pane's command has run and written what it received.
    const deadline = Date.now() + 10_000;
    const got = () =>
      readdirSync(sb.dir)
        .filter((n) => n.startsWith("probe."))
        .map((n) => readFileSync(join(sb.dir, n), "utf8"));
    while (!got().some((t) => t.includes(values.MY_SECRET_TOKEN)) && Date.now() < deadline) await Bun.sleep(50);
    expect(got()).toContain(`${values.MY_SECRET_TOKEN} ${values.ANTHROPIC_API_KEY}\n`);
    const ps = psArgs();
    expect(ps).toContain(`respawn start --name ${name}`); // the supervisor is there to be seen
    expect(ps).toContain("tmux"); // and the server
    for (const v of Object.values(values)) expect({ i, leaked: ps.includes(v) }).toEqual({ i, leaked: false });
    // No KEY=VALUE of the supervisor's own variables (those naming this sandbox: other processes on the
    // machine may well show a common one like NODE_ENV=test), and no `-e` hand-over at all.
    for (const [k, v] of Object.entries(runEnv).filter(([, v]) => v.includes(sb.dir)))
      expect({ k, leaked: ps.includes(`${k}=${v}`) }).toEqual({ k, leaked: false });
    // (only our own tmux: other tmux servers on the machine are not this test's business)
    for (const line of ps.split("\n").filter((l) => l.includes("new-session") && l.includes(sb.project)))
      expect({ line, handover: / -e \S+=/.test(line) }).toEqual({ line, handover: false });
    // The hand-over file is gone once the pane has read it.
    expect(readdirSync(env.TMPDIR!).filter((n) => n.startsWith("ctx-launch-"))).toEqual([]);
  }
}, 60_000);
