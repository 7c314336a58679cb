package collectors

import (
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// The server renders every row of the digest table (its hash and text)
// before any WHERE applies, so even a read that returns only the changed
// rows costs it time in proportion to all digests: measured on MariaDB
// 10.11 with 50,000, SELECT COUNT(*) alone takes 34 ms of CPU (short
// statements) to 141 ms (~520-byte texts), the interval read 42 to 150 ms
// (digests_text.go). The filter saves
// the wire and the monitor (a few changed rows instead of the whole table),
// not the server's scan. So the period stretches with the cost: reads never
// take more than 1/digestCostShare of the server's time.
const digestCostShare = 100

// noteCost keeps the duration of an interval read (the first, full read of
// a connection says nothing of the next ones) and tells it in the sample.
func (c *digests) noteCost(st *snapshot.Statements, took time.Duration) {
	if st == nil || st.Interval == 0 {
		return
	}
	c.readCost = took
	st.ReadSeconds = took.Seconds()
	if p := took * digestCostShare; p > time.Duration(st.Interval*float64(time.Second)) {
		st.StretchedTo = p.Seconds()
	}
}

// period implements adaptivePeriod.
func (c *digests) period(configured time.Duration) time.Duration {
	return max(configured, c.readCost*digestCostShare)
}
