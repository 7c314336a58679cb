#!/usr/bin/env bash
# Soak test: `mytop-go record` against a throwaway MariaDB for a long time,
# with the server restarted at fixed intervals and connections churning, to
# show the recorder neither grows (RSS, threads, open files) nor loses frames.
# With --live it soaks the dashboard instead: `mytop-go live --record` in a
# private tmux server, ended with q.
#
#   scripts/soak.sh [--duration 1h] [--restart-every 10m] [--churn 1000]
#                   [--interval 1s] [--sample-every 10s] [--live] [--keep]
#
# Every --sample-every it reads VmRSS, Threads and the open descriptors of the
# monitor from /proc/PID, and its goroutines from the health line it gives on
# SIGUSR1 (no debug endpoint): record prints it on stderr, the dashboard on
# its message line. At the end it reads the recording's frame times and lists
# every hole longer than 2.5 intervals, saying whether a restart explains it.
# Prints a table; exits 1 when frames were lost outside restarts. Needs
# mariadb-server, mariadb-client, sqlite3 (and tmux for --live).
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/sbin:/usr/local/go/bin"

duration=1h restart_every=10m churn=1000 interval=1s sample_every=10s keep=0 live=0
while [ $# -gt 0 ]; do
  case "$1" in
    --duration) duration="$2"; shift 2 ;;
    --restart-every) restart_every="$2"; shift 2 ;;
    --churn) churn="$2"; shift 2 ;;
    --interval) interval="$2"; shift 2 ;;
    --sample-every) sample_every="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    --live) live=1; shift ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "soak.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done

# seconds converts 90, 90s, 10m or 1h to whole seconds.
seconds() {
  local v="$1" n unit
  n="${v%[smh]}"; unit="${v#"$n"}"
  case "$n" in ''|*[!0-9]*) echo "soak.sh: bad duration '$v' (use e.g. 90s, 10m, 1h)" >&2; exit 2 ;; esac
  case "$unit" in h) echo $((n * 3600)) ;; m) echo $((n * 60)) ;; *) echo "$n" ;; esac
}
total_s=$(seconds "$duration"); restart_s=$(seconds "$restart_every")
sample_s=$(seconds "$sample_every"); interval_s=$(seconds "$interval")
tools="mariadbd mariadb-install-db mariadb mariadb-admin sqlite3 go"
[ "$live" = 0 ] || tools="$tools tmux"
for tool in $tools; do
  command -v "$tool" >/dev/null || { echo "soak.sh: $tool not found" >&2; exit 2; }
done

work="$(mktemp -d /tmp/soak.XXXXXX)"
tmux_sock="soak-$$"
sock="$work/mysqld.sock"
started=() # PIDs this script started, stopped by PID on exit
cleanup() {
  for pid in "${started[@]}"; do kill "$pid" 2>/dev/null || true; done
  [ -n "${db_pid:-}" ] && kill -KILL "$db_pid" 2>/dev/null || true
  [ "$live" = 0 ] || tmux -L "$tmux_sock" kill-server 2>/dev/null || true
  if [ "$keep" = 1 ]; then echo "kept $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

echo "soak: $duration, restart every $restart_every, $churn connection churns, work dir $work" >&2
CGO_ENABLED=0 go build -o "$work/mytop-go" ./cmd/mytop-go
mariadb-install-db --no-defaults --auth-root-authentication-method=normal --user=root --skip-test-db \
  --skip-name-resolve --datadir="$work/data" --innodb-buffer-pool-size=16M --innodb-log-file-size=4M \
  >"$work/install.log" 2>&1 || { tail "$work/install.log" >&2; exit 1; }

# start_db launches mariadbd on a private socket and waits until it answers.
start_db() {
  mariadbd --no-defaults --datadir="$work/data" --socket="$sock" --skip-networking --user=root \
    --log-error="$work/err.log" --pid-file="$work/mysqld.pid" --innodb-buffer-pool-size=16M \
    --innodb-log-file-size=4M --max-connections=200 >>"$work/mysqld.out" 2>&1 &
  db_pid=$!
  for _ in $(seq 1 600); do
    mariadb-admin --no-defaults -S "$sock" -uroot ping >/dev/null 2>&1 && return 0
    kill -0 "$db_pid" 2>/dev/null || { tail "$work/err.log" >&2; exit 1; }
    sleep 0.1
  done
  echo "soak.sh: mariadbd did not answer" >&2; exit 1
}

stop_db() {
  kill -TERM "$db_pid"
  while kill -0 "$db_pid" 2>/dev/null; do sleep 0.1; done
}

now() { date +%s.%N; }

start_db
if [ "$live" = 0 ]; then
  "$work/mytop-go" record --no-defaults -S "$sock" -uroot -o "$work/soak.mytop" \
    --interval "$interval" --duration "${total_s}s" 2>"$work/record.log" &
  rec_pid=$!; started+=("$rec_pid")
else
  # The pane runs a shell that keeps the dashboard's exit status; rec_pid is
  # the dashboard itself, its child.
  tmux -L "$tmux_sock" -f /dev/null new-session -d -s soak -x 160 -y 50 \
    "'$work/mytop-go' live --no-defaults -S '$sock' -uroot --interval '$interval' --record '$work/soak.mytop' 2>'$work/record.log'; echo \$? >'$work/live.rc'; sleep 600"
  shell_pid=$(tmux -L "$tmux_sock" display -p -t soak '#{pane_pid}')
  for _ in $(seq 1 100); do rec_pid=$(pgrep -P "$shell_pid" -x mytop-go || true); [ -n "$rec_pid" ] && break; sleep 0.1; done
  [ -n "$rec_pid" ] || { echo "soak.sh: the dashboard did not start" >&2; cat "$work/record.log" >&2; exit 1; }
fi
t0=$(now)

# Connection churn: $churn short connections spread evenly over the run; the
# i-th starts at t0 + i * share, so a slow client delays no later ones. The
# running count is rewritten after each one, as the loop is killed at the end.
(
  share=$(awk -v t="$total_s" -v n="$churn" 'BEGIN { printf "%.3f", (t - 10) / n }')
  ok=0 failed=0
  for i in $(seq 0 $((churn - 1))); do
    wait_s=$(awk -v t0="$t0" -v i="$i" -v s="$share" -v now="$(now)" \
      'BEGIN { d = t0 + i * s - now; printf "%.3f", (d > 0 ? d : 0) }')
    sleep "$wait_s"
    if mariadb --no-defaults -S "$sock" -uroot -e 'SELECT 1' >/dev/null 2>&1; then ok=$((ok + 1)); else failed=$((failed + 1)); fi
    echo "$ok $failed" >"$work/churn.result"
  done
) &
churn_pid=$!; started+=("$churn_pid")

# health prints the monitor's latest health line. The recorder's is the
# answer to the previous sample's SIGUSR1; the dashboard's is on its screen a
# moment after the signal. Either is asked only once the monitor has set its
# handler (it prints frames, or has drawn its header): before, SIGUSR1 ends it.
health() {
  if [ "$live" = 0 ]; then
    # No line before the first answer: under errexit the failed grep would
    # end this function before it sends the first signal.
    tr '\r' '\n' <"$work/record.log" | grep -a 'goroutines' | tail -1 || true
    if grep -q -a frames "$work/record.log"; then kill -USR1 "$rec_pid" 2>/dev/null || true; fi
  elif tmux -L "$tmux_sock" capture-pane -p -t soak | grep -q LIVE; then
    kill -USR1 "$rec_pid" 2>/dev/null || return 0
    sleep 1
    tmux -L "$tmux_sock" capture-pane -p -t soak | grep -a 'goroutines' | tail -1
  fi
}

# Sampler: elapsed, RSS (and its anonymous part, which is what could leak:
# the rest is mapped files), threads, descriptors, and the goroutines, Go
# heap and Go's memory from the OS of the recorder. The last three come from
# the answer to the previous sample's SIGUSR1.
sample() {
  local st rss anon threads fds gor heap sys
  st=$(cat "/proc/$rec_pid/status" 2>/dev/null) || return 1
  rss=$(awk '/^VmRSS/ {print $2}' <<<"$st"); anon=$(awk '/^RssAnon/ {print $2}' <<<"$st")
  threads=$(awk '/^Threads/ {print $2}' <<<"$st")
  fds=$(ls "/proc/$rec_pid/fd" 2>/dev/null | wc -l)
  read -r gor heap sys < <(health | sed -E 's/.*goroutines ([0-9]+), heap ([0-9.]+) MB, from the OS ([0-9.]+) MB.*/\1 \2 \3/') || true
  printf '%s %s %s %s %s %s %s %s\n' "$(awk -v a="$(now)" -v b="$t0" 'BEGIN { printf "%d", a - b }')" \
    "$rss" "$threads" "$fds" "${gor:--}" "${anon:-0}" "${heap:--}" "${sys:--}"
}
(
  while kill -0 "$rec_pid" 2>/dev/null; do sample >>"$work/samples" || true; sleep "$sample_s"; done
) &
started+=("$!")

# Restarts: every $restart_s until the run ends; log down and up times.
restarts=0
while :; do
  sleep "$restart_s" & wait $!
  elapsed=$(awk -v a="$(now)" -v b="$t0" 'BEGIN { printf "%d", a - b }')
  [ "$elapsed" -lt $((total_s - 5)) ] || break
  kill -0 "$rec_pid" 2>/dev/null || break
  down=$(now); stop_db; start_db; up=$(now)
  echo "$down $up" >>"$work/restarts"; restarts=$((restarts + 1))
  echo "soak: restart $restarts at +${elapsed}s took $(awk -v a="$up" -v b="$down" 'BEGIN { printf "%.1f", a - b }')s" >&2
done
if [ "$live" = 0 ]; then
  rec_status=0; wait "$rec_pid" || rec_status=$?
else
  sleep $((total_s - $(awk -v a="$(now)" -v b="$t0" 'BEGIN { printf "%d", a - b }'))) 2>/dev/null || true
  tmux -L "$tmux_sock" capture-pane -p -t soak >"$work/final.screen"
  tmux -L "$tmux_sock" send-keys -t soak q
  for _ in $(seq 1 100); do [ -s "$work/live.rc" ] && break; sleep 0.1; done
  rec_status=$(cat "$work/live.rc" 2>/dev/null || echo "did not quit")
fi
kill "$churn_pid" 2>/dev/null || true
stop_db

echo
echo "recorder over time (every ${sample_s}s; RSS in MB)"
printf '%8s %7s %8s %8s %7s %8s %5s %11s\n' ELAPSED RSS_MB ANON_MB GOHEAP_MB GO_OS_MB THREADS FDS GOROUTINES
awk '{ printf "%7ss %7.1f %8.1f %8s %7s %8d %5d %11s\n", $1, $2 / 1024, $6 / 1024, $7, $8, $3, $4, $5 }' "$work/samples"

# Holes in the recording: consecutive frames further apart than 2.5
# intervals; a hole that overlaps a restart (with 5 s of slack) is explained.
sqlite3 "$work/soak.mytop" 'select ts from frames order by seq' >"$work/frame_ts"
touch "$work/restarts"
awk -v iv="$interval_s" -v t0="$t0" -v rfile="$work/restarts" '
  BEGIN { n = 0; while ((getline line < rfile) > 0) { split(line, r, " "); rd[n] = r[1]; ru[n] = r[2]; n++ } }
  { t = $1 / 1e9; if (NR > 1 && t - prev > 2.5 * iv) {
      why = "UNEXPLAINED"
      for (i = 0; i < n; i++) if (prev <= ru[i] + 5 && t >= rd[i] - 5) why = "restart"
      printf "hole of %.1fs ending at +%ds (%s)\n", t - prev, t - t0, why > "/dev/stderr"
      if (why == "restart") explained++; else lost++
    }
    prev = t }
  END { printf "%d %d\n", explained + 0, lost + 0 }' "$work/frame_ts" >"$work/holes" 2>"$work/holes.detail" || true
read -r holes_restart holes_lost <"$work/holes"
frames=$(wc -l <"$work/frame_ts")
unreachable=$(sqlite3 "$work/soak.mytop" 'select count(*) from series where qps is null' 2>/dev/null || echo "?")
qps_range=$(sqlite3 -separator ' / ' "$work/soak.mytop" 'select printf("%.1f", min(qps)), printf("%.1f", max(qps)) from series' 2>/dev/null || echo "?")
kill "$churn_pid" 2>/dev/null || true
read -r churn_ok churn_failed 2>/dev/null <"$work/churn.result" || { churn_ok="?"; churn_failed="?"; }

echo
echo "summary"
awk -v f="$frames" -v want="$((total_s / interval_s))" -v r="$restarts" -v hr="$holes_restart" -v hl="$holes_lost" \
  -v u="$unreachable" -v q="$qps_range" -v co="$churn_ok" -v cf="$churn_failed" -v rs="$rec_status" '
  NR == 1 { r0 = $2; t0 = $3; f0 = $4 }
  { if ($2 > rmax) rmax = $2; if ($3 > tmax) tmax = $3; if ($4 > fmax) fmax = $4; r1 = $2; t1 = $3; f1 = $4 }
  $5 != "-" { if (g0 == "") g0 = $5; g1 = $5; if ($5 + 0 > gmax) gmax = $5 + 0 }
  { t[NR] = $1; rss[NR] = $2 / 1024; anon[NR] = $6 / 1024 }
  # Least-squares slope of y over the second half, in MB per hour: caches
  # fill in the first minutes, a leak does not stop.
  function per_hour(y,   i, n, sx, sy, sxx, sxy, d) {
    for (i = int(NR / 2) + 1; i <= NR; i++) { n++; sx += t[i]; sy += y[i]; sxx += t[i] * t[i]; sxy += t[i] * y[i] }
    d = n * sxx - sx * sx
    return d > 0 ? (n * sxy - sx * sy) / d * 3600 : 0
  }
  END {
    printf "%-38s %s\n", "frames recorded / expected", f " / " want
    printf "%-38s %s\n", "frames without rates (down/restart)", u
    printf "%-38s %s\n", "QPS min / max (rates across restarts)", q
    printf "%-38s %s\n", "server restarts", r
    printf "%-38s %s\n", "holes explained by a restart", hr
    printf "%-38s %s\n", "holes outside restarts (lost)", hl
    printf "%-38s %s\n", "connection churns ok / failed", co " / " cf
    printf "%-38s %.1f / %.1f / %.1f\n", "RSS MB first / last / max", r0 / 1024, r1 / 1024, rmax / 1024
    printf "%-38s %+.2f / %+.2f\n", "RSS / anon MB per hour, second half", per_hour(rss), per_hour(anon)
    printf "%-38s %d / %d / %d\n", "threads first / last / max", t0, t1, tmax
    printf "%-38s %d / %d / %d\n", "open fds first / last / max", f0, f1, fmax
    printf "%-38s %s / %s / %d\n", "goroutines first / last / max", g0, g1, gmax
    printf "%-38s %s\n", "recorder exit status", rs
  }' "$work/samples"
cat "$work/holes.detail"
if [ "$live" = 0 ]; then
  tail -c 300 "$work/record.log" | tr '\r' '\n' | sed 's/\x1b\[K//' | tail -1
else
  echo "the dashboard's last screen, top and bottom:"; head -3 "$work/final.screen"; grep -v '^ *$' "$work/final.screen" | tail -2
fi
[ "$holes_lost" = 0 ] && [ "$rec_status" = 0 ]
