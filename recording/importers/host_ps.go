package importers

import (
	"strconv"
	"strings"
)

// `ps -eaF` (pt-stalk's -ps; older pt-stalk wrote `ps -eaf`, without SZ,
// RSS and PSR): one listing at the collection's start. It names the server
// process among several (its arguments hold the datadir, socket or port)
// and gives its resident size there; CPU comes from top, since ps's TIME is
// a lifetime total and its C a lifetime average.

// psProc is one row of ps.
type psProc struct {
	pid  int
	rss  uint64 // bytes; 0 when the listing has no RSS column
	name string // the program's base name
	args string // the whole command line
}

// parsePs reads a ps -f/-F listing by its header; nil when lines hold none.
func parsePs(lines []string) []psProc {
	var cols map[string]int
	var out []psProc
	for _, l := range lines {
		f := strings.Fields(l)
		if len(f) == 0 {
			continue
		}
		if f[0] == "UID" && len(f) > 2 && f[1] == "PID" {
			cols = map[string]int{}
			for i, name := range f {
				cols[name] = i
			}
			continue
		}
		cmd, ok := cols["CMD"]
		if cols == nil || !ok || len(f) <= cmd {
			continue
		}
		pid, err := strconv.Atoi(f[cols["PID"]])
		if err != nil {
			continue
		}
		p := psProc{pid: pid, args: strings.Join(f[cmd:], " ")}
		if i, ok := cols["RSS"]; ok {
			p.rss = atou(f[i]) << 10 // KiB
		}
		p.name = f[cmd]
		if i := strings.LastIndexByte(p.name, '/'); i >= 0 && !strings.HasPrefix(p.name, "[") {
			p.name = p.name[i+1:]
		}
		out = append(out, p)
	}
	return out
}

// kindPs is a `ps -ef`/`ps -eaF` listing beside shell loops or in a pile.
const kindPs fileKind = "ps"

// isPsListing: the file opens with ps's full-format header.
func isPsListing(_ []byte, lines []string) bool { return isPsHeader(lines[0]) }

// readPs keeps the listing, which tells the server's process among others.
func (p *pileReader) readPs(pf *pileFile) error {
	var lines []string
	if err := p.run.in.eachLine(pf.path, func(_ int, line string) { lines = append(lines, line) }); err != nil {
		return err
	}
	p.tl.tables.addPs(pf.path, parsePs(lines))
	return nil
}
