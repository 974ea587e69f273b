// Package chromium finds a headless Chromium and says how to start it
// here: for the browser tests and for bench/cmd/canopybench alike.
package chromium

import (
	"os"
	"os/exec"

	"github.com/chromedp/chromedp"
)

// Find returns the path of a Chromium (or Chrome) binary, or "".
func Find() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	return ""
}

// Options starts bin headless with a fresh profile in userDataDir. The
// network flags matter: without them Chromium keeps trying to reach hosts
// that a closed network refuses, and its own requests would muddy tests
// that check a page makes none. The window is wider than the page's
// 900px breakpoint, so the sidebar shows rather than a closed drawer.
func Options(bin, userDataDir string) []chromedp.ExecAllocatorOption {
	return append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(userDataDir),
		chromedp.WindowSize(1280, 1000),
	)
}
