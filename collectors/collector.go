package collectors

import (
	"context"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Collector fills its part of a Snapshot from one source.
type Collector interface {
	Name() snapshot.CollectorName
	Collect(ctx context.Context, s *snapshot.Snapshot) error
}

// carrier is implemented by collectors that do not run every tick: the
// scheduler asks them to copy their part of the previous snapshot forward.
type carrier interface {
	carry(prev, cur *snapshot.Snapshot)
}

// skipCarrier is implemented by collectors whose last part stays true when a
// tick cannot run them at all (the server is down or the tick ran out): the
// scheduler asks them to carry it forward then too.
type skipCarrier interface {
	carrySkipped(prev, cur *snapshot.Snapshot)
}

// setUnavailable records why a source cannot run in full; the scheduler keeps
// it when it adds latency and errors.
func setUnavailable(s *snapshot.Snapshot, name snapshot.CollectorName, reason string) {
	if s.Collectors == nil {
		s.Collectors = map[snapshot.CollectorName]snapshot.CollectorState{}
	}
	st := s.Collectors[name]
	st.Unavailable = reason
	s.Collectors[name] = st
}
