package baseline

import (
	"math"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// seenKey is a statement, user or client host seen among the active
// sessions.
type seenKey struct {
	by   snapshot.LoadDim
	name string
}

// maxSeen bounds the names remembered from frames whose mix is not judged.
const maxSeen = 4 * maxNamed

// seenSpan is the buckets a name was seen in: the first since it was last
// absent for a whole window, and the last.
type seenSpan struct{ first, last int64 }

// noteUnjudgedMix remembers the names of a frame whose mix is not judged
// (fewer than minMixActive sessions active). On a lightly loaded server
// most frames are such, and the application's own statements, users and
// hosts are seen there long before a pile-up makes a frame's mix judged: a
// name seen there since before the departure now being judged could have
// begun is not new when it first shows in a judged frame (fresh). Trap: the
// application's usual UPDATE, caught in the first pile-up of 30 sessions
// behind a restore's flushing, named "new or regressed statement" because
// no judged frame had held it before. A statement first seen a moment ago
// is still new, whichever frame showed it first.
func (t *Tracker) noteUnjudgedMix(l *snapshot.Load, bucket int64) {
	if l == nil || mixCounts(l) {
		return
	}
	for i := range l.Slices {
		s := &l.Slices[i]
		switch s.By {
		case snapshot.DimStatement, snapshot.DimUser, snapshot.DimHost:
		default:
			continue
		}
		k := seenKey{s.By, s.Name}
		sp, ok := t.seen[k]
		if !ok && len(t.seen) >= maxSeen {
			t.forgetSeen(bucket)
			if len(t.seen) >= maxSeen {
				continue
			}
		}
		if !ok || sp.last < bucket-t.cfg.windowBuckets() {
			sp.first = bucket
		}
		sp.last = bucket
		t.seen[k] = sp
	}
}

// forgetSeen drops the names last seen before the window.
func (t *Tracker) forgetSeen(bucket int64) {
	for k, sp := range t.seen {
		if sp.last < bucket-t.cfg.windowBuckets() {
			delete(t.seen, k)
		}
	}
}

// seenInWindow says a mix signal's name was seen in frames whose mix was
// not judged, within the window, since before a departure that is being
// judged now could have begun (the short window and the hold).
func (t *Tracker) seenInWindow(s spec) bool {
	var k seenKey
	switch s.kind {
	case kStatement:
		k = seenKey{snapshot.DimStatement, strings.TrimPrefix(s.name, prefixStatement)}
	case kUser:
		k = seenKey{snapshot.DimUser, strings.TrimPrefix(s.name, prefixUser)}
	case kClientHost:
		k = seenKey{snapshot.DimHost, strings.TrimPrefix(s.name, prefixHost)}
	default:
		return false
	}
	sp, ok := t.seen[k]
	margin := int64(math.Ceil((t.cfg.Short + t.cfg.Hold).Seconds() / bucketSpan))
	return ok && sp.last >= t.bucket-t.cfg.windowBuckets() && sp.first+margin < t.bucket
}
