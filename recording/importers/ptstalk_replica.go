package importers

import (
	"os"
	"slices"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot/parse"
)

// readReplicaStatus reads -slave-status: SHOW SLAVE STATUS\G once a turn of
// the collection's loop, at its own TS markers where pt-stalk wrote them,
// else placed like the processlist (onLoop). The parser lives in
// snapshot (ParseReplicaStatusSamples), beside the live collector's data.
func (r *ptReader) readReplicaStatus(clock []time.Time, base time.Time) error {
	path, ok := r.g.files["slave-status"]
	if !ok {
		return nil
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	r.in.advance(int64(len(raw)))
	samples, errs := parse.ParseReplicaStatusSamples(string(raw))
	for _, e := range errs {
		r.sess.Problems.add(path, 0, e.Error())
	}
	if r.tl.replicas == nil {
		r.tl.replicas = map[int64][]map[string]string{}
	}
	place := func(i int) time.Time { return onClock(clock, base, i) }
	if !slices.ContainsFunc(samples, func(s parse.ReplicaStatusSample) bool { return strings.HasPrefix(s.Marker, "TS ") }) {
		place = r.onLoop("slave-status", len(samples), clock, base)
	}
	for i, smp := range samples {
		at := place(i)
		if t, ok := parseTSMarker(smp.Marker, r.loc); ok {
			at = t.In(r.loc)
		}
		r.tl.replicas[at.Unix()] = smp.Rows
	}
	return nil
}
