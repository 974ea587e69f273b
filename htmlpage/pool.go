package htmlpage

import (
	"runtime"
	"sync"
)

// parallel runs f(0..n-1) on every core.
func parallel(n int, f func(i int)) {
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	var mu sync.Mutex
	next := 0
	// Indexes are taken a few at a time (fewer locks), but never so many
	// that one core gets a small batch (big entries) all to itself.
	batch := min(64, max(1, n/(4*workers)))
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				lo := next
				next += batch
				mu.Unlock()
				if lo >= n {
					return
				}
				for i := lo; i < min(lo+batch, n); i++ {
					f(i)
				}
			}
		}()
	}
	wg.Wait()
}
