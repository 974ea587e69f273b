// Package jobs runs a loop's items on a few goroutines: the one worker
// pool of canopy's commands (the archive's pages, the search index's
// files, canopy usage's sessions).
package jobs

import (
	"context"
	"sync"
)

// Each calls f(0..n-1) on jobs goroutines (at least one), taking items in
// order. Once ctx is done no item is started: the caller checks ctx to
// tell a finished loop from a stopped one.
func Each(ctx context.Context, n, jobs int, f func(i int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(max(jobs, 1), max(n, 1)) {
		wg.Go(func() {
			for i := range next {
				f(i)
			}
		})
	}
feed:
	for i := range n {
		if ctx.Err() != nil {
			break
		}
		select {
		case next <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
}
