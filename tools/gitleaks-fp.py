#!/usr/bin/env python3
"""Score gitleaks itself the way redaction-eval scores canopy on the false-positive cases.

usage: tools/gitleaks-fp.py GITLEAKS ../shared/redaction/gitleaks-cases.json [CANOPY]

Each rule's fp cases are negatives for that one rule only; redaction-eval counts a case as a false
positive when anything at all is reported in it. This writes every fp case to a file of its own,
runs `gitleaks dir` (default config) over them once, and prints how many gitleaks flags and by
which of its rules. With CANOPY, it also lists the cases `canopy scan --json` flags and whether
gitleaks flags the same ones.
"""
import collections
import json
import os
import subprocess
import sys
import tempfile


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit(__doc__.strip().splitlines()[2])
    gitleaks, cases_path = sys.argv[1], sys.argv[2]
    canopy = sys.argv[3] if len(sys.argv) == 4 else None
    cases = json.load(open(cases_path))
    with tempfile.TemporaryDirectory() as tmp:
        fps = os.path.join(tmp, "fps")
        os.mkdir(fps)
        rule_of = {}
        for c in cases:
            for text in c.get("fp", []):
                name = "%04d.txt" % len(rule_of)
                with open(os.path.join(fps, name), "w") as f:
                    f.write(text + "\n")
                rule_of[name] = (c["rule"], text)
        report = os.path.join(tmp, "report.json")
        subprocess.run([gitleaks, "dir", fps, "--report-format", "json", "--report-path", report,
                        "--no-banner", "--exit-code", "0"], capture_output=True, check=True)
        by_file = collections.defaultdict(set)
        for finding in json.load(open(report)):
            by_file[os.path.basename(finding["File"])].add(finding["RuleID"])
        n = len(rule_of)
        print("gitleaks flags %d of %d fp cases (%.1f%%)" % (len(by_file), n, 100 * len(by_file) / n))
        for name in sorted(by_file):
            rule, text = rule_of[name]
            print("  %-34s by %-28s %s" % (rule, ",".join(sorted(by_file[name])), text[:70]))
        if canopy:
            flagged = 0
            for name in sorted(rule_of):
                session = os.path.join(tmp, "s.jsonl")
                with open(session, "w") as f:
                    f.write(json.dumps({"type": "session", "version": 3, "id": "fp", "timestamp": "2026-01-01T00:00:00.000Z", "cwd": "/"}) + "\n")
                    f.write(json.dumps({"type": "message", "id": "u1", "parentId": None, "timestamp": "2026-01-01T00:00:01.000Z",
                                        "message": {"role": "user", "content": rule_of[name][1], "timestamp": 0}}) + "\n")
                out = subprocess.run([canopy, "scan", "--json", session], capture_output=True, text=True)
                if json.loads(out.stdout or "{}").get("findings"):
                    flagged += 1
                    print("  canopy flags %-34s gitleaks %s" % (rule_of[name][0], "too" if name in by_file else "NOT"))
            print("canopy flags %d of %d fp cases (%.1f%%)" % (flagged, n, 100 * flagged / n))


if __name__ == "__main__":
    main()
