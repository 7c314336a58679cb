#!/usr/bin/env bash
# Re-makes the recordings of healthy runs in analyzers/testdata/healthy/
# (the routine-work review), which TestReplayHealthy replays in the fast tests. Each is made
# by the integration test of its run on throwaway MariaDB servers, with
# MYTOP_RECORD_HEALTHY set: the test watches the server as `mytop-go record`
# would (1-s samples, host collector on), asserts the run was healthy
# (nothing at warning or above), and only then writes at most 60 s of its
# frames, from the start of the routine work, with the recording writer the
# binary uses (zstd-compressed frames). A failed run writes nothing.
#
#   scripts/record-healthy.sh [dump|polls|replica]...   (default: all three)
#
# Needs mariadb-server, mariadb-client (mariadb-dump) and sysbench. The dump
# and the 1,000 connections load the CPU: they run one at a time under
# /tmp/mytop-heavy.lock, as the project's heavy tests do on a shared machine.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/usr/sbin:/usr/local/go/bin"

runs=("$@")
[ ${#runs[@]} -eq 0 ] && runs=(dump polls replica)
for r in "${runs[@]}"; do
  case "$r" in
    dump) test='TestIntegrationRoutineDumpUnderLoad$'; heavy=1 ;;
    polls) test='TestIntegrationLongPollsAmongThousandConnectionsQuiet$'; heavy=1 ;;
    replica) test='TestIntegrationReplicaCatchUpQuiet$'; heavy=0 ;;
    *) echo "unknown run $r (dump, polls, replica)" >&2; exit 2 ;;
  esac
  echo "== $r: $test"
  cmd=(go test -count=1 -timeout 15m -run "$test" -v ./analyzers/)
  if [ "$heavy" = 1 ]; then
    MYTOP_RECORD_HEALTHY=1 flock /tmp/mytop-heavy.lock "${cmd[@]}" | grep -E '^(---|ok|FAIL)|recorded|not recording'
  else
    MYTOP_RECORD_HEALTHY=1 "${cmd[@]}" | grep -E '^(---|ok|FAIL)|recorded|not recording'
  fi
done
ls -l analyzers/testdata/healthy/*.mytop
