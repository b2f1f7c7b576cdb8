/**
 * Codex CLI's hook trust as text: the identity whose SHA-256 Codex records (hashes checked against
 * `codex app-server` `hooks/list` `currentHash` of 0.169.0, /tmp sandboxes) and the config.toml tables.
 */
import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import {
  ctxHookIds,
  hookIdentity,
  readTrust,
  snakeEvent,
  withoutTrust,
  withTrust,
} from "../../../src/core/agents/codex-trust.ts";

const sha = (s: string) => createHash("sha256").update(s).digest("hex");

describe("the identity Codex hashes", () => {
  test.each([
    // (event, matcher, hook) → currentHash that codex app-server reported for it
    [
      "PostToolUse",
      undefined,
      { type: "command", command: "a" },
      "0591e7b289d13cb14a687c5fb881f25be3cf471ab7dcd97664aed0dc8432a769",
    ],
    [
      "PostToolUse",
      "Bash",
      { type: "command", command: "a" },
      "f5bc0cfd9c37a726d08da66f6e85ec7f4e7afaca1208430ffb64eb71dd20224a",
    ],
    [
      "Stop",
      undefined,
      { type: "command", command: "a" },
      "c75a850480544f28d4a0e3e73be3b2659a93058c0746b3a82ad494187e86ecbc",
    ],
    [
      "Stop",
      undefined,
      { type: "command", command: "a", timeout: 5 },
      "8ea23acde6178071459edb166ba9e6af103555180bce4fae61fb8bf15575ebd7",
    ],
    [
      "SessionStart",
      undefined,
      { type: "command", command: "ctx resume --hook", timeout: 30, additionalContextLimit: 20000 },
      "042ac533d19830fb77553d7cb16af6385209afb1c25b7bd79f0303380a75009e",
    ],
    [
      "SessionStart",
      undefined,
      { type: "command", command: "ctx track", timeout: 30, statusMessage: "hi" },
      "d5c68e4cf8b91ae8ca9e91835b40ad67f65a59834e138dea0cce3e94eeb1281d",
    ],
  ] as const)("%s %s %j", (event, matcher, hook, hash) => {
    expect(sha(hookIdentity(event, matcher, hook))).toBe(hash);
  });
  test("event names in snake case; a SessionEnd's timeout capped at 3 s", () => {
    expect(["PostToolUse", "SessionStart", "UserPromptSubmit", "PreCompact"].map(snakeEvent)).toEqual([
      "post_tool_use",
      "session_start",
      "user_prompt_submit",
      "pre_compact",
    ]);
    expect(hookIdentity("SessionEnd", undefined, { command: "ctx track", timeout: 30 })).toContain('"timeout":3');
  });
  test("keys name the file, the event, the group and the hook; only ctx's hooks", () => {
    const file = {
      hooks: {
        Stop: [
          {
            hooks: [
              { type: "command", command: "mine" },
              { type: "command", command: "/bin/ctx track" },
            ],
          },
        ],
        PostToolUse: [{ matcher: "x", hooks: [{ command: "other" }] }, { hooks: [{ command: "ctx monitor" }] }],
      },
    };
    expect(ctxHookIds("/h/hooks.json", file).map((i) => i.key)).toEqual([
      "/h/hooks.json:stop:0:1",
      "/h/hooks.json:post_tool_use:1:0",
    ]);
  });
});

describe("config.toml tables", () => {
  const base = 'model = "gpt-5.5"\n\n[projects."/p"]\ntrust_level = "trusted"\n';
  test("added, read back, refreshed in place, and removed to the byte", () => {
    const one = withTrust(base, [{ key: "/h/hooks.json:stop:0:0", hash: "sha256:aa" }]);
    expect(one).toBe(`${base}\n[hooks.state."/h/hooks.json:stop:0:0"]\ntrusted_hash = "sha256:aa"\n`);
    const two = withTrust(one, [
      { key: "/h/hooks.json:stop:0:0", hash: "sha256:bb" },
      { key: '/a "q"/hooks.json:stop:0:1', hash: "sha256:cc" },
    ]);
    expect([...readTrust(two)]).toEqual([
      ["/h/hooks.json:stop:0:0", "sha256:bb"],
      ['/a "q"/hooks.json:stop:0:1', "sha256:cc"],
    ]);
    expect(withoutTrust(two, new Set(["/h/hooks.json:stop:0:0", '/a "q"/hooks.json:stop:0:1']))).toBe(base);
  });
  test("another table after ours and the user's own trust stay", () => {
    const user = `${base}\n[hooks.state."/u:stop:0:0"]\ntrusted_hash = "sha256:11"\nenabled = true\n`;
    const ours = withTrust(user, [{ key: "/h:stop:0:0", hash: "sha256:22" }]);
    const more = `${ours}\n[tui]\nstatus_line = ["context-used"]\n`;
    const back = withoutTrust(more, new Set(["/h:stop:0:0"]));
    expect(back).toBe(`${user}\n[tui]\nstatus_line = ["context-used"]\n`);
    expect(readTrust(back).get("/u:stop:0:0")).toBe("sha256:11");
  });
});
