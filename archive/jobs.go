package archive

import (
	"context"
	"sync"
)

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

// each calls f(0..n-1) on `jobs` goroutines, taking items in order. Once
// ctx is done no item is started: the caller checks ctx to tell a
// finished loop from a stopped one.
func each(ctx context.Context, n, jobs int, f func(i int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(jobs, max(n, 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				f(i)
			}
		}()
	}
feed:
	for i := range n {
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
}
