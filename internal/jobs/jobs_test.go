package jobs

import (
	"context"
	"sync/atomic"
	"testing"
)

func TestEach(t *testing.T) {
	for _, c := range []struct{ n, jobs int }{{0, 4}, {1, 0}, {7, 1}, {100, 3}, {5, 50}} {
		seen := make([]int32, c.n)
		Each(context.Background(), c.n, c.jobs, func(i int) { atomic.AddInt32(&seen[i], 1) })
		for i, k := range seen {
			if k != 1 {
				t.Errorf("n %d, jobs %d: item %d done %d times", c.n, c.jobs, i, k)
			}
		}
	}
}

// Once the context is done, no item is started: past the one that
// cancelled it, only those the workers had taken and the one being
// handed over.
func TestEachStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var done atomic.Int32
	Each(ctx, 1000, 2, func(i int) {
		if done.Add(1) == 10 {
			cancel()
		}
	})
	if n := done.Load(); n < 10 || n > 10+2+1 {
		t.Errorf("%d items done after the context was cancelled at the 10th", n)
	}
}
