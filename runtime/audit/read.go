package audit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"

	"github.com/markii/markii/runtime/internal/safefile"
)

// maxLine is the longest line read; a longer one is damaged.
const maxLine = 1 << 20

// maxTrailBytes bounds one file read by Read and Verify.
const maxTrailBytes = 1 << 30

// Damage is a line of the trail that could not be used.
type Damage struct {
	File string
	Line int
	Why  string
}

func (d Damage) String() string {
	if d.Line == 0 {
		return fmt.Sprintf("%s: %s", filepath.Base(d.File), d.Why)
	}
	return fmt.Sprintf("%s line %d: %s", filepath.Base(d.File), d.Line, d.Why)
}

// Read returns every record of the trail, oldest first, for which keep
// returns true (nil keeps all), and the lines that could not be read:
// a damaged line is skipped and reported, never fatal.
func (l *Log) Read(keep func(Record) bool) ([]Record, []Damage, error) {
	var out []Record
	var damaged []Damage
	err := l.eachLine(func(file string, n int, line []byte, tooLong bool) {
		r, why := decode(line, tooLong)
		if why != "" {
			damaged = append(damaged, Damage{File: file, Line: n, Why: why})
			return
		}
		if keep == nil || keep(r) {
			out = append(out, r)
		}
	})
	return out, damaged, err
}

// Verify checks that the trail is whole: every line is a record and
// carries the hash of the line before it, and the last line and the
// current file's size match the chain head (HeadName), so an edited or
// removed last line is found too. It returns the problems found and how
// many lines were checked. The first line of the oldest file kept is
// taken as it is (the files before it were rotated away). Records
// appended while Verify reads are left for the next check.
func (l *Log) Verify() ([]Damage, int, error) {
	snap := l.snapshotHead()
	var damaged []Damage
	prev, first, lines := "", true, 0
	lastN, last := 0, ""
	err := l.eachLineUpTo(snap.size, func(file string, n int, line []byte, tooLong bool) {
		lines++
		r, why := decode(line, tooLong)
		switch {
		case why != "":
			damaged = append(damaged, Damage{File: file, Line: n, Why: why})
		case !first && r.Prev != prev:
			damaged = append(damaged, Damage{File: file, Line: n,
				Why: "the line before it was changed, or lines before it were removed or added (its prev hash does not match)"})
		}
		first = false
		prev = lineHash(line)
		if file == l.Path() {
			lastN, last = n, prev
		}
	})
	if err != nil {
		return damaged, lines, err
	}
	if d := snap.check(l, lastN, last); d != nil {
		damaged = append(damaged, *d)
	}
	return damaged, lines, nil
}

func decode(line []byte, tooLong bool) (Record, string) {
	var r Record
	switch {
	case tooLong:
		return r, fmt.Sprintf("it is over %d KiB", maxLine>>10)
	case json.Unmarshal(line, &r) != nil:
		return r, "it is not a record (a torn or edited line)"
	case r.V != Version || r.Run == "" || r.Event == "":
		return r, "it is not a markii audit record"
	}
	return r, ""
}

// eachLine calls fn with each line of each file, oldest first.
func (l *Log) eachLine(fn func(file string, n int, line []byte, tooLong bool)) error {
	return l.eachLineUpTo(-1, fn)
}

// eachLineUpTo is eachLine reading at most current bytes of the current
// file (all of it when current is negative).
func (l *Log) eachLineUpTo(current int64, fn func(file string, n int, line []byte, tooLong bool)) error {
	for _, file := range l.Files() {
		limit := int64(maxTrailBytes)
		if file == l.Path() && current >= 0 {
			limit = min(limit, current)
		}
		if err := eachFileLine(file, limit, fn); err != nil {
			return err
		}
	}
	return nil
}

func eachFileLine(file string, limit int64, fn func(file string, n int, line []byte, tooLong bool)) error {
	f, err := safefile.Open(file, safefile.Options{NoFollow: true})
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	r := bufio.NewReaderSize(io.LimitReader(f, limit), 64<<10)
	n := 0
	for {
		line, tooLong, err := readLine(r)
		if len(line) > 0 || tooLong {
			n++
			fn(file, n, line, tooLong)
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return fmt.Errorf("cannot read the audit trail %s: %w", file, err)
		}
	}
}

// readLine reads one line without its line feed; a line over maxLine is
// skipped to its end and reported as tooLong.
func readLine(r *bufio.Reader) ([]byte, bool, error) {
	var buf []byte
	for {
		chunk, err := r.ReadSlice('\n')
		if len(buf)+len(chunk) > maxLine {
			buf = buf[:0]
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = r.ReadSlice('\n')
			}
			return nil, true, err
		}
		buf = append(buf, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimSuffix(buf, []byte{'\n'}), false, err
	}
}
