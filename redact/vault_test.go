// HashiCorp Vault tokens in the forms people paste them, and known public
// values gitleaks lists by value.

package redact

import (
	"reflect"
	"strings"
	"testing"
)

// TestVaultTokens: service (hvs.), batch (hvb.) and legacy (s.) tokens,
// bare or in the commands and outputs that show them, are found as Vault
// tokens and replaced whole; a method of a receiver named s is not one.
func TestVaultTokens(t *testing.T) {
	r := newRedactor(t)
	for seed := uint64(1); seed <= 10; seed++ {
		g := newFakeGen(seed)
		hvs := "hvs.CAESI" + g.str(csB64URL, 91)
		hvsShort := "hvs." + g.str(csAlnum, 24)
		hvb := "hvb.AAAAAQ" + g.str(csB64URL, 132)
		legacy := "s." + g.str(csAlnum, 24)
		if !hasDigitLetter(legacy[2:]) || entropy(legacy[2:]) < 3.5 {
			continue // a legacy token must look random to be told from s.Method
		}
		nsToken := legacy + "." + g.str(csAlnum, 5)
		for _, c := range []struct{ name, kind, secret, text string }{
			{"hvs bare", "vault-service-token", hvs, "here is the token " + hvs + ", it 403s"},
			{"hvs in a sentence, no keyword", "vault-service-token", hvs, "Why does " + hvs + " fail?"},
			{"hvs 24", "vault-service-token", hvsShort, "the dev server printed " + hvsShort},
			{"hvs env", "vault-service-token", hvs, "export VAULT_TOKEN=" + hvs},
			{"hvb bare", "vault-batch-token", hvb, "batch: " + hvb},
			{"legacy env", "vault-service-token", legacy, "export VAULT_TOKEN=" + legacy},
			{"legacy vault login", "vault-service-token", legacy, "$ vault login " + legacy},
			{"legacy header", "vault-service-token", legacy, `curl -H "X-Vault-Token: ` + legacy + `" https://vault:8200/v1/sys/health`},
			{"legacy login table", "vault-service-token", legacy, "Key                  Value\n---                  -----\ntoken                " + legacy + "\ntoken_duration       768h"},
			{"legacy init output", "vault-service-token", legacy, "Unseal the vault.\n\nInitial Root Token: " + legacy},
			{"legacy json", "vault-service-token", legacy, `{"auth": {"client_token": "` + legacy + `", "renewable": true}}`},
			{"legacy in a namespace", "vault-service-token", nsToken, "VAULT_TOKEN=" + nsToken + " vault kv get secret/app"},
			{"legacy in a namespace, vault login", "vault-service-token", nsToken, "vault login " + nsToken},
		} {
			expectOne(t, r, c.name, c.kind, c.secret, c.text)
		}
	}
	for _, text := range []string{
		"s.ReadUint16LengthPrefixed(&v) reads the vault token length",
		"vault: s.handleLoginRequest2Fa(ctx) checks the token",
		"the token is s.Method1234567890abcdefghij.Call()",
	} {
		expectNone(t, r, "method of s", text)
	}
}

// TestVaultTokenSession: in a session, a Vault token is gone from the
// redacted bytes wherever it appears, under one marker.
func TestVaultTokenSession(t *testing.T) {
	r := newRedactor(t)
	g := newFakeGen(7)
	legacy := "s." + g.str(csAlnum, 22) + "7q"
	hvs := "hvs.CAESI" + g.str(csB64URL, 91)
	session := strings.Join([]string{
		`{"type":"session","version":3,"id":"v","timestamp":"2026-01-01T00:00:00Z","cwd":"/p"}`,
		`{"type":"message","id":"u1","parentId":null,"timestamp":"2026-01-01T00:00:01Z","message":{"role":"user","content":"vault login ` + legacy + `"}}`,
		`{"type":"message","id":"a1","parentId":"u1","timestamp":"2026-01-01T00:00:02Z","message":{"role":"assistant","content":[{"type":"toolCall","id":"c1","name":"bash","arguments":{"command":"VAULT_TOKEN=` + hvs + ` vault kv get secret/app"}}]}}`,
		`{"type":"message","id":"r1","parentId":"a1","timestamp":"2026-01-01T00:00:03Z","message":{"role":"toolResult","toolCallId":"c1","toolName":"bash","content":[{"type":"text","text":"token ` + legacy + `\n"}],"isError":false}}`,
	}, "\n") + "\n"
	out, rep := r.Redact([]byte(session))
	for _, secret := range []string{legacy, hvs, legacy[2:], hvs[4:]} {
		if strings.Contains(string(out), secret) {
			t.Errorf("%q survived:\n%s", secret, out)
		}
	}
	if rep.Kinds["vault-service-token"] != 2 || len(rep.Findings) != 3 ||
		strings.Count(string(out), "[REDACTED:vault-service-token#1]") != 2 {
		t.Errorf("report %+v\n%s", rep, out)
	}
}

// TestKnownPublicValues: a value gitleaks' generic rule lists as a known
// public one (yarn's bundled Algolia search key) is left alone; the same
// shape with another value is not.
func TestKnownPublicValues(t *testing.T) {
	r := newRedactor(t)
	expectNone(t, r, "yarn's Algolia key", `,apiKey:"6fe4476ee5a1832882e326b506d14126",`)
	g := newFakeGen(3)
	v := g.str("0123456789abcdef", 32)
	expectOne(t, r, "another key of that shape", "generic-secret", v, `,apiKey:"`+v+`",`)
}

// TestScanMatchesRedact: Scan reports what Redact reports, serial and
// parallel, without and with secrets.
func TestScanMatchesRedact(t *testing.T) {
	r := newRedactor(t)
	in, _, _, _ := buildCorpusSession(t, 2)
	var big []byte
	for len(big) < 4*parallelMin {
		big = append(big, in...)
	}
	for _, data := range [][]byte{in, big, []byte(`{"type":"session","id":"x"}` + "\n")} {
		_, want := r.Redact(data)
		if got := r.Scan(data); !reflect.DeepEqual(got, want) {
			t.Errorf("Scan of %d bytes: %d findings %v, Redact: %d findings %v",
				len(data), len(got.Findings), got.Kinds, len(want.Findings), want.Kinds)
		}
	}
}
