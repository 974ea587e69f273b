package browsertest

import (
	"slices"
	"testing"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
)

// The Watch keeps what a page must not do, in words a failing test can
// print, and ignores the rest.
func TestWatch(t *testing.T) {
	events := []struct {
		ev                       any
		problem, dialog, request string // what it adds, if anything
	}{
		{ev: &runtime.EventConsoleAPICalled{Type: runtime.ConsoleAPICalledTypeError,
			Args: []*runtime.RemoteObject{{Value: []byte(`"boom"`)}, {Description: "Error: x"}}},
			problem: `console.error: "boom" Error: x`},
		{ev: &runtime.EventConsoleAPICalled{Type: runtime.ConsoleAPICalledTypeAssert},
			problem: "console.assert: "},
		{ev: &runtime.EventConsoleAPICalled{Type: runtime.ConsoleAPICalledTypeLog,
			Args: []*runtime.RemoteObject{{Value: []byte(`"fine"`)}}}},
		{ev: &runtime.EventExceptionThrown{ExceptionDetails: &runtime.ExceptionDetails{
			Text: "Uncaught", URL: "file:///p.html", LineNumber: 6, Exception: &runtime.RemoteObject{Description: "TypeError: y"}}},
			problem: "uncaught exception at file:///p.html:7: Uncaught TypeError: y"},
		{ev: &log.EventEntryAdded{Entry: &log.Entry{Level: log.EntryLevelError, Source: log.EntrySourceSecurity, URL: "u", Text: "CSP"}},
			problem: "log error (security) u: CSP"},
		{ev: &log.EventEntryAdded{Entry: &log.Entry{Level: log.EntryLevelWarning, Text: "meh"}}},
		{ev: &network.EventRequestWillBeSent{Request: &network.Request{URL: "http://example.com/"}},
			request: "http://example.com/"},
		{ev: &page.EventJavascriptDialogOpening{Type: page.DialogTypeAlert, Message: "hi"},
			dialog: "alert: hi"},
	}
	w := &Watch{}
	var problems, dialogs, requests []string
	for _, e := range events {
		w.listen(e.ev)
		if e.problem != "" {
			problems = append(problems, e.problem)
		}
		if e.dialog != "" {
			dialogs = append(dialogs, e.dialog)
		}
		if e.request != "" {
			requests = append(requests, e.request)
		}
	}
	if got := w.Problems(); !slices.Equal(got, problems) {
		t.Errorf("Problems() = %q, want %q", got, problems)
	}
	if got := w.Requests(); !slices.Equal(got, requests) {
		t.Errorf("Requests() = %q, want %q", got, requests)
	}
	// takeNew returns each problem and dialog once.
	if p, d := w.takeNew(); !slices.Equal(p, problems) || !slices.Equal(d, dialogs) {
		t.Errorf("takeNew() = %q, %q; want %q, %q", p, d, problems, dialogs)
	}
	w.listen(events[0].ev)
	if p, d := w.takeNew(); !slices.Equal(p, []string{events[0].problem}) || len(d) != 0 {
		t.Errorf("takeNew() again = %q, %q; want only the new problem", p, d)
	}
}
