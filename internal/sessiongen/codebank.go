package sessiongen

// Identifier and phrase banks for the code content mode's source files.
// Identifiers are composed from these (verb + noun + qualifier, in each
// language's case), so that files differ in their names and literals the
// way a real project's do, and a lexer meets the variety it meets there.

var idNouns = []string{
	"invoice", "customer", "payment", "refund", "account", "ledger", "entry", "tax", "rate", "discount",
	"currency", "subscription", "plan", "webhook", "event", "token", "session", "user", "report", "batch",
	"job", "queue", "retry", "limit", "cursor", "page", "filter", "query", "schema", "migration", "tenant",
	"address", "note", "attachment", "audit", "receipt", "balance", "charge", "coupon", "credit", "period",
	"line", "item", "price", "quote", "order", "region", "vendor", "export", "snapshot", "lock", "lease",
	"worker", "signature", "secret", "request", "response", "header", "timeout", "budget",
}

var idVerbs = []string{
	"get", "list", "create", "update", "delete", "find", "load", "save", "apply", "compute", "validate",
	"parse", "format", "render", "fetch", "sync", "refresh", "resolve", "build", "encode", "decode", "merge",
	"split", "normalize", "reconcile", "schedule", "notify", "emit", "handle", "process", "check", "collect",
	"round", "convert", "lookup", "prune", "flush", "mark", "restore", "verify",
}

var idQualifiers = []string{
	"pending", "active", "overdue", "draft", "paid", "failed", "archived", "default", "max", "min", "total",
	"last", "next", "raw", "cached", "stale", "local", "remote", "current", "previous", "base", "net",
	"gross", "daily", "monthly", "first", "batch", "partial", "expired", "legacy",
}

var goStdImports = []string{
	"bytes", "context", "database/sql", "encoding/json", "errors", "fmt", "io", "log/slog", "math",
	"net/http", "net/url", "os", "slices", "sort", "strconv", "strings", "sync", "sync/atomic", "time",
	"unicode/utf8", "crypto/hmac", "crypto/sha256", "encoding/hex", "maps", "bufio", "path/filepath",
}

var goTypes = []string{
	"string", "int", "int64", "bool", "time.Time", "time.Duration", "[]byte", "float64", "map[string]string",
	"[]string", "uint32", "*big.Rat", "json.RawMessage", "[]int64", "error",
}

var tsTypes = []string{
	"string", "number", "boolean", "Date", "string[]", "Record<string, number>", "number | null",
	"string | undefined", "Money", "Cursor", "readonly string[]", "Map<string, Invoice>", "unknown",
}

var pyTypes = []string{
	"str", "int", "float", "bool", "list[str]", "dict[str, Any]", "Optional[int]", "datetime", "Decimal",
	"tuple[int, int]", "set[str]", "Path", "bytes",
}

var tsModules = []string{
	"react", "react-router-dom", "@tanstack/react-query", "zod", "clsx", "date-fns", "vitest",
	"@testing-library/react", "../api/client", "../api/types", "../lib/format", "../lib/money",
	"../lib/dates", "../hooks/useDebounce", "./StatusBadge", "../store/session",
}

var pyImports = []string{
	"import argparse", "import csv", "import json", "import logging", "import os", "import sys",
	"import time", "from collections import defaultdict", "from dataclasses import dataclass, field",
	"from datetime import date, datetime, timedelta", "from decimal import Decimal, ROUND_HALF_EVEN",
	"from pathlib import Path", "from typing import Any, Iterable, Optional", "import psycopg",
	"import httpx", "import pytest",
}

// Sentence parts for comments and documentation.
var docVerbs = []string{
	"returns", "computes", "loads", "validates", "records", "rounds", "formats", "applies", "looks up",
	"caches", "writes", "collects", "checks", "retries", "renders", "removes", "reports",
}

var docTails = []string{
	"It is safe for concurrent use.",
	"The caller must hold mu.",
	"A zero value means no limit.",
	"Amounts are in minor units (cents).",
	"It never returns a nil slice.",
	"Errors from the store are wrapped, not replaced.",
	"See docs/architecture.md for why this is not done in SQL.",
	"The result is sorted by creation time, oldest first.",
	"TODO: make this configurable.",
	"Callers rely on the order; do not sort here.",
	"The context bounds the whole operation, retries included.",
	"This mirrors the behaviour of the v1 API, which clients still depend on.",
	"FIXME: this allocates on every call.",
	"Keep in sync with web/src/api/types.ts.",
}

var errPhrases = []string{
	"not found", "already exists", "is archived", "has no active plan", "exceeds the limit",
	"is not in a valid state", "has expired", "was cancelled", "is locked by another worker",
	"does not match the signature", "must be positive", "has an unknown currency",
}

var logWords = []string{
	"starting", "done", "retrying", "skipping", "flushed", "queued", "applied", "rolled back",
	"cache miss", "slow query", "rate limited", "reconciled",
}

var cssClasses = []string{
	"table", "row", "cell", "muted", "badge", "badge-warn", "badge-ok", "toolbar", "btn", "btn-primary",
	"card", "card-header", "grid", "stack", "empty-state", "spinner", "error", "form-field", "label",
}

var htmlTags = []string{"div", "section", "span", "p", "ul", "li", "header", "footer", "td", "label"}
