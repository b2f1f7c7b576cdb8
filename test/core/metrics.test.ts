import { expect, test } from "bun:test";
import { labelValue, METRIC_NAMES, renderMetrics, type SessionMetrics } from "../../src/core/metrics.ts";

const base: SessionMetrics = {
  agent: "claude",
  project: "api",
  session: "work:1",
  host: "box",
  usedRatio: 0.66,
  usedTokens: 660_000,
  windowTokens: 1_000_000,
  level: "warning",
  limitResetS: null,
  summaryAgeS: null,
  warningsSent: 2,
  respawnCycles: null,
};

test("one sample per family a session has a value for, HELP and TYPE for every family", () => {
  const text = renderMetrics([base]);
  for (const name of METRIC_NAMES) {
    expect(text).toContain(`# HELP ${name} `);
    expect(text).toMatch(new RegExp(`^# TYPE ${name} (gauge|counter)$`, "m"));
  }
  const labels = 'agent="claude",project="api",session="work:1",host="box"';
  expect(text).toContain(`ctx_context_used_ratio{${labels}} 0.66\n`);
  expect(text).toContain(`ctx_context_used_tokens{${labels}} 660000\n`);
  expect(text).toContain(`ctx_context_window_tokens{${labels}} 1000000\n`);
  expect(text).toContain(`ctx_context_level{${labels}} 1\n`);
  expect(text).toContain(`ctx_warnings_sent_total{${labels}} 2\n`);
  expect(text).not.toContain("ctx_usage_limit_reset_timestamp_seconds{");
  expect(text).not.toContain("ctx_summary_age_seconds{");
  expect(text).not.toContain("ctx_respawn_cycles_total{");
  expect(text.endsWith("\n")).toBe(true);
  const more = renderMetrics([
    { ...base, limitResetS: 1_764_600_000, summaryAgeS: 42, respawnCycles: 3, level: "auto_pause" },
  ]);
  expect(more).toContain(`ctx_usage_limit_reset_timestamp_seconds{${labels}} 1764600000\n`);
  expect(more).toContain(`ctx_summary_age_seconds{${labels}} 42\n`);
  expect(more).toContain(`ctx_respawn_cycles_total{${labels}} 3\n`);
  expect(more).toContain(`ctx_context_level{${labels}} 3\n`);
});

test("label values are escaped and free of control characters; an empty index is HELP and TYPE only", () => {
  expect(labelValue('a"b\\c\nd\x1b[31me')).toBe('a\\"b\\\\cde');
  expect(
    renderMetrics([])
      .split("\n")
      .filter((l) => l && !l.startsWith("#")),
  ).toEqual([]);
});
