package browsertest

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
)

// Watch records, from a tab's first event, what must not happen on our
// pages: console errors and failed asserts (CSP violations among them),
// uncaught exceptions, the browser's log errors, dialogs; and every network
// request, so that a test can check a page makes none. Browser.NewTab
// gives it the tab's events: one Watch per tab. The zero Watch is ready
// to use.
type Watch struct {
	mu       sync.Mutex
	problems []string
	requests []string
	dialogs  []string
	onDialog func() // dismisses a dialog: set by Browser.NewTab
	// how many problems and dialogs takeNew has returned
	takenProblems, takenDialogs int
}

func (w *Watch) setOnDialog(f func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.onDialog = f
}

func (w *Watch) listen(ev any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch ev := ev.(type) {
	case *runtime.EventConsoleAPICalled:
		if ev.Type == runtime.ConsoleAPICalledTypeError || ev.Type == runtime.ConsoleAPICalledTypeAssert {
			w.problems = append(w.problems, "console."+string(ev.Type)+": "+consoleText(ev.Args))
		}
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		text := d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			text += " " + d.Exception.Description
		}
		w.problems = append(w.problems, fmt.Sprintf("uncaught exception at %s:%d: %s", d.URL, d.LineNumber+1, text))
	case *log.EventEntryAdded:
		if e := ev.Entry; e != nil && e.Level == log.EntryLevelError {
			w.problems = append(w.problems, fmt.Sprintf("log error (%s) %s: %s", e.Source, e.URL, e.Text))
		}
	case *network.EventRequestWillBeSent:
		if ev.Request != nil {
			w.requests = append(w.requests, ev.Request.URL)
		}
	case *page.EventJavascriptDialogOpening:
		w.dialogs = append(w.dialogs, string(ev.Type)+": "+ev.Message)
		if w.onDialog != nil {
			go w.onDialog() // a dialog blocks the page: dismiss it, outside the event loop
		}
	}
}

// consoleText is a console call's arguments as the console shows them:
// a primitive by its value, an object by its description.
func consoleText(args []*runtime.RemoteObject) string {
	parts := make([]string, 0, len(args))
	for _, a := range args {
		if len(a.Value) > 0 {
			parts = append(parts, string(a.Value))
		} else {
			parts = append(parts, a.Description)
		}
	}
	return strings.Join(parts, " ")
}

// Problems are the console errors, exceptions and log errors seen so far.
func (w *Watch) Problems() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.problems)
}

// Requests are the URLs of the network requests seen so far.
func (w *Watch) Requests() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.requests)
}

// takeNew returns the problems and dialogs seen since its last call, so
// that each is reported once.
func (w *Watch) takeNew() (problems, dialogs []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	problems = slices.Clone(w.problems[w.takenProblems:])
	dialogs = slices.Clone(w.dialogs[w.takenDialogs:])
	w.takenProblems, w.takenDialogs = len(w.problems), len(w.dialogs)
	return problems, dialogs
}
