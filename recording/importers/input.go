package importers

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Problems counts lines an import could not use and keeps the first few, with
// file:line, for the user to look at.
type Problems struct {
	Count int
	First []string
}

// maxProblemExamples bounds First: the count tells the size, a few examples
// tell the cause.
const maxProblemExamples = 5

func (p *Problems) add(file string, line int, why string) {
	p.Count++
	if len(p.First) < maxProblemExamples {
		p.First = append(p.First, fmt.Sprintf("%s:%d: %s", filepath.Base(file), line, why))
	}
}

// input is the set of files one import reads, so progress covers all of them.
type input struct {
	total, done int64
	reported    int64
	progress    func(done, total int64)
}

// progressStep is how many bytes pass between progress calls.
const progressStep = 1 << 20

func newInput(paths []string, progress func(done, total int64)) (*input, error) {
	in := &input{progress: progress}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		in.total += st.Size()
	}
	return in, nil
}

// eachLine calls fn with every line of path (without its line ending) and its
// 1-based number.
func (in *input) eachLine(path string, fn func(n int, line string)) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 256<<10)
	for n := 1; ; n++ {
		line, err := r.ReadString('\n')
		if line != "" {
			in.advance(int64(len(line)))
			fn(n, strings.TrimRight(line, "\r\n"))
		}
		if err == io.EOF {
			in.finish()
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
	}
}

func (in *input) advance(n int64) {
	in.done += n
	if in.progress != nil && in.done-in.reported >= progressStep {
		in.reported = in.done
		in.progress(in.done, in.total)
	}
}

func (in *input) finish() {
	if in.progress != nil && in.reported != in.done {
		in.reported = in.done
		in.progress(in.done, in.total)
	}
}

// complete reports all input read, for parts read whole or skipped.
func (in *input) complete() {
	in.done = in.total
	in.finish()
}
