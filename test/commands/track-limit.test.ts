/** The usage limit through the hooks: StopFailure records it, ctx status and the status line show it, a turn clears it. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { projectSandbox, type ProjectSandbox } from "../helpers/tmp.ts";

const FIXTURE = join(import.meta.dir, "..", "fixtures", "transcripts", "track-basic.jsonl");
/** A reset about an hour ahead, in the client's wording (UTC), and what ctx should read from it. */
function ahead(): { msg: string; iso: string; berlin: string } {
  const at = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 3_600_000);
  const h = at.getUTCHours();
  const mm = String(at.getUTCMinutes()).padStart(2, "0");
  const msg = `You've hit your session limit · resets ${h % 12 || 12}:${mm}${h < 12 ? "am" : "pm"} (UTC)`;
  const f = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Berlin", hour: "2-digit", minute: "2-digit" });
  return { msg, iso: at.toISOString(), berlin: f.format(at) };
}
let t: ProjectSandbox["t"];
let env: Record<string, string>;
let project: string;
beforeEach(() => {
  ({ t, env, project } = projectSandbox());
  env = { ...env, NO_COLOR: "1", TZ: "Europe/Berlin" };
  mkdirSync(env.TMPDIR!, { recursive: true });
});
afterEach(() => t.cleanup());

const readJson = (p: string) => JSON.parse(readFileSync(p, "utf8"));
const state = () => readJson(join(project, ".ctx", "state", "sessions", "s1.json"));
const entry = () => readJson(join(env.XDG_STATE_HOME!, "ctx", "sessions", "s1.json"));
function hook(event: string, over: Record<string, unknown> = {}): string {
  return JSON.stringify({ session_id: "s1", transcript_path: FIXTURE, cwd: project, hook_event_name: event, ...over });
}
async function track(input: string) {
  const r = await runCtx(["track"], { stdin: input, env });
  expect(r.code).toBe(0);
  return r;
}

describe("ctx track: the usage limit", () => {
  test("StopFailure with rate_limit records limit and resets_at; status and the status line show it in local time; Stop clears it", async () => {
    const { msg, iso, berlin } = ahead();
    await track(hook("SessionStart", { source: "startup" }));
    await track(hook("StopFailure", { error: "rate_limit", last_assistant_message: msg }));
    expect(state()).toMatchObject({ limit: msg, resets_at: iso });
    expect(typeof state().limit_at).toBe("string");
    expect(entry()).toMatchObject({ limit: msg, resets_at: iso });

    const st = await runCtx(["status", "--json"], { env });
    const row = JSON.parse(st.stdout).sessions[0];
    expect(row).toMatchObject({ limit: msg, resets_at: iso });
    const table = await runCtx(["status"], { env });
    expect(table.stdout).toContain(`limit · resets ${berlin}`); // local time: TZ=Europe/Berlin

    const payload = JSON.stringify({
      session_id: "s1",
      cwd: project,
      model: { id: "claude-sonnet-4-5", display_name: "Sonnet 4.5" },
      workspace: { current_dir: project, project_dir: project },
    });
    const line = await runCtx(["statusline"], { stdin: payload, env });
    expect(line.stdout).toContain(`limit · resets ${berlin}`);

    await track(hook("Stop"));
    expect(state()).toMatchObject({ limit: null, limit_at: null, resets_at: null });
    expect(entry()).toMatchObject({ limit: null, resets_at: null });
    expect((await runCtx(["statusline"], { stdin: payload, env })).stdout).not.toContain("limit");
  });

  test("another StopFailure (a server error) is no limit; an API key's 429 is one without a reset", async () => {
    await track(hook("StopFailure", { error: "server_error", last_assistant_message: "API Error: 500" }));
    expect(state().limit).toBeNull();
    const key = "API Error: Request rejected (429) · rate limited";
    await track(hook("StopFailure", { error: "rate_limit", last_assistant_message: key }));
    expect(state()).toMatchObject({ limit: "API Error: Request rejected (429)", resets_at: null });
    const table = await runCtx(["status"], { env });
    expect(table.stdout).toMatch(/limit +\S* *\d+s ago/); // the STATE column says `limit`, no reset time
  });

  test("a client without StopFailure: the transcript's API error line records the limit; a later request ends it", async () => {
    const { msg, iso } = ahead();
    const transcript = join(t.dir, "limit.jsonl");
    const err = {
      type: "assistant",
      timestamp: new Date().toISOString(),
      isApiErrorMessage: true,
      error: "rate_limit",
      message: {
        id: "m_err",
        model: "<synthetic>",
        usage: { input_tokens: 0, output_tokens: 0 },
        content: [{ type: "text", text: msg }],
      },
    };
    writeFileSync(transcript, `${readFileSync(FIXTURE, "utf8").trimEnd()}\n${JSON.stringify(err)}\n`);
    await track(hook("Stop", { transcript_path: transcript })); // the turn ended at the limit: Stop does not clear it
    expect(state()).toMatchObject({ limit: msg, resets_at: iso });
    const later = {
      type: "assistant",
      timestamp: new Date().toISOString(),
      requestId: "req_after",
      message: {
        id: "m_after",
        model: "claude-sonnet-4-5",
        usage: { input_tokens: 100, cache_read_input_tokens: 9000, output_tokens: 5 },
        content: [{ type: "text", text: "ok" }],
      },
    };
    writeFileSync(transcript, `${readFileSync(transcript, "utf8")}${JSON.stringify(later)}\n`);
    await track(hook("Stop", { transcript_path: transcript }));
    expect(state()).toMatchObject({ limit: null, resets_at: null });
  });
});
