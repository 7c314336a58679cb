#!/usr/bin/env bash
# Remakes shell-loops-top, shell-loops-top-stamped and shell-loops-top.truth
# from a real server: SOCK=/path/to/socket OUT=/tmp/dir shell-loops-top.sh,
# then copy what OUT holds here.
# Stamped status and vmstat loops; `top -b -d 1` raw beside them (here) or
# stamped by gawk in a loop log of its own after a stamped ps -eaF (there);
# one raw ps -eaF (here); a steady query load; and a CPU hog (sha1sum) from
# the 8th to the 16th second; its PID, start and stop and the server's PID
# go in shell-loops-top.truth. The top outputs are cut to their 20 busiest rows an
# iteration and the status to a few counters, to keep the files small.
set -euo pipefail
: "${SOCK:?server socket}" "${OUT:?output directory}"
raw="$OUT/raw"
mkdir -p "$raw" "$OUT/shell-loops-top" "$OUT/shell-loops-top-stamped"
cd "$raw"
stamp='{ print strftime("%Y/%m/%d %H:%M:%S"), $0; fflush() }'
keep='^(Variable_name|Uptime|Questions|Com_select|Threads_running|Threads_connected|Bytes_sent|Bytes_received|Innodb_rows_read|Handler_read_rnd_next)[[:space:]]'
sql() { mariadb -S "$SOCK" -uroot "$@"; }
sql -e "SHOW GLOBAL VARIABLES WHERE Variable_name IN ('datadir', 'socket', 'port', 'version', 'version_comment', 'hostname')" > variables.txt
cat "$(sql -N -e 'SELECT @@pid_file')" > server-pid
( while :; do d=$(date '+%Y/%m/%d %H:%M:%S')
    sql -e 'SHOW GLOBAL STATUS' | grep -E "$keep" | sed "s|^|$d |"
    sleep 1; done > status.log ) &
loops=$!
vmstat -n 1 | gawk "$stamp" > vmstat.log &
vm=$!
ps -eaF > ps.txt
top -b -d 1 -w 160 > top.raw &
rawtop=$!
ps -eaF | gawk "$stamp" > top-loop.raw
top -b -d 1 -w 160 | gawk "$stamp" >> top-loop.raw &
stamped=$!
( while :; do sql -e "SELECT BENCHMARK(300000, MD5('load'))" > /dev/null; sleep 0.2; done ) &
load=$!
sleep 8
date +%s > hog-start
sha1sum /dev/zero & hog=$!
echo "$hog" > hog-pid
sleep 8
kill "$hog"; date +%s > hog-stop
sleep 5
kill "$loops" "$vm" "$rawtop" "$stamped" "$load" 2>/dev/null || true
sleep 1
# Each iteration's header, summary and 20 busiest rows (top sorts by %CPU).
cut='BEGIN { n = -1 } { line = $0; if (stamped) sub(/^[0-9\/]+ [0-9:]+ /, "", line) }
  line ~ /^top - / { n = -1 } line ~ /PID USER/ { n = 0; print; next } n >= 0 { n++; if (n > 20) next } { print }'
awk -v stamped=0 "$cut" top.raw > top.log
awk -v stamped=1 "$cut" top-loop.raw > top-loop.log
here="$OUT/shell-loops-top" there="$OUT/shell-loops-top-stamped"
cp status.log vmstat.log variables.txt top.log ps.txt "$here"
cp status.log variables.txt top-loop.log "$there"
printf 'hog_pid %s\nhog_start %s\nhog_stop %s\nserver_pid %s\n' \
  "$(cat hog-pid)" "$(cat hog-start)" "$(cat hog-stop)" "$(cat server-pid)" > "$OUT/shell-loops-top.truth"
