#!/usr/bin/env bash
# The tests of `npm test` (after check and build): everything but the end-to-end tests first, on their own
# in 2 bun workers (`--parallel=2`; their hardening and command tests race real processes against each other
# and want the cores), then the end-to-end tests all side by side, in CTX_E2E_SHARDS shards (default 3) per
# pinned Claude Code client, and one more for the pinned run, which also carries the tests that do not drive
# Claude Code (Codex, Gemini, OpenCode, Prometheus: they run once). scripts/e2e-shards.ts deals the files out
# by their measured time. The end-to-end tests mostly wait on the clients, the fake APIs and the usage-limit
# resets, so the shards share the 2 cores without slowing each other much.
# Each run's output is kept whole and printed in turn; the exit code is non-zero when any run failed.
set -u
cd "$(dirname "$0")/.."
shards=${CTX_E2E_SHARDS:-3}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
status=0
pids=()
names=()
bun test --path-ignore-patterns='test/e2e/**' --parallel=2 || status=1
for client in pinned newest; do
  n=$shards
  [ "$client" = pinned ] && n=$((shards + 1))
  for k in $(seq 1 "$n"); do
    mapfile -t files < <(bun scripts/e2e-shards.ts "$client" "$k" "$n")
    [ "${#files[@]}" -gt 0 ] || continue
    CTX_TEST_CLIENT=$client bun test "${files[@]}" >"$out/${#pids[@]}.log" 2>&1 &
    pids+=($!)
    names+=("end-to-end tests, $client client, shard $k of $n: ${files[*]##*/}")
  done
done
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || status=1
done
pinned=$(node_modules/@anthropic-ai/claude-code/bin/claude.exe --version 2>/dev/null | head -n 1)
newest=$(node_modules/claude-code-next/bin/claude.exe --version 2>/dev/null | head -n 1)
echo "(pinned client: ${pinned}; newest client: ${newest})"
for i in "${!pids[@]}"; do
  echo "--- ${names[$i]}"
  cat "$out/$i.log"
done
exit "$status"
