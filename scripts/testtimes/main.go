// Command testtimes reads `go test -json` output on stdin and prints where
// the suite's time went: each package's time, and the heavy-test slot's
// holders (testdb logs each hold) with their sum, the floor of a package
// whose CPU-heavy tests run one after another.
//
//	go test -count=1 -json ./... | go run ./scripts/testtimes
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
	"time"
)

type event struct {
	Action  string
	Package string
	Test    string
	Elapsed float64
	Output  string
}

var heldLine = regexp.MustCompile(`held the heavy-test slot for (\S+)`)

type hold struct {
	pkg, test string
	d         time.Duration
}

func main() {
	pkgs := map[string]float64{}
	var holds []hold
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 16<<20)
	for in.Scan() {
		var e event
		if json.Unmarshal(in.Bytes(), &e) != nil {
			continue
		}
		short := e.Package[strings.LastIndex(e.Package, "/")+1:]
		if e.Test == "" && (e.Action == "pass" || e.Action == "fail") {
			pkgs[short] = e.Elapsed
		}
		if m := heldLine.FindStringSubmatch(e.Output); m != nil {
			if d, err := time.ParseDuration(m[1]); err == nil {
				holds = append(holds, hold{short, e.Test, d})
			}
		}
	}
	names := make([]string, 0, len(pkgs))
	for p := range pkgs {
		names = append(names, p)
	}
	sort.Slice(names, func(i, j int) bool { return pkgs[names[i]] > pkgs[names[j]] })
	for _, p := range names {
		if pkgs[p] >= 1 {
			fmt.Printf("%8.1f s  %s\n", pkgs[p], p)
		}
	}
	sort.Slice(holds, func(i, j int) bool { return holds[i].d > holds[j].d })
	sums := map[string]time.Duration{}
	fmt.Println("\nheavy-test slot holders:")
	for _, h := range holds {
		sums[h.pkg] += h.d
		fmt.Printf("%8.1f s  %s %s\n", h.d.Seconds(), h.pkg, h.test)
	}
	for p, d := range sums {
		fmt.Printf("sum %s: %.0f s in %d holds\n", p, d.Seconds(), countOf(holds, p))
	}
}

func countOf(holds []hold, pkg string) int {
	n := 0
	for _, h := range holds {
		if h.pkg == pkg {
			n++
		}
	}
	return n
}
