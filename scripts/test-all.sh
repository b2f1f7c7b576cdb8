#!/usr/bin/env bash
# The tests of `npm test` (after check and build): everything but the end-to-end tests first,
# then the end-to-end tests with each pinned Claude Code client side by side (they mostly wait
# on the clients and the fake APIs, so two runs share the 2 cores without slowing each other much).
# Each run's output is kept whole and printed in turn; the exit code is non-zero when any run failed.
set -u
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
status=0
bun test --path-ignore-patterns='test/e2e/**' || status=1
bun test test/e2e >"$out/e2e.log" 2>&1 &
pinned=$!
npm run -s test:newest >"$out/newest.log" 2>&1 &
newest=$!
wait "$pinned" || status=1
wait "$newest" || status=1
echo "--- end-to-end tests, pinned client ($(node_modules/@anthropic-ai/claude-code/bin/claude.exe --version 2>/dev/null | head -n 1))"
cat "$out/e2e.log"
echo "--- end-to-end tests, newest client"
cat "$out/newest.log"
exit "$status"
