// Tests of the pipeline on ordinary text: a session of it, and a generated
// one, left alone byte for byte. The corpus planted in a session is in
// session_test.go, the scanner's cases in scan_test.go.

package redact

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"canopy/internal/sessiongen"
)

func newRedactor(t testing.TB) *Redactor {
	t.Helper()
	r, err := New()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// --- negatives: ordinary text stays byte for byte ---------------------------------

const goFile = `package auth

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
)

// ErrNoToken is returned when no API token is configured.
var ErrNoToken = errors.New("auth: no token configured")

// Config holds the credentials the client needs.
type Config struct {
	Password  string ` + "`json:\"password\"`" + `
	APIKey    string ` + "`json:\"api_key\"`" + `
	TokenPath string ` + "`json:\"token_path\"`" + `
	secretKey []byte
}

// Token reads the API token from the environment.
func Token() (string, error) {
	token := os.Getenv("API_TOKEN")
	if token == "" {
		return "", ErrNoToken
	}
	return token, nil
}

// NewSessionKey returns a random 32-byte key, hex encoded.
func NewSessionKey() (string, error) {
	key := make([]byte, 32)
	if _, err := rand.Read(key); err != nil {
		return "", fmt.Errorf("session key: %w", err)
	}
	return hex.EncodeToString(key), nil
}

func (c *Config) Validate() error {
	if c.Password == "" {
		return errors.New("password is required")
	}
	cacheKey := fmt.Sprintf("user:%d:profile", 42)
	secret := c.secretKey
	_ = secret
	passwordHash := hashPassword(c.Password)
	apiKey := c.APIKey
	tokenStore := newTokenStore(c.TokenPath)
	_, _, _, _ = cacheKey, passwordHash, apiKey, tokenStore
	return nil
}
`

func negativeLines(t *testing.T) [][]byte {
	rng := rand.New(rand.NewPCG(3, 4))
	hexN := func(n int) string {
		b := make([]byte, n/2)
		for i := range b {
			b[i] = byte(rng.IntN(256))
		}
		return fmt.Sprintf("%x", b)
	}
	uuid := func() string {
		h := hexN(32)
		return h[:8] + "-" + h[8:12] + "-4" + h[13:16] + "-a" + h[17:20] + "-" + h[20:]
	}
	png := make([]byte, 1536*1024) // 2 MB of base64
	copy(png, "\x89PNG\r\n\x1a\n")
	for i := 8; i < len(png); i++ {
		png[i] = byte(rng.IntN(256))
	}
	var b sessionBuilder
	b.header("/home/dev/src/ledgerline")
	b.entry("message", userMsg("git log --oneline:\ncommit "+hexN(40)+"\nMerge: "+hexN(7)+" "+hexN(7)+"\n"+hexN(40)+" fix totals"))
	b.entry("message", userMsg(fmt.Sprintf("request ids %s, %s and %s failed; key %s", uuid(), uuid(), uuid(), uuid())))
	b.entry("message", userMsg([]map[string]any{{"type": "image", "data": base64.StdEncoding.EncodeToString(png), "mimeType": "image/png"},
		{"type": "text", "text": "what is in this screenshot?"}}))
	b.entry("message", toolResult("bash", fmt.Sprintf("$ sha256sum dist/*\n%s  dist/ledger-linux-amd64.tar.gz\n%s  dist/ledger-darwin-arm64.tar.gz\nchecksum: sha256:%s\nintegrity sha512-%s",
		hexN(64), hexN(64), hexN(64), base64.StdEncoding.EncodeToString([]byte(hexN(64)))), nil))
	b.entry("custom", map[string]any{"customType": "cache", "data": map[string]any{"key": hexN(64), "etag": hexN(32), "cacheKey": uuid(), "id": uuid()}})
	b.entry("message", assistantMsg(map[string]any{"type": "toolCall", "id": "toolu_09", "name": "write",
		"arguments": map[string]any{"path": "/home/dev/src/ledgerline/internal/auth/token.go", "content": goFile}}))
	b.entry("message", toolResult("read", goFile, nil))
	b.entry("message", userMsg("see https://github.com/acme/ledgerline/pull/412?tab=files#diff-3f2a, "+
		"git@github.com:acme/ledgerline.git, https://deploy@git.example.com/acme/app.git, "+
		"http://localhost:8080/api/v1/invoices?page=2&per_page=50 and postgres://localhost:5432/ledger"))
	b.entry("message", userMsg("Never paste your password or token into the chat. The API key rotates monthly; "+
		"password: see the vault. Token: ask ops. Use a secret manager."))
	b.entry("message", assistantMsg(map[string]any{"type": "text", "text": "Set `DATABASE_URL` and `API_TOKEN` in `.env`, then run `make dev`.\n" +
		"The token is read by `auth.Token()`; for keys see docs/keys.md. Use `password = os.environ[\"DB_PASSWORD\"]`.\n" +
		"tokens: 48211 input, 1200 output; totalTokens=49411"}))
	b.entry("message", toolResult("bash", "PWD=/home/dev/src/ledgerline\nOLDPWD=/home/dev\nKEY_FILE=/etc/ssl/private/server.key\nTOKEN_TTL=3600\n"+
		"SECRET_NAME=ledger/prod/db\nGITHUB_TOKEN=${{ secrets.GITHUB_TOKEN }}\npassword=$DB_PASSWORD", nil))
	b.entry("session_info", map[string]any{"name": "fix invoice totals"})
	return b.lines
}

func TestNegatives(t *testing.T) {
	r := newRedactor(t)
	lines := negativeLines(t)
	in := append(bytes.Join(lines, []byte("\n")), '\n')
	orig := slices.Clone(in)
	out, rep := r.Redact(in)
	if !bytes.Equal(in, orig) {
		t.Fatal("input modified")
	}
	if len(rep.Findings) != 0 {
		t.Errorf("findings in ordinary text: %+v", rep.Findings)
	}
	outLines := bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n"))
	for i, l := range lines {
		if !bytes.Equal(l, outLines[i]) {
			t.Errorf("line %d changed:\n%.300s\n%.300s", i+1, l, outLines[i])
		}
	}
}

// TestGeneratedSession: the synthetic sessions of the benchmarks (code,
// shell output, images) hold one credential, a docker-compose database URL
// (postgres://postgres:postgres@db); nothing else is touched.
func TestGeneratedSession(t *testing.T) {
	var buf bytes.Buffer
	if err := sessiongen.Generate(&buf, sessiongen.Config{Entries: 3000, Shape: "branched", Images: 20, ImageBytes: 200000, Seed: 7}); err != nil {
		t.Fatal(err)
	}
	in := buf.Bytes()
	out, rep := newRedactor(t).Redact(in)
	for _, f := range rep.Findings {
		if f.Marker != "[REDACTED:database-url#1]" {
			t.Errorf("unexpected finding %+v", f)
		}
	}
	if want := bytes.ReplaceAll(in, []byte("postgres://postgres:postgres@"), []byte("postgres://postgres:[REDACTED:database-url#1]@")); !bytes.Equal(out, want) {
		t.Error("output differs from the input beyond the database URL")
	}
}
