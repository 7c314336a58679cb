#!/usr/bin/env bash
# Reproduces the reference incident (incidents/001: query cache on, SELECTs
# queueing on the query cache lock while UPDATEs without a usable index scan
# whole tables) on a throwaway MariaDB, and records it with
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
rows=${ROWS:-300000}
echo "loading $rows rows into shop.items (InnoDB, no index on the column the UPDATE filters on)"
sql -e "CREATE DATABASE shop"
sql shop -e "CREATE TABLE items (id INT PRIMARY KEY, c INT NOT NULL, stock INT NOT NULL DEFAULT 0,
  pad CHAR(40)) ENGINE=InnoDB"
sql shop -e "INSERT INTO items SELECT seq, seq % 1000, 0, REPEAT('x', 40) FROM seq_1_to_$rows"

echo "recording $seconds s to $out"
rm -f "$out"
"$work/mytop-go" record --no-defaults -S "$sock" -uroot -o "$out" --duration "${seconds}s" &
rec=$!
pids+=($rec)
sleep 8   # a healthy baseline first

echo "workload: incident 001's benchmark, 10 mariadb-slap clients reading MyISAM rows by key, query cache on"
mariadb-slap --no-defaults --socket="$sock" -uroot --auto-generate-sql --engine=myisam \
  --auto-generate-sql-add-autoincrement --number-int-cols=10 --number-char-cols=10 --concurrency=10 \
  --iterations=1000 --auto-generate-sql-write-number=1000 --number-of-queries=100000 \
  --auto-generate-sql-load-type=key >/dev/null 2>&1 &
pids+=($!)
sleep 10
# The UPDATE filters on c, which has no index, so it scans the whole clustered
# index. The SLEEP every 1,000 rows stretches the scan to what a table a few
# hundred times larger would take, so the demo fits in a minute.
echo "workload: 2 clients of full-scan UPDATEs (WHERE on an unindexed column)"
for c in 1 2; do
  ( while :; do
      sql shop -e "UPDATE items SET stock = stock + 1 WHERE IF(id % 1000 = 0, SLEEP(0.03), 0) = 0 AND c = $((c * 7))" \
        >/dev/null 2>&1 || true
    done ) &
  pids+=($!)
done
wait "$rec"
echo "done: $(ls -l "$out")"
