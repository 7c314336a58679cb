package ui

import (
	"strconv"

	"github.com/mytop-go/mytop-go/snapshot"
)

// srcStatements is the digest collector's name in Snapshot.Collectors.
const srcStatements = snapshot.CollectorStatements

// stmtCol is one numeric column of the statements view; the fingerprint is
// always last and takes the rest of the width.
type stmtCol struct {
	title string
	width int
	value func(r *snapshot.StatementRate) float64
	// text formats the value; short() when nil.
	text func(v float64) string
}

func msText(v float64) string {
	if v == 0 {
		return "-"
	}
	if v < 10e-3 {
		return strconv.FormatFloat(v*1000, 'f', 2, 64)
	}
	return short(v * 1000)
}

func rateText(v float64) string {
	if v == 0 {
		return "-"
	}
	return short(v)
}

// stmtCols are the sortable columns, in display order.
var stmtCols = []stmtCol{
	{"calls/s", 8, func(r *snapshot.StatementRate) float64 { return r.CallsPerS }, rateText},
	{"lat s/s", 8, func(r *snapshot.StatementRate) float64 { return r.LatencySPerS }, func(v float64) string {
		return strconv.FormatFloat(v, 'f', 3, 64)
	}},
	{"avg ms", 7, func(r *snapshot.StatementRate) float64 { return r.AvgLatencyS }, msText},
	{"p95 ms", 7, func(r *snapshot.StatementRate) float64 { return r.P95S }, msText},
	{"lock ms/s", 9, func(r *snapshot.StatementRate) float64 { return r.LockSPerS }, msText},
	{"exam/s", 7, func(r *snapshot.StatementRate) float64 { return r.RowsExaminedPerS }, rateText},
	{"sent/s", 7, func(r *snapshot.StatementRate) float64 { return r.RowsSentPerS }, rateText},
	{"aff/s", 6, func(r *snapshot.StatementRate) float64 { return r.RowsAffectedPerS }, rateText},
	{"noidx/s", 7, func(r *snapshot.StatementRate) float64 { return r.NoIndexUsedPerS }, rateText},
	{"nogood/s", 8, func(r *snapshot.StatementRate) float64 { return r.NoGoodIndexPerS }, rateText},
	{"tmpdsk/s", 8, func(r *snapshot.StatementRate) float64 { return r.TmpDiskTablesPerS }, rateText},
	{"sortmp/s", 8, func(r *snapshot.StatementRate) float64 { return r.SortMergePerS }, rateText},
	{"err/s", 6, func(r *snapshot.StatementRate) float64 { return r.ErrorsPerS }, rateText},
}

// stmtSortFingerprint is the sort index of the fingerprint column.
var stmtSortFingerprint = len(stmtCols)
