package archive

import "sync"

// progress returns a function to call as each of total items is done.
func (o *Options) progress(phase string, total int) func(path string) {
	if o.Progress == nil {
		return func(string) {}
	}
	var mu sync.Mutex
	done := 0
	o.Progress(Progress{Phase: phase, Total: total})
	return func(p string) {
		mu.Lock()
		defer mu.Unlock()
		done++
		o.Progress(Progress{Phase: phase, Done: done, Total: total, Path: p})
	}
}
