package ui

import (
	"fmt"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
	"github.com/mytop-go/mytop-go/snapshot/infer"
)

// rootKillText is the root-blocker kill dialog's body: what the kill is
// known to release and what is only guessed, what the rollback costs, who
// the thread is and what it runs. A count read from lock tables (or from a
// record naming its holder) is "releases N waiters"; a count hung beneath
// it by an inferred edge never is.
func rootKillText(n *infer.LockNode, what string, connection bool, tree *infer.LockTree) string {
	var b strings.Builder
	known := n.Waiters - n.Guessed
	switch {
	case n.Guessed == 0:
		fmt.Fprintf(&b, "[::b]%s %d: releases %s %s[::-] ?\n\n", what, n.Thread, commas(int64(n.Waiters)),
			plural(n.Waiters, "waiter", "waiters"))
	case known == 0:
		fmt.Fprintf(&b, "[::b]%s %d[::-] ?\n[yellow]%s %s guessed to wait behind it (inferred: no lock table names "+
			"this holder); it may release none of them.[-]\n\n", what, n.Thread, commas(int64(n.Waiters)),
			plural(n.Waiters, "waiter is", "waiters are"))
	default:
		fmt.Fprintf(&b, "[::b]%s %d: releases %s %s[::-] ?\n[yellow]%s more %s guessed to wait behind it "+
			"(inferred).[-]\n\n", what, n.Thread, commas(int64(known)), plural(known, "waiter", "waiters"),
			commas(int64(n.Guessed)), plural(n.Guessed, "is", "are"))
	}
	if !connection && n.Proc != nil && n.Proc.Info == "" {
		b.WriteString("[red]It runs no statement: KILL QUERY leaves its transaction open and releases nothing; " +
			"K (KILL CONNECTION) rolls it back.[-]\n")
	}
	if t := n.Trx; t != nil && t.TrxAgeS >= 0 {
		if connection {
			fmt.Fprintf(&b, "rolls back its transaction, open %s", age(time.Duration(t.TrxAgeS)*time.Second))
		} else {
			fmt.Fprintf(&b, "its transaction, open %s", age(time.Duration(t.TrxAgeS)*time.Second))
		}
		if t.RowsModified > 0 {
			rows := "rows"
			if t.RowsModified == 1 {
				rows = "row"
			}
			fmt.Fprintf(&b, ", %s %s modified", commas(t.RowsModified), rows)
		}
		b.WriteString("\n")
		if connection && t.RowsModified > 0 {
			b.WriteString("[yellow]the rollback undoes every modified row and keeps its locks until it ends: " +
				"the waiters wait for the rollback, which can take as long as the changes did[-]\n")
		}
	}
	if tree != nil && tree.Inferred && n.Guessed == 0 {
		b.WriteString("[gray]other parts of the tree are inferred[-]\n")
	}
	if p := n.Proc; p != nil {
		fmt.Fprintf(&b, "user %s  host %s  db %s\n", safeLine(p.User, 40), safeLine(p.Host, 60), safeLine(p.DB, 40))
	}
	b.WriteString(safeLine(n.Statement(), 200))
	return b.String()
}

// threadlessText explains a root that is a transaction with no connection:
// there is nothing to kill; it names what ends it.
func threadlessText(n *infer.LockNode) string {
	var b strings.Builder
	fmt.Fprintf(&b, "[::b]transaction %s has no connection: there is no thread to kill[::-]\n\n", safeLine(n.TrxID, 40))
	fmt.Fprintf(&b, "%s %s behind it", commas(int64(n.Waiters)), plural(n.Waiters, "waiter waits", "waiters wait"))
	if n.Guessed > 0 {
		fmt.Fprintf(&b, " (%s guessed)", commas(int64(n.Guessed)))
	}
	b.WriteString("\n")
	if t := n.Trx; t != nil {
		if t.TrxAgeS >= 0 {
			fmt.Fprintf(&b, "open %s", age(time.Duration(t.TrxAgeS)*time.Second))
		}
		if t.RowsModified > 0 {
			fmt.Fprintf(&b, ", %s rows modified", commas(t.RowsModified))
		}
		if t.XID != "" {
			fmt.Fprintf(&b, ", xid %s", safeLine(t.XID, 200))
		}
		fmt.Fprintf(&b, "\n[::b]ends with[::-] %s\n", safeLine(t.Ends(), 300))
		if t.Prepared() {
			b.WriteString("[yellow]XA ROLLBACK undoes it, XA COMMIT makes it durable: ask its transaction " +
				"manager which is right[-]\n")
		}
	}
	return b.String()
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// sourceAge reads " (0.2 s old)": how much older than the lock read kind's
// source is, when its read time is known.
func sourceAge(l *snapshot.Locks, k snapshot.LockKind) string {
	d, ok := l.SourceAge(k)
	if !ok {
		return ""
	}
	return fmt.Sprintf(" (%.1f s old)", d.Seconds())
}
