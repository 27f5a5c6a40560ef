#!/usr/bin/env bash
# pi-check's `run` step, inside the arm64 root: Mosquitto on 127.0.0.1:18883, then a real
# `hark run --input ... --exit-at-end --json` with the store, polling the debug page's /healthz while
# it runs and watching the fleet's availability topic. Exits non-zero naming what did not happen.
set -uo pipefail
W=/tmp/pi-run; rm -rf "$W"; mkdir -p "$W"
fail() { echo "run: $*" >&2; exit 1; }

printf 'listener 18883 127.0.0.1\nallow_anonymous true\npersistence false\n' >"$W/mosquitto.conf"
mosquitto -c "$W/mosquitto.conf" >"$W/mosquitto.log" 2>&1 &
MOSQ=$!
trap 'kill $MOSQ 2>/dev/null; kill $SUB 2>/dev/null; kill $HARK 2>/dev/null' EXIT
for _ in $(seq 50); do mosquitto_pub -h 127.0.0.1 -p 18883 -t pi-check/ping -m x 2>/dev/null && break; sleep 0.2; done
mosquitto_sub -h 127.0.0.1 -p 18883 -v -t 'hark/pi-check/#' >"$W/mqtt.txt" 2>&1 &
SUB=$!

cd /opt/hark
node bin/hark.js run -c /root/run.yaml --input /root/recordings/kitchen-1.wav --exit-at-end --json \
  --db "$W/hark.db" --model /root/shared/models/for-tests-ggml-tiny.en.bin >"$W/events.jsonl" 2>"$W/stderr.txt" &
HARK=$!
healthz=""
while kill -0 $HARK 2>/dev/null; do
  [ -n "$healthz" ] || healthz="$(curl -sf --max-time 5 http://127.0.0.1:18081/healthz || true)"
  sleep 1
done
wait $HARK; rc=$?
sleep 1
echo "hark run exited $rc"
echo "--- /healthz while it ran:"; echo "${healthz:-(no answer)}" | head -c 800; echo
echo "--- events:"; grep -o '"type":"[a-z.]*"' "$W/events.jsonl" | sort | uniq -c
echo "--- speech to text:"; grep '"type":"stt.segment"' "$W/events.jsonl" | head -n 5 | cut -c1-300
echo "--- mqtt:"; head -n 5 "$W/mqtt.txt"
rows="$(node -e "const D=require('/opt/hark/node_modules/better-sqlite3'); const d=new D('$W/hark.db',{readonly:true}); console.log(d.prepare('select count(*) n from segments').get().n, d.prepare('select count(*) n from transcripts').get().n)")"
echo "--- store: segments transcripts = $rows"
[ $rc -eq 0 ] || { tail -n 20 "$W/stderr.txt"; fail "hark run exited $rc"; }
echo "$healthz" | grep -q '"ok":true\|"status":"ok"\|ok' || fail "/healthz did not answer"
set -- $rows
[ "${1:-0}" -ge 2 ] || fail "the store has ${1:-0} segments, expected 2"
[ "${2:-0}" -ge 1 ] || fail "the store has no transcript"
grep -q 'hark/pi-check/availability online' "$W/mqtt.txt" || fail "the fleet client never said online on the broker"
# The test model has no weights (empty transcripts), but whisper.cpp runs its whole NEON path: each
# segment must come back from it, not miss its deadline or fail.
[ "$(grep '"type":"stt.segment"' "$W/events.jsonl" | grep -c '"engine":"whisper","outcome":"ok"')" -ge 2 ] || fail "whisper.cpp did not answer for every segment"
echo "run: ok"
