#!/usr/bin/env bash
# Measures how many bytes an hour of `mytop-go record` takes on a server with
# 100 busy connections, and, when pt-stalk is installed, how many bytes
# pt-stalk writes for the same seconds of the same server.
#
# usage: [KEEP=copy.mytop] [DIGESTS=1] bench/recording-size.sh [SECONDS] [CONNECTIONS]    (defaults 120, 100)
# DIGESTS=1 starts the server with performance_schema on, so the recording
# carries the statement digests (every 5 s, only the changed ones).
# The MB/h figures: "whole file" divides the final size by the frames; "marginal"
# is the growth from a copy taken at 30 s to the end, without the fixed
# first-minute cost (schema, variables, first keyframe). The recorder's CPU is
# its utime+stime over the same stretch, from /proc/PID/stat.
# Workload: mariadb-slap, CONNECTIONS clients of mixed auto-generated SQL on
# InnoDB (inserts, key reads, scans), so every connection is busy every second.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-120}
conns=${2:-100}
export PATH="$PATH:/usr/sbin:/usr/local/go/bin"

work=$(mktemp -d /tmp/mytop-size.XXXXXX)
sock=$work/mysqld.sock
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  [ -f "$work/mysqld.pid" ] && kill "$(cat "$work/mysqld.pid")" 2>/dev/null || true
  sleep 1; rm -rf "$work"
}
trap cleanup EXIT
# A step that fails (the recorder exiting non-zero) stops the script: say why.
trap 'echo "recording-size.sh: line $LINENO failed; recorder log:" >&2; tail -5 "$work/rec.log" >&2 2>/dev/null' ERR

CGO_ENABLED=0 go build -o "$work/mytop-go" ./cmd/mytop-go
mariadb-install-db --no-defaults --datadir="$work/data" --user=root \
  --auth-root-authentication-method=normal --skip-test-db >"$work/install.log" 2>&1
mariadbd --no-defaults --datadir="$work/data" --socket="$sock" --skip-networking --user=root \
  --pid-file="$work/mysqld.pid" --log-error="$work/error.log" --max-connections=$((conns + 50)) \
  --innodb-buffer-pool-size=128M ${DIGESTS:+--performance-schema=ON} &
pids+=($!)
for _ in $(seq 60); do mariadb --no-defaults -S "$sock" -uroot -e 'select 1' >/dev/null 2>&1 && break; sleep 0.5; done

mariadb-slap --no-defaults --socket="$sock" -uroot --auto-generate-sql --engine=innodb \
  --auto-generate-sql-add-autoincrement --auto-generate-sql-load-type=mixed --concurrency="$conns" \
  --iterations=100000 --number-of-queries=100000000 >/dev/null 2>&1 &
pids+=($!)
sleep 5

"$work/mytop-go" record --no-defaults -S "$sock" -uroot -o "$work/r.mytop" --duration "${seconds}s" 2>"$work/rec.log" &
rec=$!
pids+=($rec)
# cpu_ticks prints the recorder's user+system clock ticks so far.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$rec/stat"; }
mark=30
(( seconds > mark + 10 )) || mark=$((seconds / 3))
if command -v pt-stalk >/dev/null 2>&1; then
  pt-stalk --no-stalk --iterations=1 --run-time="$seconds" --sleep=1 --dest="$work/ptstalk" \
    --pid="$work/ptstalk.pid" --log="$work/ptstalk.log" -- --socket="$sock" -uroot >/dev/null 2>&1 &
  pids+=($!)
fi
sleep "$mark"
t0=$(date +%s.%N); c0=$(cpu_ticks)
sqlite3 "$work/r.mytop" ".backup $work/mark.mytop"
sleep $((seconds - mark - 3))
t1=$(date +%s.%N); c1=$(cpu_ticks)
wait "$rec"
sleep 2

[ -n "${KEEP:-}" ] && cp "$work/r.mytop" "$KEEP"
frames=$(sqlite3 "$work/r.mytop" 'select count(*) from frames' 2>/dev/null || echo 0)
bytes=$(stat -c %s "$work/r.mytop")
active=$(sqlite3 "$work/r.mytop" 'select round(avg(threads_connected)), round(avg(threads_running)) from series' 2>/dev/null | tr '|' ' ')
if [ -n "${DIGESTS:-}" ]; then
  # The report's top statements come from the recorded digests when there are any.
  printf '\nrecorded digests: report lists %s statements from performance_schema\n' \
    "$("$work/mytop-go" report "$work/r.mytop" --format json | grep -o '"source": *"performance_schema"' | wc -l)"
fi
printf '\nrecording size, %s s, %s clients of mariadb-slap mixed (avg threads connected/running: %s)\n' "$seconds" "$conns" "$active"
printf '%-12s %10s %8s %12s\n' tool bytes frames "MB per hour"
awk -v b="$bytes" -v f="$frames" 'BEGIN { printf "%-12s %10d %8d %12.2f   (whole file)\n", "mytop-go", b, f, (f > 0 ? b / f * 3600 / 1e6 : 0) }'
mframes=$(sqlite3 "$work/mark.mytop" 'select count(*) from frames')
mbytes=$(stat -c %s "$work/mark.mytop")
awk -v b=$((bytes - mbytes)) -v f=$((frames - mframes)) 'BEGIN { printf "%-12s %10d %8d %12.2f   (marginal, after %s s)\n", "mytop-go", b, f, (f > 0 ? b / f * 3600 / 1e6 : 0), '"$mark"' }'
# The marginal figure moves in whole pages (16 KiB since format 4: ~0.2 MB/h
# over 270 s); the stored frame bytes below are exact. Runs differ in churn:
# compare two builds on the same frames with KEEP= and
# `go test ./recording -run 'TestRewrite$' -rewrite FILE -v`.
sqlite3 "$work/r.mytop" "select printf('stored frames: delta %.0f B (%d), keyframe %.0f B (%d), raw %.0f B',
  avg(case when keyframe = 0 then length(data) end), sum(keyframe = 0),
  avg(case when keyframe = 1 then length(data) end), sum(keyframe = 1), avg(raw_size)) from frames"
awk -v c=$((c1 - c0)) -v hz="$(getconf CLK_TCK)" -v t0="$t0" -v t1="$t1" \
  'BEGIN { printf "recorder CPU %.2f %% of a core (%.1f ms per second)\n", c / hz / (t1 - t0) * 100, c / hz / (t1 - t0) * 1000 }'
if [ -d "$work/ptstalk" ]; then
  pb=$(du -sb "$work/ptstalk" | cut -f1)
  awk -v b="$pb" -v s="$seconds" 'BEGIN { printf "%-12s %10d %8s %12.2f\n", "pt-stalk", b, "-", b / s * 3600 / 1e6 }'
else
  echo "pt-stalk      (not installed: apt-get install percona-toolkit to compare)"
fi
