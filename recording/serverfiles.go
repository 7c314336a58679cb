package recording

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mytop-go/mytop-go/snapshot"
)

// ServerFiles records a fleet: one file per server and day under Dir, named
// "<server>-YYYYMMDD.mytop", so a day of twenty servers is twenty files a DBA
// can mail one at a time. A file of the same day is continued after a restart.
type ServerFiles struct {
	Dir  string
	Opts WriterOptions
	// KeepAround, when set, keeps full detail only around findings (keepAround).
	KeepAround time.Duration

	mu    sync.Mutex
	files map[string]*serverFile
}

type serverFile struct {
	mu   sync.Mutex
	day  string
	w    *Writer
	keep *keepAround
}

// Write records f for server. Safe for concurrent use by different servers;
// each server's frames must come from one goroutine, in time order.
func (s *ServerFiles) Write(server string, f *snapshot.Frame) error {
	sf := s.file(server)
	sf.mu.Lock()
	defer sf.mu.Unlock()
	day := f.Time().Local().Format("20060102")
	if sf.w == nil || sf.day != day {
		if err := sf.close(); err != nil {
			return err
		}
		if err := s.open(sf, server, day); err != nil {
			return err
		}
	}
	if sf.keep != nil {
		return sf.keep.Write(f)
	}
	return sf.w.Write(f)
}

// Tee returns an observer that hands each frame to next and then to its
// server's file. A failing file is said on log once per server (again only
// after it has worked) and never stops next: the metrics go on.
func (s *ServerFiles) Tee(next func(string, *snapshot.Frame), log io.Writer) func(string, *snapshot.Frame) {
	var mu sync.Mutex
	failed := map[string]bool{}
	return func(server string, f *snapshot.Frame) {
		next(server, f)
		err := s.Write(server, f)
		mu.Lock()
		defer mu.Unlock()
		if err != nil && !failed[server] {
			fmt.Fprintf(log, "mytop-go: %s: recording stopped: %v\n", server, err)
		}
		failed[server] = err != nil
	}
}

// Path is the file server's frames of day go to.
func (s *ServerFiles) Path(server string, day time.Time) string {
	return filepath.Join(s.Dir, fileSafe(server)+"-"+day.Local().Format("20060102")+".mytop")
}

// Close closes every open file.
func (s *ServerFiles) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	var errs []error
	for _, sf := range s.files {
		sf.mu.Lock()
		errs = append(errs, sf.close())
		sf.mu.Unlock()
	}
	return errors.Join(errs...)
}

func (s *ServerFiles) file(server string) *serverFile {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.files == nil {
		s.files = map[string]*serverFile{}
	}
	sf := s.files[server]
	if sf == nil {
		sf = &serverFile{}
		s.files[server] = sf
	}
	return sf
}

func (s *ServerFiles) open(sf *serverFile, server, day string) error {
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return fmt.Errorf("recording directory: %w", err)
	}
	d, _ := time.ParseInLocation("20060102", day, time.Local)
	opts := s.Opts
	opts.Append = true
	w, err := Create(s.Path(server, d), opts)
	if err != nil {
		return err
	}
	sf.w, sf.day = w, day
	if s.KeepAround > 0 {
		if sf.keep, err = newKeepAround(w, s.KeepAround, 0); err != nil {
			w.Close()
			sf.w = nil
			return err
		}
	}
	return nil
}

func (sf *serverFile) close() error {
	var errs []error
	if sf.keep != nil {
		errs = append(errs, sf.keep.Close())
		sf.keep = nil
	}
	if sf.w != nil {
		errs = append(errs, sf.w.Close())
		sf.w = nil
	}
	return errors.Join(errs...)
}

// fileSafe turns "db1.example:3306" or "[::1]:3308" into a file name part.
func fileSafe(server string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '-', r == '_':
			return r
		}
		return '_'
	}, server)
}
