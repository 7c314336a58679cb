#!/usr/bin/env bash
# keep-around.sh — what `record --keep-around` keeps: a throwaway MariaDB runs
# for TOTAL seconds with one lock pile-up (a transaction holding a row, 5
# sessions waiting) from START for LENGTH seconds; a plain `record` and a
# `record --keep-around AROUND` run side by side; prints both files' size and
# frames (full and thin).
#
#   bench/keep-around.sh [-t TOTAL] [-s START] [-l LENGTH] [-a AROUND]   (default 600 240 60 2m)
#
# Needs: mariadbd, mariadb-install-db, mariadb, go. Run as root.
set -euo pipefail
TOTAL=600 START=240 LENGTH=60 AROUND=2m
while getopts "t:s:l:a:h" o; do
	case $o in
	t) TOTAL=$OPTARG ;;
	s) START=$OPTARG ;;
	l) LENGTH=$OPTARG ;;
	a) AROUND=$OPTARG ;;
	*) sed -n '2,10p' "$0"; exit 2 ;;
	esac
done
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d /tmp/mytop-keep.XXXXXX)
SOCK=$TMP/s.sock
SQL=(mariadb --no-defaults -S "$SOCK" -uroot)
PIDS=() SERVER=""
say() { printf '%s\n' "$*" >&2; }
cleanup() {
	set +e
	for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null; done
	[[ -n $SERVER ]] && kill -TERM "$SERVER" 2>/dev/null && sleep 2 && kill -KILL "$SERVER" 2>/dev/null
	[[ -n ${KEEP_TMP:-} ]] && say "kept $TMP" || rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
export PATH=$PATH:/usr/sbin
(cd "$ROOT" && CGO_ENABLED=0 go build -o "$TMP/mytop-go" ./cmd/mytop-go)
mariadb-install-db --no-defaults --user=root --auth-root-authentication-method=normal --skip-test-db \
	--datadir="$TMP/data" >"$TMP/install.log" 2>&1
mariadbd --no-defaults --user=root --datadir="$TMP/data" --socket="$SOCK" --skip-networking \
	--log-error="$TMP/err.log" --innodb-buffer-pool-size=64M --innodb-lock-wait-timeout=600 >/dev/null 2>&1 &
SERVER=$!
for _ in $(seq 300); do "${SQL[@]}" -e 'SELECT 1' >/dev/null 2>&1 && break; sleep 0.2; done
"${SQL[@]}" -e "CREATE DATABASE app; CREATE TABLE app.acct (id INT PRIMARY KEY, bal INT); INSERT INTO app.acct VALUES (1,100)"
# A light steady load, so the quiet stretch is not empty.
(while sleep 0.05; do echo "SELECT bal FROM app.acct WHERE id=1;"; done | "${SQL[@]}" >/dev/null 2>&1) &
PIDS+=($!)
"$TMP/mytop-go" record --no-defaults -S "$SOCK" -uroot -o "$TMP/plain.mytop" --duration "${TOTAL}s" 2>/dev/null &
PLAIN=$!
"$TMP/mytop-go" record --no-defaults -S "$SOCK" -uroot -o "$TMP/kept.mytop" --duration "${TOTAL}s" \
	--keep-around "$AROUND" 2>/dev/null &
KEPT=$!
PIDS+=("$PLAIN" "$KEPT")
sleep "$START"
say "incident: a row held for ${LENGTH}s with 5 waiters"
(echo "BEGIN; UPDATE app.acct SET bal=bal-1 WHERE id=1; SELECT SLEEP($LENGTH); ROLLBACK;" | "${SQL[@]}" >/dev/null 2>&1) &
sleep 1
for _ in 1 2 3 4 5; do
	(echo "UPDATE app.acct SET bal=bal+1 WHERE id=1;" | "${SQL[@]}" >/dev/null 2>&1) &
done
wait "$PLAIN" "$KEPT" || true
for f in plain kept; do
	"$TMP/mytop-go" report "$TMP/$f.mytop" --format json >"$TMP/$f.json"
	frames=$(grep -o '"frames": *[0-9]*' "$TMP/$f.json" | head -1 | grep -o '[0-9]*$')
	printf '%-6s %8d bytes  %5d frames\n' "$f" "$(stat -c %s "$TMP/$f.mytop")" "$frames"
done
# What kept detail: the findings at warning or above, and how long each was active.
"$TMP/mytop-go" report "$TMP/kept.mytop" --format json |
	grep -o '"id": *"[a-z_]*", *"severity": *"\(warning\|critical\)"' | sort | uniq -c >&2 || true
