#!/usr/bin/env bash
# Reproduces the reference incident (incidents/001: MyISAM, query cache on,
# SELECTs queueing on the table and query cache locks while UPDATEs without a
# usable index scan the whole table) on a throwaway MariaDB, and records it with
# `mytop-go record`. The result, examples/incident.mytop, is what the README's
# first command opens and what screenshots/ is drawn from.
#
# usage: examples/record-incident.sh [SECONDS]     (default 75)
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-75}
out=examples/incident.mytop
export PATH="$PATH:/usr/sbin:/usr/local/go/bin"

work=$(mktemp -d /tmp/mytop-incident.XXXXXX)
sock=$work/mysqld.sock
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  [ -f "$work/mysqld.pid" ] && kill "$(cat "$work/mysqld.pid")" 2>/dev/null || true
  sleep 1
  rm -rf "$work"
}
trap cleanup EXIT

echo "building mytop-go"
CGO_ENABLED=0 go build -o "$work/mytop-go" ./cmd/mytop-go

echo "starting a throwaway MariaDB in $work"
mariadb-install-db --no-defaults --datadir="$work/data" --user=root \
  --auth-root-authentication-method=normal --skip-test-db >"$work/install.log" 2>&1
mariadbd --no-defaults --datadir="$work/data" --socket="$sock" --skip-networking \
  --user=root --pid-file="$work/mysqld.pid" --log-error="$work/error.log" \
  --query-cache-type=1 --query-cache-size=128M --innodb-buffer-pool-size=32M \
  --max-connections=200 &
pids+=($!)
for _ in $(seq 60); do mariadb --no-defaults -S "$sock" -uroot -e 'select 1' >/dev/null 2>&1 && break; sleep 0.5; done

sql() { mariadb --no-defaults -S "$sock" -uroot "$@"; }
rows=${ROWS:-600000}
echo "loading $rows rows into app.m (MyISAM, as in the incident; no index on the columns the UPDATE filters on)"
sql -e "CREATE DATABASE app"
sql app -e "CREATE TABLE m (id INT PRIMARY KEY, user1 INT NOT NULL, user2 INT NOT NULL, hits INT NOT NULL,
  pad CHAR(60) NOT NULL) ENGINE=MyISAM"
sql app -e "INSERT INTO m SELECT seq, seq % 5000, seq % 7000, 0, REPEAT('p', 60) FROM seq_1_to_$rows; ANALYZE TABLE m"

echo "recording $seconds s to $out"
rm -f "$out"
"$work/mytop-go" record --no-defaults -S "$sock" -uroot -o "$out" --duration "${seconds}s" &
rec=$!
pids+=($rec)
sleep 8   # a healthy baseline first

# Each client is one connection fed by a loop, as an application's pool would
# be. 16 readers by primary key over a working set the query cache holds.
echo "workload: 16 clients reading rows of app.m by key, query cache on"
for c in $(seq 16); do
  ( while :; do echo "SELECT hits, pad FROM m WHERE id = $((RANDOM % 20000 + 1));"; done | sql app >/dev/null 2>&1 ) &
  pids+=($!)
done
sleep 10
# The UPDATE filters on user1 and user2, which have no index: every run scans
# all 600,000 rows under MyISAM's table lock, and invalidates the table's
# cached results under the query cache's global lock.
echo "workload: 3 clients of full-scan UPDATEs (WHERE on unindexed columns)"
for c in 1 2 3; do
  ( while :; do echo "UPDATE m SET hits = hits + 1 WHERE user1 = $((RANDOM % 5000)) AND user2 = $((RANDOM % 7000));"; sleep 0.4; done \
      | sql app >/dev/null 2>&1 ) &
  pids+=($!)
done
wait "$rec"
echo "done: $(ls -l "$out")"
