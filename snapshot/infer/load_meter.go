package infer

import (
	"cmp"
	"slices"
	"strings"

	"github.com/mytop-go/mytop-go/snapshot"
)

// loadDims lists the dimensions in the order reports show them.
var loadDims = []snapshot.LoadDim{snapshot.DimStatement, snapshot.DimUser, snapshot.DimHost, snapshot.DimDB, snapshot.DimObject}

// maxSlicesPerDim bounds a sample's slices of one dimension, so 5,000
// sessions running distinct ad-hoc statements cost a few KB a frame.
const maxSlicesPerDim = 20

// LoadMeter computes the load of each Snapshot. It remembers fingerprints
// of statement texts between samples, because a long statement is seen
// running for many samples and fingerprinting is most of the cost.
type LoadMeter struct {
	fps    map[string]string
	states stateMemo
}

// maxRememberedFingerprints bounds the fingerprint memo.
const maxRememberedFingerprints = 20000

// Measure returns s's load, given its rates against the previous sample (r
// may be nil). It returns nil when the sample has no processlist to say
// (server unreachable, a capture without one): unknown, not zero.
func (m *LoadMeter) Measure(s *snapshot.Snapshot, r *snapshot.Rates) *snapshot.Load {
	if s == nil || !hasProcesslist(s) {
		return nil
	}
	l := &snapshot.Load{At: s.Time, Interval: 1}
	if r != nil && r.Interval > 0 {
		l.Interval = r.Interval
	}
	if s.Host != nil && !s.Host.Remote {
		l.CPUs = s.Host.NumCPU
	}
	cut := newSlicer()
	classifySessions(s, r, &m.states, func(p *snapshot.Process, c snapshot.WaitClass, w lockWait) {
		l.Active++
		l.Classes[c]++
		cut.add(snapshot.DimStatement, m.fingerprint(p.Info), c)
		cut.add(snapshot.DimUser, p.User, c)
		cut.add(snapshot.DimHost, hostOnly(p.Host), c)
		cut.add(snapshot.DimDB, cmp.Or(p.DB, snapshot.NoDB), c)
		if w.Object != "" && c == lockClasses[w.Kind] {
			cut.add(snapshot.DimObject, w.Object, c)
		}
	})
	l.Slices = cut.biggest(maxSlicesPerDim)
	return l
}

// classifySessions calls active for each active session of s, with its
// class and the lock the lock sources say it waits on.
func classifySessions(s *snapshot.Snapshot, r *snapshot.Rates, states *stateMemo, active func(p *snapshot.Process, c snapshot.WaitClass, w lockWait)) {
	waits := lockWaitsByThread(s.Locks)
	var threads *snapshot.ThreadRates
	if r != nil {
		threads = r.Threads
	}
	for i := range s.Processlist {
		p := &s.Processlist[i]
		if p.Command == "Sleep" { // most sessions of a busy server; nothing to look up
			continue
		}
		var w lockWait
		if waits != nil {
			w = waits[p.ID]
		}
		sig := sessionSignals{Lock: w.Kind}
		if threads != nil {
			if tr, ok := threads.ForConn(p.ID); ok {
				sig.Measured, sig.CPU, sig.Runnable = true, tr.CPU, tr.Runnable
				if !threads.NoIO {
					sig.IOBps = tr.ReadBps + tr.WriteBps
				}
			}
		}
		if c, ok := classify(p, sig, states.judge(p.State)); ok {
			active(p, c, w)
		}
	}
}

// hasProcesslist is false when the sample says nothing about sessions.
func hasProcesslist(s *snapshot.Snapshot) bool {
	if s.Server.Unreachable {
		return false
	}
	st, ok := s.Collectors[snapshot.CollectorProcesslist]
	return !ok || len(s.Processlist) > 0 || st.Unavailable == "" && !st.Stale && st.Error == ""
}

func (m *LoadMeter) fingerprint(info string) string {
	if strings.TrimSpace(info) == "" {
		return snapshot.NoStatement
	}
	if fp, ok := m.fps[info]; ok {
		return fp
	}
	if m.fps == nil || len(m.fps) >= maxRememberedFingerprints {
		m.fps = make(map[string]string, 256)
	}
	fp := snapshot.Fingerprint(info)
	m.fps[info] = fp
	return fp
}

// lockWait is what a thread waits on, by the lock sources.
type lockWait struct {
	Kind   snapshot.LockKind
	Object string
}

// lockWaitsByThread indexes the sample's lock waits by waiting thread; the
// object is the table, without the index a row lock names.
func lockWaitsByThread(l *snapshot.Locks) map[int64]lockWait {
	if l == nil || len(l.Waits) == 0 {
		return nil
	}
	out := make(map[int64]lockWait, len(l.Waits))
	for _, w := range l.Waits {
		if _, seen := out[w.Waiter]; seen {
			continue
		}
		obj, _, _ := strings.Cut(w.Object, " ")
		out[w.Waiter] = lockWait{Kind: w.Kind, Object: obj}
	}
	return out
}

// hostOnly drops the client's port: "10.0.0.12:53422" is host 10.0.0.12.
func hostOnly(h string) string {
	if strings.HasPrefix(h, "[") { // [::1]:53422
		if i := strings.Index(h, "]"); i > 0 {
			return h[1:i]
		}
	}
	if i := strings.LastIndexByte(h, ':'); i > 0 && strings.Count(h, ":") == 1 {
		return h[:i]
	}
	return h
}

// slicer counts sessions per dimension and name.
type slicer map[sliceKey]*snapshot.ClassLoad

type sliceKey struct {
	by   snapshot.LoadDim
	name string
}

func newSlicer() slicer { return slicer{} }

func (s slicer) add(by snapshot.LoadDim, name string, c snapshot.WaitClass) {
	k := sliceKey{by, name}
	l := s[k]
	if l == nil {
		l = new(snapshot.ClassLoad)
		s[k] = l
	}
	l[c]++
}

// biggest returns at most n slices per dimension, in loadDims order, the
// biggest first within each, ties by name so output is stable.
func (s slicer) biggest(n int) []snapshot.LoadSlice {
	if len(s) == 0 {
		return nil
	}
	all := make([]snapshot.LoadSlice, 0, len(s))
	for k, l := range s {
		all = append(all, snapshot.LoadSlice{By: k.by, Name: k.name, Classes: *l})
	}
	sortSlices(all)
	out := all[:0]
	count := map[snapshot.LoadDim]int{}
	for _, sl := range all {
		if count[sl.By] < n {
			count[sl.By]++
			out = append(out, sl)
		}
	}
	return slices.Clip(out)
}

// sortSlices orders slices by dimension (loadDims order), then biggest
// first, then by name.
func sortSlices(all []snapshot.LoadSlice) {
	slices.SortFunc(all, func(a, b snapshot.LoadSlice) int {
		return cmp.Or(cmp.Compare(dimRank(a.By), dimRank(b.By)),
			cmp.Compare(b.Sessions(), a.Sessions()), cmp.Compare(a.Name, b.Name))
	})
}

func dimRank(d snapshot.LoadDim) int {
	for i, x := range loadDims {
		if x == d {
			return i
		}
	}
	return len(loadDims)
}
