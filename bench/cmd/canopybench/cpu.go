package main

import (
	"os"
	"path/filepath"
	goruntime "runtime"
	"strconv"
	"strings"
	"time"
)

// The machine is shared: other processes may compete for the CPUs while we
// measure. A cpuMark is the CPU time used so far by the whole machine and
// by this process's tree (this process, its children, the browser and
// everything below them, reaped or not); between two marks, what the
// machine used beyond our tree is someone else's.
type cpuMark struct {
	at      time.Time
	machine float64 // seconds of busy CPU, all CPUs
	own     float64 // seconds of CPU of our process tree
}

const clockTicks = 100 // USER_HZ on Linux

func markCPU() cpuMark {
	return cpuMark{at: time.Now(), machine: machineBusy(), own: treeCPU(os.Getpid())}
}

// otherShare is the share (0..1) of the machine's CPU capacity used by
// processes outside our tree between a and b; -1 when unknown.
func otherShare(a, b cpuMark) float64 {
	wall := b.at.Sub(a.at).Seconds()
	if wall <= 0 || a.machine < 0 || b.machine < 0 {
		return -1
	}
	other := (b.machine - a.machine) - (b.own - a.own)
	return max(0, min(1, other/(wall*float64(goruntime.NumCPU()))))
}

// machineBusy is the machine's busy CPU time from /proc/stat, with the
// steal time: on a virtual machine, the time the host gave our CPUs to
// someone else is as lost to the measurement as a local competitor.
func machineBusy() float64 {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return -1
	}
	line, _, _ := strings.Cut(string(b), "\n")
	f := strings.Fields(line)
	if len(f) < 8 || f[0] != "cpu" {
		return -1
	}
	var busy float64
	for i, s := range f[1:] {
		if i == 3 || i == 4 { // idle, iowait
			continue
		}
		if i >= 8 { // guest time is already in user time
			break
		}
		v, _ := strconv.ParseFloat(s, 64)
		busy += v
	}
	return busy / clockTicks
}

// treeCPU sums user and system time, with that of reaped children, over
// root and its live descendants.
func treeCPU(root int) float64 {
	type proc struct {
		ppid int
		cpu  float64
	}
	procs := map[int]proc{}
	dirs, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, d := range dirs {
		b, err := os.ReadFile(d)
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(s[i+1:]) // f[0] is field 3 (state)
		if len(f) < 15 {
			continue
		}
		pid, _ := strconv.Atoi(strings.TrimSpace(s[:strings.IndexByte(s, ' ')]))
		ppid, _ := strconv.Atoi(f[1])
		var cpu float64
		for _, k := range []int{11, 12, 13, 14} { // utime stime cutime cstime
			v, _ := strconv.ParseFloat(f[k], 64)
			cpu += v
		}
		procs[pid] = proc{ppid, cpu / clockTicks}
	}
	inTree := func(pid int) bool {
		for guard := 0; pid > 1 && guard < 64; guard++ {
			if pid == root {
				return true
			}
			pid = procs[pid].ppid
		}
		return pid == root
	}
	var sum float64
	for pid, p := range procs {
		if inTree(pid) {
			sum += p.cpu
		}
	}
	return sum
}

// waitQuiet waits, at most limit, for two consecutive seconds in which
// other processes use less than a quarter of the machine. It returns their
// share in the last second measured.
func waitQuiet(limit time.Duration) float64 {
	deadline := time.Now().Add(limit)
	quiet := 0
	share := -1.0
	for {
		a := markCPU()
		time.Sleep(time.Second)
		share = otherShare(a, markCPU())
		if share >= 0 && share < 0.25 {
			quiet++
		} else {
			quiet = 0
		}
		if quiet >= 2 || time.Now().After(deadline) || share < 0 {
			return share
		}
	}
}
