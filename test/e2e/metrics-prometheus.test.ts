/**
 * The fleet view end to end: two sessions tracked by the real `ctx track` hook, `ctx metrics
 * --textfile` into the directory of the real Debian `prometheus-node-exporter` (1.5), scraped by
 * the real `prometheus` (2.42), both on free ports of 127.0.0.1 with temp data directories. The
 * PromQL query `ctx_context_used_ratio` answers both sessions with their values and labels; once
 * one ends, the next refresh drops it and its series goes stale. `.ci/run` installs both with apt.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { hostname } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { runCtx } from "../helpers/ctx.ts";
import { isolatedEnv, tempDir } from "../helpers/tmp.ts";

const PROMETHEUS = "/usr/bin/prometheus";
const NODE_EXPORTER = "/usr/bin/prometheus-node-exporter";

let t: ReturnType<typeof tempDir>;
let env: Record<string, string>;
let textfiles: string;
let promPort: number;
const procs: Subprocess[] = [];

/** A port nothing listens on now (the kernel's pick for port 0 on 127.0.0.1). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Polls `probe` every 100 ms, at most `tries` times; its last answer. */
async function poll<T>(tries: number, probe: () => Promise<T | undefined>): Promise<T | undefined> {
  for (let i = 0; i < tries; i++) {
    const got = await probe().catch(() => undefined);
    if (got !== undefined) return got;
    await Bun.sleep(100);
  }
  return undefined;
}

interface PromSample {
  metric: Record<string, string>;
  value: [number, string];
}

/** The instant query's result, or undefined when Prometheus does not answer yet. */
async function query(promql: string): Promise<PromSample[] | undefined> {
  const r = await fetch(`http://127.0.0.1:${promPort}/api/v1/query?query=${encodeURIComponent(promql)}`);
  if (!r.ok) return undefined;
  const body = (await r.json()) as { status: string; data: { result: PromSample[] } };
  return body.status === "success" ? body.data.result : undefined;
}

/** One session as the client drives ctx: a SessionStart and a Stop hook over a transcript with one request. */
async function trackSession(project: string, sid: string, contextTokens: number): Promise<void> {
  const transcript = join(project, `${sid}.jsonl`);
  const usage = {
    input_tokens: 100,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: contextTokens - 100,
    output_tokens: 10,
  };
  const line = {
    type: "assistant",
    sessionId: sid,
    requestId: `req_${sid.slice(0, 8)}`,
    timestamp: new Date().toISOString(),
    message: { id: `msg_${sid.slice(0, 8)}`, role: "assistant", model: "claude-sonnet-4-5", content: [], usage },
  };
  writeFileSync(transcript, `${JSON.stringify(line)}\n`);
  for (const event of ["SessionStart", "Stop"]) {
    const payload = {
      session_id: sid,
      transcript_path: transcript,
      cwd: project,
      hook_event_name: event,
      source: "startup",
    };
    const r = await runCtx(["track"], {
      env: { ...env, CLAUDE_PROJECT_DIR: project },
      cwd: project,
      stdin: JSON.stringify(payload),
    });
    expect(r.code).toBe(0);
  }
}

beforeAll(async () => {
  for (const bin of [PROMETHEUS, NODE_EXPORTER])
    if (!existsSync(bin))
      throw new Error(
        `${bin} is missing: install Debian's prometheus and prometheus-node-exporter (.ci/run does it with apt-get)`,
      );
  t = tempDir();
  env = isolatedEnv(t.dir);
  mkdirSync(env.TMPDIR!, { recursive: true });
  textfiles = join(t.dir, "textfile");
  mkdirSync(textfiles);
  const exporterPort = await freePort();
  promPort = await freePort();
  procs.push(
    Bun.spawn(
      [
        NODE_EXPORTER,
        `--web.listen-address=127.0.0.1:${exporterPort}`,
        "--collector.disable-defaults",
        "--collector.textfile",
        `--collector.textfile.directory=${textfiles}`,
      ],
      { stdout: "ignore", stderr: "ignore" },
    ),
  );
  const config = join(t.dir, "prometheus.yml");
  writeFileSync(
    config,
    [
      "global:",
      "  scrape_interval: 1s",
      "  evaluation_interval: 1s",
      "scrape_configs:",
      "  - job_name: node",
      "    static_configs:",
      `      - targets: ["127.0.0.1:${exporterPort}"]`,
      "",
    ].join("\n"),
  );
  procs.push(
    Bun.spawn(
      [
        PROMETHEUS,
        `--config.file=${config}`,
        `--storage.tsdb.path=${join(t.dir, "tsdb")}`,
        `--web.listen-address=127.0.0.1:${promPort}`,
      ],
      { stdout: "ignore", stderr: "ignore" },
    ),
  );
});

afterAll(async () => {
  for (const p of procs) p.kill();
  await Promise.all(procs.map((p) => p.exited));
  t?.cleanup();
});

test("two sessions in ctx_context_used_ratio with their values and labels; an ended one goes stale", async () => {
  const api = join(t.dir, "code", "api");
  const web = join(t.dir, "code", "web");
  mkdirSync(api, { recursive: true });
  mkdirSync(web, { recursive: true });
  await trackSession(api, "aaaa1111-0000-4000-8000-000000000001", 132_000); // 66% of 200k
  await trackSession(web, "bbbb2222-0000-4000-8000-000000000002", 50_000); // 25%
  expect((await runCtx(["metrics", "--textfile", textfiles], { env, cwd: t.dir })).code).toBe(0);

  const both = await poll(300, async () => {
    const r = await query("ctx_context_used_ratio");
    return r && r.length === 2 ? r : undefined;
  });
  expect(both).toBeDefined();
  const seen: Array<Record<string, unknown>> = [...both!]
    .sort((a, b) => (a.metric.project ?? "").localeCompare(b.metric.project ?? ""))
    .map((s) => ({ ...s.metric, value: Number(s.value[1]) }));
  const host = hostname();
  expect(seen).toEqual([
    {
      __name__: "ctx_context_used_ratio",
      agent: "claude",
      project: "api",
      session: "aaaa1111",
      host,
      instance: expect.any(String),
      job: "node",
      value: 0.66,
    },
    {
      __name__: "ctx_context_used_ratio",
      agent: "claude",
      project: "web",
      session: "bbbb2222",
      host,
      instance: expect.any(String),
      job: "node",
      value: 0.25,
    },
  ]);
  console.log(
    `PromQL ctx_context_used_ratio → ${JSON.stringify(both!.map((s) => [s.metric.project, s.metric.session, s.value[1]]))}`,
  );

  // the web session ends; the next refresh drops it, and Prometheus marks its series stale
  const end = {
    session_id: "bbbb2222-0000-4000-8000-000000000002",
    cwd: web,
    hook_event_name: "SessionEnd",
    reason: "exit",
  };
  expect(
    (await runCtx(["track"], { env: { ...env, CLAUDE_PROJECT_DIR: web }, cwd: web, stdin: JSON.stringify(end) })).code,
  ).toBe(0);
  expect((await runCtx(["metrics", "--textfile", textfiles], { env, cwd: t.dir })).code).toBe(0);
  const one = await poll(300, async () => {
    const r = await query("ctx_context_used_ratio");
    return r && r.length === 1 ? r : undefined;
  });
  expect(one?.map((s) => [s.metric.project, s.value[1]])).toEqual([["api", "0.66"]]);
  console.log(
    `after SessionEnd → ${JSON.stringify(one!.map((s) => [s.metric.project, s.metric.session, s.value[1]]))}`,
  );
}, 90_000);
