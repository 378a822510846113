// Command pty times a full-screen pager the way its reader feels it: it
// starts the command in a 120×40 pseudo-terminal, reports how long the
// first screen takes to show a marker text, then sends keys one at a time
// and reports, for each, the time from writing the key to the last byte
// of the screen update it caused. It prints first-frame, key p50, p99 and
// max, and the process's peak resident memory (VmHWM).
//
//	pty -marker 'Section 1' -keys 400 -- markii view note.mk.md
//	pty -marker 'Section 1' -keys 400 -- less -R note.mk.md
//
// The harness answers the queries a terminal emulator answers (background
// color, cursor position, device attributes), so a program that asks is
// timed as on a real terminal.
//
// Keys cycle through j, space, b, k, G and g, so updates are measured
// at the top, in the middle and at the end of the note.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/creack/pty"
)

// escapes matches the CSI, OSC and two-byte escape sequences a terminal
// program writes, so the marker is found in the visible text.
var escapes = regexp.MustCompile(`\x1b(\[[0-9;?<>=!]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-Za-z]|[=>78MDEc])`)

// trace, when set, prints every read with its time since the start.
var (
	trace bool
	begin time.Time
)

// stream collects what the command writes and when it last wrote.
type stream struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	last time.Time
	n    int
}

func (s *stream) read(f *os.File) {
	b := make([]byte, 64<<10)
	for {
		n, err := f.Read(b)
		if n > 0 {
			answer(f, b[:n])
			if trace {
				fmt.Fprintf(os.Stderr, "%8.1fms %q\n", float64(time.Since(begin).Microseconds())/1000, b[:min(n, 80)])
			}
			s.mu.Lock()
			if s.buf.Len() < 1<<20 {
				s.buf.Write(b[:n])
			}
			s.last = time.Now()
			s.n += n
			s.mu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

// answer replies to the queries a terminal emulator answers at once: the
// background color (OSC 11), the cursor position (DSR 6) and the device
// attributes (DA1). A program that asks waits for the reply, so without
// these the harness would time its query budget, not its work.
func answer(f *os.File, b []byte) {
	if bytes.Contains(b, []byte("\x1b]11;?")) {
		_, _ = f.WriteString("\x1b]11;rgb:0000/0000/0000\x1b\\")
	}
	if bytes.Contains(b, []byte("\x1b[6n")) {
		_, _ = f.WriteString("\x1b[1;1R")
	}
	if bytes.Contains(b, []byte("\x1b[c")) || bytes.Contains(b, []byte("\x1b[0c")) {
		_, _ = f.WriteString("\x1b[?62;22c")
	}
}

// snapshot returns the bytes written so far, the time of the last write
// and the count of bytes written.
func (s *stream) snapshot() (string, time.Time, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String(), s.last, s.n
}

// settle waits until the command has written nothing for quiet, or until
// limit has passed, and returns the time of its last write.
func (s *stream) settle(quiet, limit time.Duration) time.Time {
	deadline := time.Now().Add(limit)
	for {
		_, last, _ := s.snapshot()
		if time.Since(last) >= quiet || time.Now().After(deadline) {
			return last
		}
		time.Sleep(time.Millisecond)
	}
}

func main() {
	marker := flag.String("marker", "", "text the first screen shows")
	keys := flag.Int("keys", 300, "keys to send after the first screen")
	gap := flag.Duration("gap", 40*time.Millisecond, "quiet time that ends one key's update")
	warm := flag.Duration("warm", 3*time.Second, "time to let the command finish loading before keys")
	flag.BoolVar(&trace, "trace", false, "print every read from the terminal with its time")
	flag.Parse()
	argv := flag.Args()
	if len(argv) == 0 || *marker == "" {
		fmt.Fprintln(os.Stderr, "usage: pty -marker TEXT [-keys N] -- COMMAND [ARG...]")
		os.Exit(2)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "LESS=")
	start := time.Now()
	begin = start
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 120})
	if err != nil {
		fmt.Fprintln(os.Stderr, "pty:", err)
		os.Exit(1)
	}
	s := &stream{}
	go s.read(f)

	// First frame: the marker is on screen.
	var first time.Duration
	for {
		out, last, _ := s.snapshot()
		if strings.Contains(escapes.ReplaceAllString(out, ""), *marker) {
			first = last.Sub(start)
			break
		}
		if time.Since(start) > time.Minute {
			fmt.Fprintf(os.Stderr, "pty: %q never showed %q\n", argv[0], *marker)
			_ = cmd.Process.Kill()
			os.Exit(1)
		}
		time.Sleep(200 * time.Microsecond)
	}
	time.Sleep(*warm)
	s.settle(*gap, time.Minute)

	cycle := []string{"j", "j", "j", " ", " ", "b", "k", "G", "k", "k", "g", " "}
	var lat []time.Duration
	for i := range *keys {
		_, _, before := s.snapshot()
		sent := time.Now()
		if _, err := f.WriteString(cycle[i%len(cycle)]); err != nil {
			fmt.Fprintln(os.Stderr, "pty:", err)
			os.Exit(1)
		}
		// Wait for the update to start, then for it to end.
		for {
			_, _, n := s.snapshot()
			if n > before || time.Since(sent) > 2*time.Second {
				break
			}
			time.Sleep(100 * time.Microsecond)
		}
		last := s.settle(*gap, 5*time.Second)
		if _, _, n := s.snapshot(); n > before {
			lat = append(lat, last.Sub(sent))
		}
	}
	hwm := peak(cmd.Process.Pid)
	_, _ = f.WriteString("q")
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		_ = cmd.Process.Kill()
	}
	slices.Sort(lat)
	pct := func(p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(p*float64(len(lat))))]
	}
	fmt.Printf("%s: first frame %v, keys %d/%d answered, p50 %v, p99 %v, max %v, VmHWM %.1f MB\n",
		argv[0], first.Round(100*time.Microsecond), len(lat), *keys,
		pct(0.5).Round(100*time.Microsecond), pct(0.99).Round(100*time.Microsecond),
		pct(1).Round(100*time.Microsecond), float64(hwm)/(1<<20))
}

// peak returns the process's peak resident memory in bytes, or 0.
func peak(pid int) int {
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(status), "\n") {
		if f := strings.Fields(l); len(f) == 3 && f[0] == "VmHWM:" {
			kb, _ := strconv.Atoi(f[1])
			return kb << 10
		}
	}
	return 0
}
