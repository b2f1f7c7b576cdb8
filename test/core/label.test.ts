import { expect, test } from "bun:test";
import { isPaneId, LABEL_MAX, sessionLabel, shortId, tmuxLabel } from "../../src/core/label.ts";
import { parseBridge } from "../../src/core/bridge.ts";

test("a named tmux window gives its name; an automatic one gives session:index", () => {
  expect(tmuxLabel("work\t0\talpaca\t0\n")).toBe("alpaca");
  expect(tmuxLabel("work\t2\tclaude\t1\n")).toBe("work:2");
  expect(tmuxLabel("work\t2\t\t0\n")).toBe("work:2");
  expect(tmuxLabel("no tabs here")).toBeUndefined();
  expect(tmuxLabel("")).toBeUndefined();
});

test("the label falls back to the client's session name, then to the short id", () => {
  const sid = "0123456789abcdef";
  expect(sessionLabel(sid, "alpaca", "named")).toBe("alpaca");
  expect(sessionLabel(sid, undefined, "my refactor")).toBe("my refactor");
  expect(sessionLabel(sid, undefined, "  ")).toBe("01234567");
  expect(sessionLabel(sid, undefined, 42)).toBe(shortId(sid));
});

test("a label is one clean, short line: no escapes, controls or bidi overrides reach the terminal", () => {
  expect(tmuxLabel("s\t0\t\x1b[31mred\x1b[0m\u202ex\nline\t0")).toBe("redxline");
  const long = sessionLabel("s", "x".repeat(100));
  expect(long.length).toBe(LABEL_MAX);
  expect(long.endsWith("…")).toBe(true);
  expect(
    parseBridge(JSON.stringify({ session_id: "s", timestamp: 1, used_pct: 5, label: "\x1b]0;t\x07ok" }))?.label,
  ).toBe("ok");
  expect(parseBridge(JSON.stringify({ session_id: "s", timestamp: 1, used_pct: 5, label: 7 }))?.label).toBeUndefined();
});

test("only a pane id tmux gives is asked about", () => {
  expect(isPaneId("%3")).toBe(true);
  for (const v of ["3", "%", "%3; rm -rf /", "-t%3", undefined]) expect(isPaneId(v)).toBe(false);
});
