#!/usr/bin/env bash
# compare.sh — what mytop-go costs the server and the machine, side by side with
# innotop and mytop, on a throwaway MariaDB holding N idle connections and a
# steady light workload. Monitors run one after another for the same window.
#
#   bench/compare.sh [-d SECONDS] [-n "0 1000 5000"] [-b BUSY] [-r RATE] [-w WARMUP] [-m MONITORS] [-B BINARY] [-k] [-P] [-C]
#
#   -d  measured window per monitor, seconds (default 30)
#   -n  idle connection counts to test (default "0 1000 5000")
#   -b  of the N connections, how many loop SELECT SLEEP(1) (default 0)
#   -r  workload statements per second (default 100)
#   -w  seconds a monitor runs before the window opens (default 5)
#   -m  monitors to run, in order (default "mytop-go-record mytop-go-live innotop innotop-A mytop");
#       "mytop-go-nothreads" is record with --no-thread-stats (no per-thread /proc reads);
#       "innotop" is its query list (-m Q), "innotop-A" its dashboard (-m A);
#       "profile" runs record's pipeline with CPU and heap profiles (implies -k);
#       "live-profile" is the dashboard with a CPU profile of the whole binary (implies -k);
#       "stmtcost" times candidate sampling statements on the server (server busy ms each);
#       "stmtgap" prices them one a second, as a monitor sends them (bench/stmtcost: server
#       busy and CPU ms per call, the client's time);
#       "base-live" and "base-record" run the binary given with -B (an earlier build, for a
#       before/after in one run)
#   -B  a second mytop-go binary, for the base-* monitors
#   -k  keep the temp dir (recordings, logs, screens) instead of removing it
#   -P  record each monitor's CPU with perf over its window (any monitor, the dashboards
#       and the Perl peers too); the top functions go to NAME-N.perf.txt (implies -k)
#   -G  keep the server's general log and print, per monitor user, each statement
#       shape it sent (numbers as N) and how many times over its warm-up and window:
#       which statements a monitor sends per tick, to weigh against stmtcost
#   -C  run the server alone in a cgroup of its own, as systemd's mariadb.service would
#       (v2, and v1 cpuacct where mounted): mytop-go then reads mysqld's CPU from the
#       cgroup instead of walking its threads in /proc/<pid>/stat (issue #16)
#
# Each monitor logs in as its own MariaDB user and the server runs with
# --userstat: information_schema.USER_STATISTICS gives the server time and
# bytes spent on that monitor. Its command counts leave SHOW out, so the
# monitor's statements are the server's Questions minus the workload user's.
# Monitor CPU is utime+stime from /proc/PID/stat over the window; peak RSS is VmHWM.
# mytop-go's collection latency per tick comes from its recording.
# Needs: mariadbd, mariadb-install-db, mariadb, tmux, innotop, mytop (their
# Perl needs libterm-readkey-perl and libdbd-mariadb-perl), go. Run as root.
set -euo pipefail

DURATION=30 COUNTS="0 1000 5000" BUSY=0 RATE=100 WARMUP=5 BASE="" KEEP=0 PERF=0 CGROUP=0 GLOG=0
MONITORS="mytop-go-record mytop-go-live innotop innotop-A mytop"
while getopts "d:n:b:r:w:m:B:kPCGh" o; do
	case $o in
	d) DURATION=$OPTARG ;;
	n) COUNTS=$OPTARG ;;
	b) BUSY=$OPTARG ;;
	r) RATE=$OPTARG ;;
	w) WARMUP=$OPTARG ;;
	m) MONITORS=$OPTARG ;;
	B) BASE=$(realpath "$OPTARG") ;;
	k) KEEP=1 ;;
	P) PERF=1 KEEP=1 ;;
	C) CGROUP=1 ;;
	G) GLOG=1 ;;
	*) sed -n '2,28p' "$0"; exit 2 ;;
	esac
done

[[ " $MONITORS " == *" profile"* || " $MONITORS " == *" live-profile"* ]] && KEEP=1
ROOT=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d "${TMPDIR:-/tmp}/mytop-bench.XXXXXX")
SOCK=$TMP/mysqld.sock
TMUX_SOCK=$TMP/tmux.sock
MYSQL=(mariadb --no-defaults -S "$SOCK" -uroot -N -B)
CLK_TCK=$(getconf CLK_TCK)
SERVER_PID="" CONNS_PID="" MON_PID="" CGROUPS=()

say() { printf '%s\n' "$*" >&2; }

# cleanup ends only what this script started, each by its PID.
cleanup() {
	set +e
	stop_pid "$MON_PID"
	stop_pid "$CONNS_PID"
	if [[ -S $TMUX_SOCK ]]; then tmux -S "$TMUX_SOCK" kill-server 2>/dev/null; fi
	stop_pid "$SERVER_PID"
	local cg
	for cg in "${CGROUPS[@]}"; do rmdir "$cg" 2>/dev/null || say "left cgroup $cg"; done
	if ((KEEP)); then say "kept $TMP"; else rm -rf "$TMP"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# stop_pid sends TERM, waits up to 10 s, then KILL.
stop_pid() {
	local pid=$1
	[[ -n $pid ]] && kill -0 "$pid" 2>/dev/null || return 0
	kill -TERM "$pid" 2>/dev/null
	for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
	kill -KILL "$pid" 2>/dev/null
}

export PATH=$PATH:/usr/sbin
for b in mariadbd mariadb-install-db mariadb tmux innotop mytop go; do
	command -v "$b" >/dev/null || { say "missing: $b"; exit 1; }
done
((PERF == 0)) || command -v perf >/dev/null || { say "-P needs perf (apt-get install linux-perf)"; exit 1; }
perl -MTerm::ReadKey -MDBD::MariaDB -e1 2>/dev/null ||
	{ say "innotop/mytop need: apt-get install libterm-readkey-perl libdbd-mariadb-perl"; exit 1; }

build() {
	say "building mytop-go and helpers"
	(cd "$ROOT" && CGO_ENABLED=0 go build -o "$TMP/mytop-go" ./cmd/mytop-go &&
		go build -o "$TMP/conns" ./bench/conns && go build -o "$TMP/latency" ./bench/latency &&
		go build -o "$TMP/stmtcost" ./bench/stmtcost &&
		go build -o "$TMP/profile" ./bench/profile)
}

start_server() {
	say "starting a throwaway MariaDB in $TMP"
	mariadb-install-db --no-defaults --user=root --auth-root-authentication-method=normal \
		--skip-test-db --datadir="$TMP/data" >"$TMP/install.log" 2>&1
	ulimit -n 20000
	local glog=()
	((GLOG)) && glog=(--general-log=1 --general-log-file="$TMP/general.log")
	mariadbd --no-defaults --user=root --datadir="$TMP/data" --socket="$SOCK" --skip-networking \
		--pid-file="$TMP/mysqld.pid" --log-error="$TMP/mysqld.err" --skip-name-resolve \
		--max-connections=6000 --open-files-limit=20000 --table-open-cache=400 \
		--innodb-buffer-pool-size=64M --innodb-flush-log-at-trx-commit=2 \
		--thread-cache-size=100 --userstat=1 "${glog[@]}" >/dev/null 2>&1 &
	SERVER_PID=$!
	((CGROUP)) && own_cgroup "$SERVER_PID"
	for _ in $(seq 300); do
		"${MYSQL[@]}" -e 'SELECT 1' >/dev/null 2>&1 && return 0
		kill -0 "$SERVER_PID" 2>/dev/null || break
		sleep 0.2
	done
	say "server did not start:"; tail -5 "$TMP/mysqld.err" >&2; exit 1
}

# own_cgroup moves pid into a new cgroup under each hierarchy that counts CPU
# (cgroup2 wherever mounted, v1 cpuacct), as systemd does for a service; the
# cgroups are removed at cleanup, once the server has exited.
own_cgroup() {
	local pid=$1 point fstype opts dir
	while read -r point fstype opts; do
		case $fstype in
		cgroup2) ;;
		cgroup) [[ ,$opts, == *,cpuacct,* ]] || continue ;;
		*) continue ;;
		esac
		dir=$point/mytop-bench-$$
		mkdir "$dir" && echo "$pid" >"$dir/cgroup.procs" || { say "cannot use cgroup $dir"; exit 1; }
		CGROUPS+=("$dir")
		say "server in cgroup $dir"
	done < <(awk '{for (i = 7; $i != "-"; i++); print $5, $(i+1), $(i+3)}' /proc/self/mountinfo)
	((${#CGROUPS[@]})) || { say "-C: no cgroup hierarchy mounted"; exit 1; }
}

# Each monitor (and the workload) has its own user, so USER_STATISTICS
# separates their statements.
create_users() {
	local u sql=""
	for u in m_record m_nothr m_live m_lprof m_blive m_brec m_innotop m_mytop m_profile m_q load; do
		sql+="CREATE USER '$u'@'localhost'; GRANT ALL ON *.* TO '$u'@'localhost';"
	done
	"${MYSQL[@]}" -e "$sql"
}

# start_load holds N idle connections plus the workload; waits until ready.
start_load() {
	local n=$1
	"$TMP/conns" -S "$SOCK" -u load -n "$n" -busy "$BUSY" -rate "$RATE" >"$TMP/conns-$n.log" 2>&1 &
	CONNS_PID=$!
	for _ in $(seq 1200); do
		grep -q '^ready' "$TMP/conns-$n.log" && return 0
		kill -0 "$CONNS_PID" 2>/dev/null || break
		sleep 0.1
	done
	say "load did not start:"; cat "$TMP/conns-$n.log" >&2; exit 1
}

# probe prints "questions load_statements busy_s bytes_sent cpu_s" in one
# statement: the server's Questions, the workload user's statements, and the
# server time, bytes and CPU time spent on one monitor user (BUSY_TIME is
# wall time, CPU_TIME what the server's threads ran: on a loaded machine the
# first grows with the wait for a CPU, the second does not). USER_STATISTICS leaves SHOW statements
# out of its command counts, so a monitor's statements are Questions minus
# the workload's minus this probe itself.
probe() {
	"${MYSQL[@]}" -e "SELECT
		(SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME='QUESTIONS'),
		(SELECT COALESCE(SUM(SELECT_COMMANDS+UPDATE_COMMANDS+OTHER_COMMANDS),0)
			FROM information_schema.USER_STATISTICS WHERE USER='load'),
		(SELECT COALESCE(SUM(BUSY_TIME),0) FROM information_schema.USER_STATISTICS WHERE USER='$1'),
		(SELECT COALESCE(SUM(BYTES_SENT),0) FROM information_schema.USER_STATISTICS WHERE USER='$1'),
		(SELECT COALESCE(SUM(CPU_TIME),0) FROM information_schema.USER_STATISTICS WHERE USER='$1')"
}

cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
now() { date +%s.%N; }

# start_monitor NAME N: starts it, sets MON_PID.
start_monitor() {
	local name=$1 n=$2 cmd
	case $name in
	mytop-go-record)
		"$TMP/mytop-go" record -S "$SOCK" -u m_record -o "$TMP/rec-$n.mytop" \
			>"$TMP/record-$n.log" 2>&1 &
		MON_PID=$!
		return ;;
	base-record)
		"$BASE" record -S "$SOCK" -u m_brec -o "$TMP/base-$n.mytop" >"$TMP/base-record-$n.log" 2>&1 &
		MON_PID=$!
		return ;;
	mytop-go-nothreads)
		"$TMP/mytop-go" record -S "$SOCK" -u m_nothr --no-thread-stats -o "$TMP/nothr-$n.mytop" \
			>"$TMP/nothr-$n.log" 2>&1 &
		MON_PID=$!
		return ;;
	profile)
		"$TMP/profile" -S "$SOCK" -u m_profile -o "$TMP/$name-$n.mytop" -prof "$TMP/$name-$n" \
			>"$TMP/$name-$n.log" 2>&1 &
		MON_PID=$!
		return ;;
	mytop-go-live) cmd="exec $TMP/mytop-go -S $SOCK -u m_live" ;;
	base-live) cmd="exec $BASE -S $SOCK -u m_blive" ;;
	live-profile) cmd="MYTOP_GO_CPUPROFILE=$TMP/$name-$n.cpu.pprof exec $TMP/mytop-go -S $SOCK -u m_lprof" ;;
	# Q mode: the query list with the status header, the nearest to a
	# processlist dashboard; the config lives in the temp HOME.
	innotop) cmd="exec innotop -S $SOCK -u m_innotop -d 1 -m Q -s" ;;
	# A mode: innotop's own dashboard (health summary of the server).
	innotop-A) cmd="exec innotop -S $SOCK -u m_innotop -d 1 -m A -s" ;;
	mytop) cmd="exec mytop -S $SOCK -u m_mytop -d mysql -s 1 --noprompt" ;;
	esac
	tmux -S "$TMUX_SOCK" -f /dev/null new-session -d -s "$name-$n" -x 200 -y 50 \
		"HOME=$TMP/home $cmd 2>$TMP/$name-$n.err"
	MON_PID=$(tmux -S "$TMUX_SOCK" display-message -p -t "$name-$n" '#{pane_pid}')
}

stop_monitor() {
	local name=$1 n=$2
	if [[ $name == mytop-go-record || $name == mytop-go-nothreads || $name == profile || $name == base-record ]]; then
		kill -INT "$MON_PID" 2>/dev/null
		wait "$MON_PID" 2>/dev/null || true
	else
		tmux -S "$TMUX_SOCK" capture-pane -p -t "$name-$n" >"$TMP/$name-$n.screen" 2>/dev/null || true
		stop_pid "$MON_PID"
		tmux -S "$TMUX_SOCK" kill-session -t "$name-$n" 2>/dev/null || true
	fi
	MON_PID=""
}

# measure NAME N: one row of the table.
measure() {
	local name=$1 n=$2 user
	case $name in
	mytop-go-record) user=m_record ;; mytop-go-nothreads) user=m_nothr ;; mytop-go-live) user=m_live ;;
	live-profile) user=m_lprof ;; base-live) user=m_blive ;; base-record) user=m_brec ;;
	innotop | innotop-A) user=m_innotop ;; mytop) user=m_mytop ;; profile) user=m_profile ;;
	*) say "unknown monitor: $name"; exit 2 ;;
	esac
	start_monitor "$name" "$n"
	sleep "$WARMUP"
	if ! kill -0 "$MON_PID" 2>/dev/null; then
		say "$name exited early:"; cat "$TMP/$name-$n.err" "$TMP/$name-$n.log" "$TMP/record-$n.log" 2>/dev/null >&2
		printf '%-16s %6s  %s\n' "$name" "$n" "FAILED (see above)" >>"$TMP/table"
		MON_PID=""; return
	fi
	local s0 c0 t0 s1 c1 t1 hwm
	s0=$(probe "$user"); c0=$(cpu_ticks "$MON_PID"); t0=$(now)
	local perf_pid=""
	if ((PERF)); then
		perf record -q -F 499 -g -o "$TMP/$name-$n.perf" -p "$MON_PID" -- sleep "$DURATION" \
			>/dev/null 2>&1 &
		perf_pid=$!
	fi
	sleep "$DURATION"
	s1=$(probe "$user"); c1=$(cpu_ticks "$MON_PID"); t1=$(now)
	hwm=$(awk '/VmHWM/{print $2}' "/proc/$MON_PID/status")
	stop_monitor "$name" "$n"
	if [[ -n $perf_pid ]]; then
		wait "$perf_pid" 2>/dev/null || true
		perf report -q -i "$TMP/$name-$n.perf" --stdio --no-children --percent-limit 0.5 -g none \
			>"$TMP/$name-$n.perf.txt" 2>/dev/null || true
	fi
	local lat="-"
	if [[ $name == mytop-go-record || $name == mytop-go-nothreads || $name == profile || $name == base-record ]]; then
		local rec=$TMP/rec-$n.mytop
		[[ $name == base-record ]] && rec=$TMP/base-$n.mytop
		[[ $name == mytop-go-nothreads ]] && rec=$TMP/nothr-$n.mytop
		[[ $name == profile ]] && rec=$TMP/$name-$n.mytop && sed "s/^/# N=$n $name: /" "$TMP/$name-$n.log" >>"$TMP/notes"
		lat=$("$TMP/latency" "$rec" | tee "$TMP/latency-$name-$n.txt" |
			awk '$1=="tick"{sub("p50=","",$3); sub("p99=","",$4); print $3"/"$4}')
	fi
	awk -v name="$name" -v n="$n" -v s0="$s0" -v s1="$s1" -v c0="$c0" -v c1="$c1" \
		-v t0="$t0" -v t1="$t1" -v tck="$CLK_TCK" -v hwm="$hwm" -v lat="$lat" \
		-v load1="$(cut -d' ' -f1 /proc/loadavg)" 'BEGIN {
		split(s0, a, "\t"); split(s1, b, "\t"); dt = t1 - t0
		printf "%-16s %6d %8.2f %9.1f %9.1f %9.1f %8.2f %7.1f %11s %6s\n", name, n,
			(b[1]-a[1]-(b[2]-a[2])-1)/dt, (b[3]-a[3])*1000/dt, (b[5]-a[5])*1000/dt, (b[4]-a[4])/1024/dt,
			(c1-c0)/tck*100/dt, hwm/1024, lat, load1 }' >>"$TMP/table"
}

# STMTS are the sampling statements stmtcost times: what mytop-go sends each
# tick, and cheaper variants of the processlist read.
STMTS=(
	"SHOW GLOBAL STATUS"
	"SHOW FULL PROCESSLIST"
	"SELECT ID, USER, HOST, DB, COMMAND, TIME, STATE, INFO, TIME_MS, EXAMINED_ROWS FROM information_schema.PROCESSLIST WHERE COMMAND <> 'Sleep'"
	"SELECT COUNT(*) FROM information_schema.PROCESSLIST"
	"SELECT ID, TID, MEMORY_USED FROM information_schema.PROCESSLIST"
	"SELECT ID, USER, HOST, DB, COMMAND, TIME, STATE, INFO, TIME_MS, EXAMINED_ROWS, TID, MEMORY_USED FROM information_schema.PROCESSLIST"
	"SHOW GLOBAL STATUS LIKE 'Created\\_tmp%'"
	"SHOW SESSION STATUS LIKE 'Created\\_tmp%'"
	"SHOW SLAVE STATUS"
	"SHOW ENGINE INNODB STATUS"
)

# stmtcost N: server busy time per statement, 20 runs each, as user m_q.
stmtcost() {
	local n=$1 st a b i sql
	for st in "${STMTS[@]}"; do
		sql=""
		for i in $(seq 20); do sql+="$st;"; done
		a=$(probe m_q)
		mariadb --no-defaults -S "$SOCK" -u m_q -N -B -e "$sql" >/dev/null
		b=$(probe m_q)
		awk -v n="$n" -v st="$st" -v s0="$a" -v s1="$b" 'BEGIN {
			split(s0, a, "\t"); split(s1, b, "\t")
			printf "# N=%d stmtcost: %6.2f ms server, %7.1f KiB sent  %s\n", n,
				(b[3]-a[3])*1000/20, (b[4]-a[4])/1024/20, substr(st, 1, 120) }' >>"$TMP/notes"
	done
}

# baseline checks the accounting with no monitor running: Questions minus
# the workload's statements minus the probe should be 0.
baseline() {
	local n=$1 a b t0 t1
	a=$(probe none); t0=$(now); sleep 5
	b=$(probe none); t1=$(now)
	awk -v n="$n" -v s0="$a" -v s1="$b" -v t0="$t0" -v t1="$t1" 'BEGIN {
		split(s0, a, "\t"); split(s1, b, "\t"); dt = t1 - t0
		printf "# N=%d no monitor: workload %.1f statements/s, unaccounted %.2f/s\n", n,
			(b[2]-a[2])/dt, (b[1]-a[1]-(b[2]-a[2])-1)/dt }' >>"$TMP/notes"
}

main() {
	build
	mkdir -p "$TMP/home"
	: >"$TMP/table"; : >"$TMP/notes"
	start_server
	create_users
	local version n m
	version=$("${MYSQL[@]}" -e 'SELECT VERSION()')
	for n in $COUNTS; do
		say "N=$n: opening $n idle connections and a $RATE/s workload"
		start_load "$n"
		baseline "$n"
		for m in $MONITORS; do
			if [[ $m == stmtcost ]]; then stmtcost "$n"; continue; fi
			if [[ $m == stmtgap ]]; then
				"$TMP/stmtcost" -S "$SOCK" -rounds 20 -gap 1s | sed "s/^/# N=$n stmtgap: /" >>"$TMP/notes"
				continue
			fi
			say "N=$n: $m for ${DURATION}s (+${WARMUP}s warm-up), load $(cut -d' ' -f1-3 /proc/loadavg)"
			measure "$m" "$n"
		done
		stop_pid "$CONNS_PID"; CONNS_PID=""
	done
	echo "# $(date -u +%FT%TZ)  MariaDB $version  $(nproc) CPUs  $(uname -r)  window ${DURATION}s  workload ${RATE}/s  busy $BUSY"
	cat "$TMP/notes"
	printf '%-16s %6s %8s %9s %9s %9s %8s %7s %11s %6s\n' monitor N stmt/s srv_ms/s srvcpu_ms KiB_out/s cpu% rss_MB p50/p99ms load1
	cat "$TMP/table"
	local f
	for f in "$TMP"/latency-*.txt; do
		[[ -f $f ]] || continue
		f=${f#"$TMP"/latency-}; f=${f%.txt}
		sed "s/^/# $f latency ms: /" "$TMP/latency-$f.txt"
	done
	((GLOG)) && statements
	echo "# load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
}

# statements prints, from the general log, what each monitor user sent: every
# statement shape with its count, most frequent first (all -n runs together).
statements() {
	awk -F'\t' '
	function shape(q) { gsub(/[0-9]+/, "N", q); gsub(/N(, *N)+/, "N,...", q); return substr(q, 1, 110) }
	$0 ~ /^[0-9]{6} / || $1 == "" {
		split($2 == "" ? $3 : $2, w, " "); id = w[1]; cmd = w[2]
		q = $NF
		if (cmd == "Connect") { split(q, u, "@"); user[id] = u[1]; next }
		if (cmd == "Query" && user[id] ~ /^m_/ && user[id] != "m_q") n[user[id] "\t" shape(q)]++
	}
	END { for (k in n) print n[k] "\t" k }' "$TMP/general.log" | sort -t$'\t' -k2,2 -k1,1nr |
		awk -F'\t' '{printf "# sent %-10s %6d  %s\n", $2, $1, $3}'
}

main
