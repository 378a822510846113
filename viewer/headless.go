package viewer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
)

// MaxScriptKeys bounds a key script.
const MaxScriptKeys = 1000

// keyNames are the named keys of a key script (any letter case).
var keyNames = map[string]tea.Key{
	"tab": {Code: tea.KeyTab}, "enter": {Code: tea.KeyEnter}, "return": {Code: tea.KeyEnter},
	"esc": {Code: tea.KeyEscape}, "escape": {Code: tea.KeyEscape}, "space": {Code: ' ', Text: " "},
	"up": {Code: tea.KeyUp}, "down": {Code: tea.KeyDown}, "left": {Code: tea.KeyLeft}, "right": {Code: tea.KeyRight},
	"pgup": {Code: tea.KeyPgUp}, "pageup": {Code: tea.KeyPgUp}, "pgdown": {Code: tea.KeyPgDown}, "pagedown": {Code: tea.KeyPgDown},
	"home": {Code: tea.KeyHome}, "end": {Code: tea.KeyEnd}, "backspace": {Code: tea.KeyBackspace},
	"shift+tab": {Code: tea.KeyTab, Mod: tea.ModShift},
}

// ParseKeys reads a key script: keys separated by spaces. A key is a key
// name (Tab, Enter, Esc, Space, Up, Down, Left, Right, PgUp, PgDown, Home,
// End, Backspace, shift+tab; any letter case), ctrl+X or alt+X for a
// letter or digit X, or one character typed as itself ("j", "G", "?"). A
// word that starts with / or ? is typed one character at a time (/word
// opens the search and types "word"), and so is a word in double quotes
// ("two words" types the space too). Anything else is an error naming it.
func ParseKeys(script string) ([]tea.KeyPressMsg, error) {
	var keys []tea.KeyPressMsg
	for _, word := range splitScript(script) {
		ks, err := wordKeys(word)
		if err != nil {
			return nil, err
		}
		keys = append(keys, ks...)
		if len(keys) > MaxScriptKeys {
			return nil, fmt.Errorf("the key script has more than %d keys", MaxScriptKeys)
		}
	}
	return keys, nil
}

// splitScript splits a script at spaces outside double quotes.
func splitScript(s string) []string {
	var words []string
	var cur strings.Builder
	quoted := false
	for _, r := range s {
		switch {
		case r == '"':
			quoted = !quoted
			cur.WriteRune(r)
		case (r == ' ' || r == '\t' || r == '\n') && !quoted:
			if cur.Len() > 0 {
				words = append(words, cur.String())
				cur.Reset()
			}
		default:
			cur.WriteRune(r)
		}
	}
	if cur.Len() > 0 {
		words = append(words, cur.String())
	}
	return words
}

// wordKeys is the keys one word of a script stands for.
func wordKeys(word string) ([]tea.KeyPressMsg, error) {
	if k, ok := keyNames[strings.ToLower(word)]; ok {
		return []tea.KeyPressMsg{tea.KeyPressMsg(k)}, nil
	}
	runes := []rune(word)
	switch {
	case len(runes) == 1:
		return typed(word)
	case len(runes) >= 2 && runes[0] == '"' && runes[len(runes)-1] == '"':
		return typed(string(runes[1 : len(runes)-1]))
	case runes[0] == '/' || runes[0] == '?':
		return typed(word)
	}
	if k, ok := modKey(strings.ToLower(word)); ok {
		return []tea.KeyPressMsg{k}, nil
	}
	return nil, fmt.Errorf("the key script's %q is not a key: write a key name (Tab, Enter, Esc, Down, …), ctrl+X, one character, /text or \"text\"", word)
}

// modKey reads ctrl+X or alt+X for a letter or digit X.
func modKey(word string) (tea.KeyPressMsg, bool) {
	for prefix, mod := range map[string]tea.KeyMod{"ctrl+": tea.ModCtrl, "alt+": tea.ModAlt} {
		rest, ok := strings.CutPrefix(word, prefix)
		if ok && len(rest) == 1 && (rest[0] >= 'a' && rest[0] <= 'z' || rest[0] >= '0' && rest[0] <= '9') {
			return tea.KeyPressMsg{Code: rune(rest[0]), Mod: mod}, true
		}
	}
	return tea.KeyPressMsg{}, false
}

// typed is the keys that type text.
func typed(text string) ([]tea.KeyPressMsg, error) {
	var keys []tea.KeyPressMsg
	for _, r := range text {
		k := runeKey(r)
		if k.Code == 0 {
			return nil, fmt.Errorf("the key script types a control character (%U)", r)
		}
		keys = append(keys, k)
	}
	return keys, nil
}

// settleTimeout bounds how long Screen waits for the viewer to finish
// what one key started (a whole note's layout in the background, a
// search).
const settleTimeout = 30 * time.Second

// Screen runs the viewer as its bubbletea program, headless: at width ×
// height cells, with no terminal (its output is discarded), it opens the
// note, waits until everything the viewer started in the background is
// done, presses each key and waits again, and returns the final screen:
// the frame the viewer draws, with markii's own SGR at opt.Level. Nothing
// it reads depends on time or on the environment, so the screen is
// byte-stable. Scripts never run (opt.Runner is ignored) and nothing is
// watched or edited.
func Screen(ctx context.Context, opt Options, width, height int, keys []tea.KeyPressMsg) ([]byte, error) {
	if width < 1 || height < 2 {
		return nil, fmt.Errorf("a viewer screen must be at least 1×2 cells, not %d×%d", width, height)
	}
	opt.Runner, opt.Watch, opt.RunOnOpen, opt.RefreshInterval, opt.Editor, opt.OpenBrowser = nil, false, false, 0, nil, nil
	opt.Width = width
	h := &headless{m: New(opt), pending: new(atomic.Int64)}
	p := tea.NewProgram(h, tea.WithContext(ctx), tea.WithInput(nil), tea.WithOutput(io.Discard),
		tea.WithWindowSize(width, height), tea.WithoutSignalHandler(), tea.WithEnvironment([]string{"TERM=xterm-256color"}))
	done := make(chan error, 1)
	go func() {
		_, err := p.Run()
		done <- err
	}()
	stop := func() { p.Quit(); <-done }
	if err := h.settle(p, done); err != nil {
		stop()
		return nil, err
	}
	for _, k := range keys {
		p.Send(k)
		if err := h.settle(p, done); err != nil {
			stop()
			return nil, err
		}
	}
	reply := make(chan string, 1)
	p.Send(screenMsg{reply})
	var screen string
	select {
	case screen = <-reply:
	case err := <-done:
		return nil, fmt.Errorf("the viewer ended before its screen was read: %w", errOrQuit(err))
	}
	stop()
	if h.m.failure != nil {
		return nil, h.m.failure
	}
	return []byte(screen), nil
}

// errOrQuit is err, or what says the viewer quit (a key script's q).
func errOrQuit(err error) error {
	if err == nil {
		return errors.New("a key quit it")
	}
	return err
}

// settle waits until the program has handled every message sent so far
// and every command it started has finished and been handled.
func (h *headless) settle(p *tea.Program, done chan error) error {
	deadline := time.Now().Add(settleTimeout)
	for {
		reply := make(chan int64, 1)
		p.Send(probeMsg{reply})
		select {
		case n := <-reply:
			if n == 0 {
				return nil
			}
		case err := <-done:
			done <- err
			return fmt.Errorf("the viewer ended before the key script did: %w", errOrQuit(err))
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the viewer was still busy after %v", settleTimeout)
		}
		time.Sleep(time.Millisecond)
	}
}

// headless is the viewer's model as Screen runs it: it counts the
// commands the model started and not yet finished, so Screen can tell
// when the viewer is at rest.
type headless struct {
	m       *Model
	pending *atomic.Int64
}

// probeMsg asks how many commands are unfinished; screenMsg asks for the
// frame.
type (
	probeMsg  struct{ reply chan int64 }
	screenMsg struct{ reply chan string }
	// doneMsg is a tracked command's message.
	doneMsg struct{ msg tea.Msg }
)

func (h *headless) Init() tea.Cmd { return h.track(h.m.Init()) }

func (h *headless) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case probeMsg:
		msg.reply <- h.pending.Load()
		return h, nil
	case screenMsg:
		msg.reply <- h.m.View().Content
		return h, nil
	case doneMsg:
		defer h.pending.Add(-1)
		switch inner := msg.msg.(type) {
		case nil:
			return h, nil
		case tea.QuitMsg:
			return h, tea.Quit
		case tea.BatchMsg:
			cmds := make([]tea.Cmd, 0, len(inner))
			for _, c := range inner {
				cmds = append(cmds, h.track(c))
			}
			return h, tea.Batch(cmds...)
		}
		return h.Update(msg.msg)
	}
	_, cmd := h.m.Update(msg)
	return h, h.track(cmd)
}

func (h *headless) View() tea.View { return h.m.View() }

// track counts cmd as started; its message comes back as a doneMsg.
func (h *headless) track(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	h.pending.Add(1)
	return func() tea.Msg { return doneMsg{cmd()} }
}
