package analyzers

import (
	"fmt"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// IDSwapping names the findings of swapping: a contract (the README's findings
// table), stable, never reused.
const IDSwapping = "swapping"

// SwapConfig holds swapping's thresholds, each with its source and the trap it
// avoids.
type SwapConfig struct {
	// SwapPagesWarn: pages swapped in+out per second (HOST-03, GREGG: any
	// non-zero si/so is saturation). SwapUsedCrit % of swap in use while
	// swapping (PMM-A node_swap_filled_up: 80 %).
	// Trap: swap in use at rest (pages parked long ago) is not swapping; only
	// the page rate counts.
	SwapPagesWarn float64 `zero:"any page swapped in or out counts"`
	SwapUsedCrit  float64
}

func (c *SwapConfig) defaults() {
	*c = SwapConfig{
		SwapPagesWarn: 0,
		SwapUsedCrit:  80,
	}
}

// swappingRule is swapping in the rules table (rule.go). HOST-03: GREGG any
// si/so; PMM-A 5 m for swap filling. Trap: a burst of page-outs when a large
// file is read once.
var swappingRule = rule{id: IDSwapping, check: checkSwapping, persist: persistFor(10*time.Second, 10*time.Second), held: true}

// Pages moving to or from swap mean the machine is short of memory (HOST-03,
// GREGG: any non-zero si/so); every latency on a swapping mysqld is suspect.
// Swap nearly full while swapping is critical (PMM-A node_swap_filled_up).
func checkSwapping(w *window, c *Config) verdict {
	if r := w.hostNA(); r != "" {
		return notApplicable(r)
	}
	hr, h := w.hostRates(), w.snap.Host
	if hr == nil || h == nil {
		return quiet()
	}
	pages := hr.SwapIn + hr.SwapOut
	if pages <= c.SwapPagesWarn {
		return quiet()
	}
	ev := []string{fmt.Sprintf("swap in %s pages/s, out %s pages/s", fmtRate(hr.SwapIn), fmtRate(hr.SwapOut))}
	sev := snapshot.Warning
	if h.SwapTotal > 0 {
		used := 100 * float64(h.SwapTotal-min(h.SwapFree, h.SwapTotal)) / float64(h.SwapTotal)
		ev = append(ev, fmt.Sprintf("swap used %.0f %% of %s", used, fmtBytes(float64(h.SwapTotal))))
		if used > c.SwapUsedCrit {
			sev = snapshot.Critical
		}
	}
	if h.MemTotal > 0 {
		ev = append(ev, fmt.Sprintf("memory available %s of %s (%.0f %%)", fmtBytes(float64(h.MemAvailable)),
			fmtBytes(float64(h.MemTotal)), 100*float64(h.MemAvailable)/float64(h.MemTotal)))
	}
	if size, ok := w.snap.VarFloat("innodb_buffer_pool_size"); ok {
		ev = append(ev, "innodb_buffer_pool_size="+fmtBytes(size))
	}
	return raise(sev, fmt.Sprintf("host is swapping: %s pages/s", fmtRate(pages)), ev,
		"Free memory: shrink innodb_buffer_pool_size or per-connection buffers, or move other processes off "+
			"the host; set vm.swappiness low (≤ 10).", nil)
}
