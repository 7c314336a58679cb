#!/usr/bin/env bash
# fleet-cost.sh — what one `mytop-go serve` process costs while it monitors N
# throwaway MariaDB servers at a 1 s interval (each with a light workload of
# its own), measured as utime+stime from /proc/PID/stat over the window.
#
#   bench/fleet-cost.sh [-n SERVERS] [-d SECONDS] [-w WARMUP]
#
# Prints: servers, window, CPU seconds, % of one core, peak RSS, frames scraped.
# Needs: mariadbd, mariadb-install-db, mariadb, curl, go. Run as root.
set -euo pipefail
N=20 DURATION=60 WARMUP=10
while getopts "n:d:w:h" o; do
	case $o in
	n) N=$OPTARG ;;
	d) DURATION=$OPTARG ;;
	w) WARMUP=$OPTARG ;;
	*) sed -n '2,9p' "$0"; exit 2 ;;
	esac
done
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d /tmp/mytop-fleet.XXXXXX)
CLK_TCK=$(getconf CLK_TCK)
PIDS=() SERVE_PID="" LOAD_PIDS=()
say() { printf '%s\n' "$*" >&2; }
cleanup() {
	set +e
	for p in "$SERVE_PID" "${LOAD_PIDS[@]}" "${PIDS[@]}"; do
		[[ -n $p ]] && kill -TERM "$p" 2>/dev/null
	done
	for p in "${PIDS[@]}"; do
		for _ in $(seq 100); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$p" 2>/dev/null
	done
	rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
export PATH=$PATH:/usr/sbin

say "building mytop-go"
(cd "$ROOT" && CGO_ENABLED=0 go build -o "$TMP/mytop-go" ./cmd/mytop-go)
say "initialising one datadir, copied for $N servers"
mariadb-install-db --no-defaults --user=root --auth-root-authentication-method=normal \
	--skip-test-db --datadir="$TMP/template" >"$TMP/install.log" 2>&1
printf '[client]\nuser = root\n' >"$TMP/hosts"
for i in $(seq "$N"); do
	cp -a "$TMP/template" "$TMP/data$i"
	mariadbd --no-defaults --user=root --datadir="$TMP/data$i" --socket="$TMP/s$i.sock" \
		--skip-networking --log-error="$TMP/err$i.log" --pid-file="$TMP/p$i.pid" \
		--innodb-buffer-pool-size=16M --performance-schema=OFF \
		--skip-name-resolve >/dev/null 2>&1 &
	PIDS+=($!)
	echo "localhost socket=$TMP/s$i.sock name=db$i" >>"$TMP/hosts"
done
for i in $(seq "$N"); do
	for _ in $(seq 600); do
		mariadb --no-defaults -S "$TMP/s$i.sock" -uroot -e 'SELECT 1' >/dev/null 2>&1 && break
		sleep 0.2
	done
done
say "$N servers up; a light workload on each (10 statements/s)"
for i in $(seq "$N"); do
	(while sleep 0.1; do echo "SELECT COUNT(*) FROM mysql.user;"; done |
		mariadb --no-defaults -S "$TMP/s$i.sock" -uroot >/dev/null 2>&1) &
	LOAD_PIDS+=($!)
done
PORT=$((20000 + RANDOM % 20000))
"$TMP/mytop-go" serve --no-defaults --hosts "$TMP/hosts" --listen "127.0.0.1:$PORT" --interval 1s \
	2>"$TMP/serve.log" &
SERVE_PID=$!
sleep "$WARMUP"
ticks() { awk '{print $14+$15}' "/proc/$SERVE_PID/stat"; }
t0=$(ticks)
sleep "$DURATION"
t1=$(ticks)
frames=$(curl -s "127.0.0.1:$PORT/metrics" | awk '/^mytop_frames_total/ {s+=$2} END {print s+0}')
up=$(curl -s "127.0.0.1:$PORT/metrics" | awk '/^mytop_server_up/ && $2==1 {n++} END {print n+0}')
hwm=$(awk '/VmHWM/ {print $2}' "/proc/$SERVE_PID/status")
awk -v n="$N" -v d="$DURATION" -v a="$t0" -v b="$t1" -v hz="$CLK_TCK" -v f="$frames" -v u="$up" -v m="$hwm" 'BEGIN {
	cpu = (b - a) / hz
	printf "servers %d (answering %d)  window %d s  CPU %.2f s  = %.1f %% of one core  peak RSS %.1f MB  frames %d\n",
		n, u, d, cpu, 100 * cpu / d, m / 1024, f
}'
