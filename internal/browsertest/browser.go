// Package browsertest drives a headless Chromium through chromedp, for the
// browser tests of htmlpage and archive and for bench/cmd/canopybench's page
// measurements: one way to start and stop the browser, open watched tabs,
// and (for tests) act on a page and evaluate JavaScript in it.
//
// Two layers. Browser and Watch need no testing.T: canopybench uses them
// with its own time limits and error handling. Shared and Tab are the test
// harness on top: a browser shared by a test binary's tests, tabs with a
// time limit that fail their test on any error, console error, exception
// or dialog.
package browsertest

import (
	"context"
	"fmt"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"canopy/internal/chromium"
)

// Browser is one running headless Chromium; its tabs are children of its
// context.
type Browser struct {
	ctx         context.Context // the browser; no deadline, so that it outlives any one tab
	cancel      context.CancelFunc
	cancelAlloc context.CancelFunc
	version     string
}

// Start starts bin (see chromium.Options) with its profile in userDataDir,
// which must exist, and waits at most limit for it to answer.
func Start(bin, userDataDir string, limit time.Duration) (*Browser, error) {
	actx, acancel := chromedp.NewExecAllocator(context.Background(), chromium.Options(bin, userDataDir)...)
	bctx, bcancel := chromedp.NewContext(actx)
	b := &Browser{ctx: bctx, cancel: bcancel, cancelAlloc: acancel}
	// The first Do starts the browser and binds it to bctx, which must have
	// no deadline: a watchdog stops a browser that does not come up.
	if err := watchdog(bctx, limit); err != nil {
		// Ending the allocator first kills a process that hangs; a graceful
		// close would wait for it.
		acancel()
		bcancel()
		return nil, fmt.Errorf("starting %s: %w", bin, err)
	}
	if v, err := chromedp.CallBrowser(bctx, cdpbrowser.GetVersion, cdp.Empty{}); err == nil {
		b.version = v.Product
	}
	return b, nil
}

// watchdog runs ctx's first chromedp.Do, which binds the browser or tab
// to ctx, and gives up after limit: a deadline on ctx itself would end the
// browser or tab with it.
func watchdog(ctx context.Context, limit time.Duration) error {
	done := make(chan error, 1)
	go func() { done <- chromedp.Do(ctx) }()
	select {
	case err := <-done:
		return err
	case <-time.After(limit):
		return fmt.Errorf("no answer within %v", limit)
	}
}

// Version is the browser's product name and version, or "" if it did not
// say.
func (b *Browser) Version() string { return b.version }

// Alive reports whether the browser still runs: it may have crashed or
// been killed for lack of memory.
func (b *Browser) Alive() bool { return b.ctx.Err() == nil }

// Stop closes the browser and ends its process.
func (b *Browser) Stop() {
	_ = chromedp.Cancel(b.ctx) // closes the browser; an error means it had gone
	b.cancel()
	b.cancelAlloc()
}

// NewTab opens a tab whose events go to w, waiting at most limit for it.
// The tab's context has no deadline (the first call binds the tab to it):
// give its steps their own. A dialog the page opens is dismissed, since it
// would block the page; w records it.
func (b *Browser) NewTab(w *Watch, limit time.Duration) (context.Context, context.CancelFunc, error) {
	tctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithListener(w.listen))
	w.setOnDialog(func() {
		dctx, dcancel := context.WithTimeout(tctx, 5*time.Second)
		defer dcancel()
		_, _ = chromedp.Call(dctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
	})
	if err := watchdog(tctx, limit); err != nil {
		cancel()
		return nil, nil, fmt.Errorf("opening a tab: %w", err)
	}
	return tctx, cancel, nil
}
