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

# inputs: every regular file but PROVENANCE.md, then every directory with files.
(cd "$corpus" && {
  find . -type f ! -name PROVENANCE.md | sed 's#^\./##' | sort
  find . -type f ! -name PROVENANCE.md -printf '%h\n' | sed 's#^\./##' | sort -u | grep -v '^\.$' | sed 's#$#/#'
}) >"$work/inputs"

# One run per input, two at a time; each leaves rc, stdout and stderr in
# $work/runs/N.
mkdir "$work/runs"
awk '{ print NR "\t" $0 }' "$work/inputs" |
  xargs -P 2 -d '\n' -n 1 sh -c '
    n="${1%%	*}"; rel="${1#*	}"; out="$0/runs/$n"
    timeout 60 "$0/mytop-go" report "'"$corpus"'/$rel" --format json >"$out.json" 2>"$out.err" </dev/null
    echo $? >"$out.rc"' "$work"

# kind of a path: PROVENANCE.md's "what it is" column, else its folder's name;
# a directory takes the kind of its first file.
if [ -f "$corpus/PROVENANCE.md" ]; then
  awk -F'|' '/^\| (innotop|percona-toolkit) \| `/ {
      proj=$2; gsub(/ /, "", proj); p=$3; gsub(/^ *`|` *$/, "", p); k=$4; gsub(/^ +| +$/, "", k)
      print proj "/" p "\t" substr(k, 1, 60) }' "$corpus/PROVENANCE.md"
fi >"$work/kinds"

# the verdict of each run, in one pass: a panic; accepted (with its frames
# and what the capture lacks), or accepted empty; refused with one line naming
# the input, or refused badly.
awk -v runs="$work/runs" -v corpus="$corpus/" '
  function slurp(f,   line, out, n) {
    out = ""; n = 0
    while ((getline line < f) > 0) { out = out (n++ ? "\n" : "") line }
    close(f); lines = n
    return out
  }
  {
    rel = $0; run = runs "/" NR
    rc = slurp(run ".rc") + 0
    err = slurp(run ".err"); errlines = lines
    gsub(corpus, "", err)
    if (err ~ /(^|\n)(panic:|goroutine [0-9])/ || rc >= 124) {
      verdict = "panic"; why = "exit " rc
    } else if (rc == 0) {
      json = slurp(run ".json")
      frames = ""
      if (match(json, /"frames": *[0-9]+/)) { frames = substr(json, RSTART, RLENGTH); sub(/.*: */, "", frames) }
      n = split(err, e, "\n"); line = ""; missing = ""
      for (i = 1; i <= n; i++) {
        if (line == "" && e[i] ~ /capture,/) { line = e[i]; sub(/^mytop-go: /, "", line) }
        if (e[i] ~ /^mytop-go: missing: /) { m = e[i]; sub(/^mytop-go: missing: /, "", m); missing = missing (missing == "" ? "" : ", ") m }
      }
      why = (frames == "" ? "?" : frames) " frames; " (line == "" ? "a recording" : line) (missing == "" ? "" : "; missing: " missing)
      verdict = (frames + 0 > 0) ? "accepted" : "empty"
    } else {
      split(err, e, "\n"); why = e[1]
      base = rel; sub(/\/$/, "", base); sub(/.*\//, "", base)
      verdict = (errlines == 1 && index(why, base) > 0) ? "refused" : "refused-badly"
    }
    print verdict "\t" rel "\t" why
  }' "$work/inputs" >"$work/verdicts"

# join the kinds: a file by its path, a directory by its first file's
awk -F'\t' -v corpus="$corpus" '
  FILENAME == ARGV[1] { kind[$1] = $2; next }
  {
    rel = $2; k = (rel in kind) ? kind[rel] : ""
    if (rel ~ /\/$/) {
      for (p in kind) if (index(p, rel) == 1 && index(substr(p, length(rel) + 1), "/") == 0 && (first == "" || p < first)) first = p
      k = (first != "" ? "dir of: " kind[first] : ""); first = ""
    }
    if (k == "") { k = rel; sub(/\/[^\/]*\/?$/, "", k); k = "other: " k }
    print k "\t" $0
  }' "$work/kinds" "$work/verdicts" >"$work/results"

if [ $verbose -eq 1 ]; then
  awk -F'\t' '{ printf "%-13s %-70s %s\n", $2, $3, substr($4, 1, 160) }' "$work/results"
  echo
fi
printf '%-62s %8s %8s %6s %6s\n' kind accepted refused panics other
awk -F'\t' '
  { kinds[$1] = 1; n[$1, $2]++ }
  END {
    for (k in kinds) printf "%-62s %8d %8d %6d %6d\n", k, n[k, "accepted"], n[k, "refused"], n[k, "panic"], n[k, "empty"] + n[k, "refused-badly"]
  }' "$work/results" | sort
awk -F'\t' '{ t[$2]++; a++ } END {
  printf "TOTAL: %d inputs, %d accepted, %d refused with a reason, %d panics, %d empty or refused badly\n", a, t["accepted"], t["refused"], t["panic"], t["empty"] + t["refused-badly"]
  exit (t["panic"] + t["empty"] + t["refused-badly"] > 0) }' "$work/results"
bad=$?
if [ $bad -ne 0 ]; then
  echo "corpus.sh: some inputs panicked, were accepted empty, or were refused without a one-line reason naming them (see -v)" >&2
fi
exit $bad
