#!/usr/bin/env bash
# fleet-cost.sh — what one `mytop-go serve` process costs while it monitors N
# throwaway MariaDB servers at a 1 s interval: mostly idle, a few busy (each
# busy one holds idle connections, loops SELECT SLEEP(1) on some and runs a
# light workload, bench/conns). CPU is utime+stime from /proc/PID/stat over
# the window; frames per server come from the exporter's mytop_frames_total
# read at both ends of the window.
#
#   bench/fleet-cost.sh [-n SERVERS] [-b BUSY_SERVERS] [-d SECONDS] [-w WARMUP] [-p] [-k]
#
#   -n  servers (default 100)          -b  of them, how many are busy (default 5)
#   -d  window, seconds (default 60)   -w  seconds serve runs before it (default 20)
#   -p  CPU profile of serve over the run, heap profile at its end (implies -k)   -k  keep the temp dir
#
# Prints: servers, CPU % of one core, peak and final RSS, frames per server
# per minute (min / median / max), servers answering and with a fresh
# status read at the end, and the mariadbd side (their RSS in total).
# Each server is small (8 MB buffer pool, no performance_schema, no binary
# log, small caches) so 100 fit a 24 GiB machine. Every process the script
# starts is ended by its PID. Needs: mariadbd, mariadb-install-db, mariadb,
# curl, go. Run as root.
set -euo pipefail
N=100 BUSY=5 DURATION=60 WARMUP=20 PROFILE=0 KEEP=0
while getopts "n:b:d:w:pkh" o; do
	case $o in
	n) N=$OPTARG ;;
	b) BUSY=$OPTARG ;;
	d) DURATION=$OPTARG ;;
	w) WARMUP=$OPTARG ;;
	p) PROFILE=1 KEEP=1 ;;
	k) KEEP=1 ;;
	*) sed -n '2,21p' "$0"; exit 2 ;;
	esac
done
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d /tmp/mytop-fleet.XXXXXX)
CLK_TCK=$(getconf CLK_TCK)
PIDS=() SERVE_PID="" LOAD_PIDS=()
say() { printf '%s\n' "$*" >&2; }

# cleanup ends what this script started, each by its PID: serve and the
# load first, then the servers (TERM, up to 20 s each, then KILL).
cleanup() {
	set +e
	local p
	for p in "$SERVE_PID" "${LOAD_PIDS[@]}"; do
		[[ -n $p ]] && kill -TERM "$p" 2>/dev/null
	done
	for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null; done
	for p in "${PIDS[@]}"; do
		for _ in $(seq 200); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$p" 2>/dev/null
	done
	if ((KEEP)); then
		rm -rf "$TMP"/data* "$TMP/template"
		say "kept $TMP"
	else
		rm -rf "$TMP"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
export PATH=$PATH:/usr/sbin
ulimit -n 20000

say "building mytop-go and the load"
(cd "$ROOT" && CGO_ENABLED=0 go build -o "$TMP/mytop-go" ./cmd/mytop-go && go build -o "$TMP/conns" ./bench/conns)

# SMALL are the settings that keep a server at a few tens of MB.
SMALL=(--innodb-buffer-pool-size=8M --innodb-log-file-size=4M --innodb-log-buffer-size=1M
	--performance-schema=OFF --skip-log-bin --key-buffer-size=1M --aria-pagecache-buffer-size=1M
	--table-open-cache=64 --table-definition-cache=400 --thread-cache-size=4 --max-connections=60
	--query-cache-size=0 --tmp-table-size=1M --max-heap-table-size=1M)

say "initialising one datadir, copied for $N servers"
mariadb-install-db --no-defaults --user=root --auth-root-authentication-method=normal \
	--skip-test-db --datadir="$TMP/template" --innodb-log-file-size=4M >"$TMP/install.log" 2>&1
printf '[client]\nuser = root\n' >"$TMP/hosts"
for i in $(seq "$N"); do
	cp -a "$TMP/template" "$TMP/data$i"
	mariadbd --no-defaults --user=root --datadir="$TMP/data$i" --socket="$TMP/s$i.sock" \
		--skip-networking --log-error="$TMP/err$i.log" --pid-file="$TMP/p$i.pid" \
		--skip-name-resolve "${SMALL[@]}" >/dev/null 2>&1 &
	PIDS+=($!)
	echo "localhost socket=$TMP/s$i.sock name=db$i" >>"$TMP/hosts"
done
for i in $(seq "$N"); do
	for _ in $(seq 600); do
		mariadb --no-defaults -S "$TMP/s$i.sock" -uroot -e 'SELECT 1' >/dev/null 2>&1 && break
		kill -0 "${PIDS[i-1]}" 2>/dev/null || { say "server $i died:"; tail -3 "$TMP/err$i.log" >&2; exit 1; }
		sleep 0.2
	done
done
say "$N servers up; $BUSY busy ones (20 connections, 5 looping SELECT SLEEP(1), 20 statements/s)"
for i in $(seq "$BUSY"); do
	"$TMP/conns" -S "$TMP/s$i.sock" -u root -n 20 -busy 5 -rate 20 -workers 2 >"$TMP/conns$i.log" 2>&1 &
	LOAD_PIDS+=($!)
done

PORT=$((20000 + RANDOM % 20000))
ENV=()
((PROFILE)) && ENV=(MYTOP_GO_CPUPROFILE="$TMP/serve.cpu.pprof" MYTOP_GO_HEAPPROFILE="$TMP/serve.heap.pprof")
env "${ENV[@]}" "$TMP/mytop-go" serve --no-defaults --hosts "$TMP/hosts" --listen "127.0.0.1:$PORT" \
	--interval 1s 2>"$TMP/serve.log" &
SERVE_PID=$!
sleep "$WARMUP"
kill -0 "$SERVE_PID" 2>/dev/null || { say "serve exited:"; cat "$TMP/serve.log" >&2; exit 1; }

ticks() { awk '{print $14+$15}' "/proc/$SERVE_PID/stat"; }
frames() { curl -s "127.0.0.1:$PORT/metrics" | awk -F'[{}"]' '/^mytop_frames_total\{/ {split($NF, v, " "); print $3, v[1]}' | sort; }
frames >"$TMP/frames0"
t0=$(ticks) s0=$(date +%s.%N)
sleep "$DURATION"
t1=$(ticks) s1=$(date +%s.%N)
frames >"$TMP/frames1"
curl -s "127.0.0.1:$PORT/metrics" >"$TMP/metrics"
hwm=$(awk '/VmHWM/ {print $2}' "/proc/$SERVE_PID/status")
rss=$(awk '/VmRSS/ {print $2}' "/proc/$SERVE_PID/status")
srv_rss=$(for p in "${PIDS[@]}"; do awk '/VmRSS/ {print $2}' "/proc/$p/status" 2>/dev/null; done | awk '{s+=$1} END {print s/1024}')
up=$(awk '/^mytop_server_up/ && $NF==1 {n++} END {print n+0}' "$TMP/metrics")
fresh=$(awk '/^mytop_collector_ok\{/ && /collector="status"/ && $NF==1 {n++} END {print n+0}' "$TMP/metrics")
kill -TERM "$SERVE_PID"; wait "$SERVE_PID" 2>/dev/null || true; SERVE_PID=""

join "$TMP/frames0" "$TMP/frames1" | awk -v dt="$(awk -v a="$s0" -v b="$s1" 'BEGIN {print b-a}')" \
	'{print ($3-$2)*60/dt}' | sort -n >"$TMP/fpm"
awk -v n="$N" -v b="$BUSY" -v d="$DURATION" -v a="$t0" -v z="$t1" -v hz="$CLK_TCK" -v hwm="$hwm" -v rss="$rss" \
	-v u="$up" -v fr="$fresh" -v srv="$srv_rss" -v load1="$(cut -d' ' -f1 /proc/loadavg)" '
	{ v[NR] = $1 }
	END {
		cpu = (z - a) / hz
		printf "# %s  fleet-cost: %d servers (%d busy), window %d s, load1 %s\n", strftime("%FT%TZ", systime(), 1), n, b, d, load1
		printf "serve CPU %.2f s = %.2f %% of one core   peak RSS %.1f MB (now %.1f MB)\n", cpu, 100 * cpu / d, hwm / 1024, rss / 1024
		printf "frames per server per minute: min %.1f  median %.1f  max %.1f  (%d servers counted)\n", v[1], v[int((NR + 1) / 2)], v[NR], NR
		printf "servers answering at the end %d of %d, with a fresh status read %d; the mariadbd processes hold %.0f MB RSS in all\n", u, n, fr, srv
	}' "$TMP/fpm"
if ((PROFILE)); then
	go tool pprof -top -nodecount=30 "$TMP/mytop-go" "$TMP/serve.cpu.pprof" 2>/dev/null | sed -n '4,40p' | sed 's/^/# profile: /'
	go tool pprof -sample_index=inuse_space -top -nodecount=15 "$TMP/mytop-go" "$TMP/serve.heap.pprof" 2>/dev/null |
		sed -n '4,25p' | sed 's/^/# heap: /'
fi
