package analyzers

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// Thread cache misses (CONN-02): new connections get a freshly created thread
// instead of one the thread cache kept, judged per interval on
// Threads_created against Connections.

// ThreadCacheConfig holds thread_cache_miss's thresholds. Embedded in Config.
type ThreadCacheConfig struct {
	// ThreadCacheMissWarn: % of this interval's new connections that created
	// a thread (CONN-02: MT badprint "Thread cache hit rate" <= 50 %, i.e.
	// misses >= 50 %). Trap: MT's since-start-up ratio; judged per interval.
	ThreadCacheMissWarn float64
	// ThreadCacheMinConnections: new connections per second below which the
	// share is not judged (UNKNOWN; design floor). Trap: a near-zero
	// denominator: a monitoring agent reconnecting once a second to a server
	// with thread_cache_size=0 misses every time and costs nothing.
	ThreadCacheMinConnections float64
}

func (c *ThreadCacheConfig) defaults() {
	*c = ThreadCacheConfig{ThreadCacheMissWarn: 50, ThreadCacheMinConnections: 10}
}

// threadCacheSuggestCap: MariaDB's auto-sized thread_cache_size default is at
// most 256 (server manual); the advice names no more than that.
const threadCacheSuggestCap = 256

// IDThreadCacheMiss names the findings of thread_cache_miss: a contract (the
// README's findings table), stable, never reused.
const IDThreadCacheMiss = "thread_cache_miss"

// threadCacheMissRule is thread_cache_miss in the rules table (rule.go). Per-
// interval rates of caches: PTS's 5 x 1 s for a sustained rate (MT gives no
// duration; APA/ZBX's minutes would miss a thrash that a DBA needs named
// within seconds).
var threadCacheMissRule = rule{id: IDThreadCacheMiss, check: checkThreadCacheMiss,
	persist: persistFor(5*time.Second, 10*time.Second), held: true}

func checkThreadCacheMiss(w *window, c *Config) verdict {
	if r := w.statusNA("Threads_created", "Connections"); r != "" {
		return notApplicable(r)
	}
	if th, ok := w.variable("thread_handling"); ok && strings.Contains(th, "pool") {
		// MT: with a thread pool the thread cache is not used.
		return notApplicable("thread_handling=" + th + ": the thread pool does not use the thread cache")
	}
	if w.warmingUp(c) != "" {
		return quiet()
	}
	created, ok1 := w.rate("Threads_created")
	conns, ok2 := w.rate("Connections")
	if !ok1 || !ok2 || conns < c.ThreadCacheMinConnections {
		return quiet()
	}
	miss := 100 * min(created/conns, 1)
	if miss < c.ThreadCacheMissWarn {
		return quiet()
	}
	ev := []string{fmt.Sprintf("%.0f %% of new connections created a thread this interval (thread cache hit rate %.0f %%)",
		miss, 100-miss)}
	ev = append(ev, w.counterLines("Connections", "Threads_created")...)
	size, sizeOK := w.snap.VarFloat("thread_cache_size")
	if sizeOK {
		ev = append(ev, fmt.Sprintf("thread_cache_size=%.0f", size))
	}
	if v, ok := w.snap.StatusInt("Threads_cached"); ok {
		ev = append(ev, fmt.Sprintf("Threads_cached %d", v))
	}
	muc, mucOK := w.snap.StatusFloat("Max_used_connections")
	if tc, ok := w.snap.StatusInt("Threads_connected"); ok && mucOK {
		ev = append(ev, fmt.Sprintf("Threads_connected %d, Max_used_connections %.0f", tc, muc))
	}
	ev = appendNonEmpty(ev, connectionsByUser(w.processes()))
	suggest := 4.0 // MT: "start at 4" when the cache is off
	if mucOK {
		suggest = max(suggest, min(muc, threadCacheSuggestCap))
	}
	suggest = max(suggest, math.Ceil(conns))
	suggest = min(suggest, threadCacheSuggestCap)
	advice := fmt.Sprintf("Raise thread_cache_size to %.0f (SET GLOBAL thread_cache_size = %.0f; then in my.cnf): "+
		"enough cached threads for the connections that come and go (Max_used_connections, up to MariaDB's "+
		"auto-sized default of at most 256; MySQLTuner starts at 4 when it is 0).", suggest, suggest)
	if sizeOK && size >= suggest {
		advice = "thread_cache_size is already large: connections arrive faster than threads are freed. " +
			"Use a connection pool so the application keeps connections open, or the thread pool " +
			"(thread_handling=pool-of-threads on MariaDB)."
	}
	advice += " Connecting per request costs a thread creation and a login each time; a pool avoids both."
	return raise(snapshot.Warning, fmt.Sprintf("thread cache misses: %s new threads/s for %s connections/s (%.0f %%)",
		fmtRate(created), fmtRate(conns), miss), ev, advice, nil)
}
