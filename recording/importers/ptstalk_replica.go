package importers

import (
	"os"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// readReplicaStatus reads -slave-status: SHOW SLAVE STATUS\G once a sample,
// on the clock of the status samples like the other unstamped parts, or at
// its own TS markers where pt-stalk wrote them. The parser lives in
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
	samples, errs := snapshot.ParseReplicaStatusSamples(string(raw))
	for _, e := range errs {
		r.sess.Problems.add(path, 0, e.Error())
	}
	if r.tl.replicas == nil {
		r.tl.replicas = map[int64][]map[string]string{}
	}
	for i, smp := range samples {
		at := onClock(clock, base, i)
		if t, ok := parseTSMarker(smp.Marker, r.loc); ok {
			at = t.In(r.loc)
		}
		r.tl.replicas[at.Unix()] = smp.Rows
	}
	return nil
}
