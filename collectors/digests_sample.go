package collectors

import (
	"github.com/mytop-go/mytop-go/snapshot"

	"github.com/mytop-go/mytop-go/snapshot/infer"
)

// sampleCache remembers one real statement per digest for servers whose
// digest table keeps no sample text: a statement of the processlist whose
// fingerprint matches the digest's text. A digest keeps its sample once one
// was seen, so EXPLAIN works for it even when nothing of it runs now.
type sampleCache struct {
	byDigest map[string]string
}

// maxSamples bounds the cache; statements of ad-hoc text would grow it.
const maxSamples = 5000

// maxSampleBytes bounds one stored sample.
const maxSampleBytes = 4000

// fill sets the Sample of the digests that have none, from the cache or from
// the processlist of the same snapshot.
func (c *sampleCache) fill(ds []snapshot.Digest, procs []snapshot.Process) {
	if c.byDigest == nil {
		c.byDigest = map[string]string{}
	}
	var running map[string]string
	for i := range ds {
		d := &ds[i]
		if d.Sample != "" || d.Digest == "" {
			continue
		}
		if s, ok := c.byDigest[d.Digest]; ok {
			d.Sample = s
			continue
		}
		if running == nil {
			running = runningByMatchKey(procs)
		}
		if s, ok := running[infer.DigestMatchKey(d.Text)]; ok {
			d.Sample = s
			if len(c.byDigest) < maxSamples {
				c.byDigest[d.Digest] = s
			}
		}
	}
}

// runningByMatchKey indexes the running statements by their match key.
func runningByMatchKey(procs []snapshot.Process) map[string]string {
	m := map[string]string{}
	for i := range procs {
		p := &procs[i]
		if p.Command != "Query" && p.Command != "Execute" || p.Info == "" || len(p.Info) > maxSampleBytes {
			continue
		}
		m[infer.QueryMatchKey(p.Info)] = p.Info
	}
	return m
}
