#!/usr/bin/env bash
# Runs the built binary's `report` over every file, and every directory holding
# files, of a corpus of real captures (default ../shared/external, described by
# its PROVENANCE.md) and prints, per kind, how many were accepted, refused with
# a one-line reason, or crashed. A missing corpus is not an error: it is
# skipped with a word (a user's clone does not have it).
#
#   scripts/corpus.sh [-v] [DIR]      -v lists every input with its verdict
#
# Exits non-zero when any input panics, when a refusal is not one line naming
# the input, or when an input is accepted with no frames.
set -uo pipefail
cd "$(dirname "$0")/.."
verbose=0
if [ "${1:-}" = "-v" ]; then verbose=1; shift; fi
corpus="${1:-../shared/external}"
if [ ! -d "$corpus" ]; then
  echo "corpus.sh: no corpus at $corpus, skipped"
  exit 0
fi
corpus="$(cd "$corpus" && pwd)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
bin="$work/mytop-go"
CGO_ENABLED=0 go build -o "$bin" ./cmd/mytop-go || exit 1

# kind of a path: PROVENANCE.md's "what it is" column, else its folder's name.
kinds="$work/kinds"
: >"$kinds"
if [ -f "$corpus/PROVENANCE.md" ]; then
  awk -F'|' '/^\| (innotop|percona-toolkit) \| `/ {
      p=$3; gsub(/^ *`|` *$/, "", p); k=$4; gsub(/^ +| +$/, "", k); print $2 "\t" p "\t" k }' \
    "$corpus/PROVENANCE.md" | sed -E 's/^ *([^ ]+) *\t/\1\//' >"$kinds"
fi
kind_of() { # relative path -> kind
  local k
  k="$(awk -F'\t' -v p="$1" '$1 == p { print $2; exit }' "$kinds")"
  if [ -z "$k" ]; then k="other: $(dirname "$1")"; fi
  printf '%s' "${k:0:60}"
}

# inputs: every regular file but PROVENANCE.md, then every directory with files.
inputs="$work/inputs"
(cd "$corpus" && find . -type f ! -name PROVENANCE.md | sed 's#^\./##' | sort) >"$inputs"
(cd "$corpus" && find . -type f ! -name PROVENANCE.md -printf '%h\n' | sed 's#^\./##' | sort -u |
  grep -v '^\.$' | sed 's#$#/#') >>"$inputs"

results="$work/results"
: >"$results"
bad=0
while read -r rel; do
  path="$corpus/$rel"
  if [ "${rel: -1}" = "/" ]; then
    first="$(cd "$corpus/$rel" && find . -maxdepth 1 -type f ! -name PROVENANCE.md | sort | head -1 | sed 's#^\./##')"
    kind="dir of: $(kind_of "$rel$first")"
  else
    kind="$(kind_of "$rel")"
  fi
  out="$work/out.json"
  err="$work/err"
  timeout 60 "$bin" report "$path" --format json >"$out" 2>"$err" </dev/null
  rc=$?
  if grep -q -e '^panic:' -e '^goroutine [0-9]' "$err" || [ $rc -ge 124 ]; then
    verdict=panic; why="$(grep -m1 -e '^panic:' "$err" || echo "exit $rc")"; bad=1
  elif [ $rc -eq 0 ]; then
    frames="$(grep -o '"frames": *[0-9]*' "$out" | head -1 | grep -o '[0-9]*$')"
    verdict=accepted
    why="$(grep -m1 'capture,' "$err" | sed "s#$corpus/##g")"
    [ -n "$why" ] || why="recording"
    missing="$(grep '^mytop-go: missing: ' "$err" | sed 's/^mytop-go: missing: //' | paste -sd, - | sed 's/,/, /g')"
    why="${frames:-?} frames; ${why#mytop-go: }${missing:+; missing: $missing}"
    if [ "${frames:-0}" = "0" ]; then verdict=empty; bad=1; fi
  else
    verdict=refused
    why="$(sed "s#$corpus/##g" "$err" | head -1)"
    lines="$(wc -l <"$err")"
    # a refusal must be one line that names the input
    if [ "$lines" -ne 1 ] || ! grep -qF -- "$(basename "$rel")" <<<"$why"; then
      verdict=refused-badly; bad=1
    fi
  fi
  printf '%s\t%s\t%s\t%s\n' "$kind" "$verdict" "$rel" "$why" >>"$results"
done <"$inputs"

if [ $verbose -eq 1 ]; then
  awk -F'\t' '{ printf "%-13s %-70s %s\n", $2, $3, substr($4, 1, 160) }' "$results"
  echo
fi
awk -F'\t' '
  { kinds[$1]=1; n[$1, $2]++; total[$2]++; all++ }
  END {
    printf "%-62s %8s %8s %6s %6s\n", "kind", "accepted", "refused", "panics", "other"
    for (k in kinds) {
      other = n[k, "empty"] + n[k, "refused-badly"]
      printf "%-62s %8d %8d %6d %6d\n", k, n[k, "accepted"], n[k, "refused"], n[k, "panic"], other
    }
    printf "%-62s %8d %8d %6d %6d\n", "TOTAL (" all " inputs)", total["accepted"], total["refused"], total["panic"], total["empty"] + total["refused-badly"]
  }' "$results" | { read -r header; echo "$header"; sort | grep -v '^TOTAL'; } 
awk -F'\t' '{ t[$2]++; a++ } END { printf "TOTAL: %d inputs, %d accepted, %d refused with a reason, %d panics, %d empty or refused badly\n", a, t["accepted"], t["refused"], t["panic"], t["empty"] + t["refused-badly"] }' "$results"
if [ $bad -ne 0 ]; then
  echo "corpus.sh: some inputs panicked, were accepted empty, or were refused without a one-line reason naming them (see -v)" >&2
fi
exit $bad
