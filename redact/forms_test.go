// Tests by family: assignment forms, bare vendor formats, command lines,
// Kubernetes and Docker configuration, placeholders, non-secret names,
// gitleaks' configuration and rules.

package redact

import (
	"encoding/base64"
	"fmt"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
	"testing"
)

// expectOne: Text replaces exactly the secret, every time it occurs, by
// one marker of the kind, and nothing else.
func expectOne(t *testing.T, r *Redactor, name, kind, secret, text string) {
	t.Helper()
	out, rep := r.Text(text)
	want := strings.ReplaceAll(text, secret, "[REDACTED:"+kind+"#1]")
	if out != want || len(rep.Kinds) != 1 || rep.Kinds[kind] != 1 {
		t.Errorf("%s: Text(%q)\n got %q\nwant %q\n%+v", name, text, out, want, rep)
	}
}

func expectNone(t *testing.T, r *Redactor, name, text string) {
	t.Helper()
	if out, rep := r.Text(text); len(rep.Findings) != 0 {
		t.Errorf("%s: findings in %q:\n%q\n%+v", name, text, out, rep)
	}
}

// TestAssignmentForms: the generic rule reads a secret after its name in
// the forms code and configuration put it in.
func TestAssignmentForms(t *testing.T) {
	r := newRedactor(t)
	for seed := uint64(1); seed <= 20; seed++ {
		g := newFakeGen(seed)
		v := g.str(csAlnum, 32)
		b := base64.StdEncoding.EncodeToString([]byte("jdoe:" + g.str(csAlnum, 24)))
		for _, c := range []struct{ name, secret, text string }{
			{"shell", v, "export API_TOKEN=" + v},
			{"yaml", v, "service:\n  api_token: " + v + "\n  retries: 3"},
			{"json", v, `{"apiToken": "` + v + `", "region": "eu"}`},
			{"php .=", v, `$apiToken .= "` + v + `";`},
			{"php array =>", v, `$config = ['api_token' => '` + v + `'];`},
			{"ruby symbol =>", v, `config = { :api_token => "` + v + `" }`},
			{"make ?=", v, "API_TOKEN ?= " + v},
			{"make ::=", v, "API_TOKEN ::= " + v},
			{"make :::=", v, `API_TOKEN :::= "` + v + `"`},
			{"go :=", v, `apiToken := "` + v + `"`},
			{"go var with type", v, `var apiToken string = "` + v + `"`},
			{"xml element over lines", v, "<apiToken>\n    " + v + "\n</apiToken>"},
			{"xml element", v, "<settings><apiToken>" + v + "</apiToken></settings>"},
			{"java setProperty", v, `System.setProperty("API_TOKEN", "` + v + `");`},
			{"getenv default", v, `token = os.getenv("API_TOKEN", "` + v + `")`},
			{"js default ||", v, `const token = process.env.API_TOKEN || "` + v + `";`},
			{"creds", v, "creds = " + v},
			{"prose", v, "The secret is: " + v + "."},
			{"auth, base64", b, `{"user_auth": "` + b + `"}`},
		} {
			expectOne(t, r, fmt.Sprintf("seed %d, %s", seed, c.name), "generic-secret", c.secret, c.text)
		}
	}
}

// TestVendorFormatsBare: gitleaks' token formats are found alone in a
// sentence, with no keyword near them, also before a full stop, a comma or
// a bracket (its expressions want a blank or a quote there).
func TestVendorFormatsBare(t *testing.T) {
	r := newRedactor(t)
	for seed := uint64(1); seed <= 20; seed++ {
		g := newFakeGen(seed)
		lower := func(n int) string { return strings.ToLower(g.str(csLower, n)) }
		for _, c := range []struct{ kind, secret string }{
			{"databricks-api-token", "dapi" + g.str(csHex, 32)},
			{"grafana-service-account-token", "glsa_" + g.str(csAlnum, 32) + "_" + g.str(csHex, 8)},
			{"postman-api-token", "PMAK-" + g.str(csHex, 24) + "-" + g.str(csHex, 34)},
			{"sentry-user-token", "sntryu_" + g.str(csHex, 64)},
			{"sentry-org-token", "sntrys_eyJpYXQiO" + g.str(csAlnum, 40) + "LCJyZWdpb25fdXJs" + g.str(csAlnum, 60) + "_" + g.str(csAlnum, 43)},
			{"atlassian-api-token", "ATATT3" + g.str(csB64URL, 186)},
			{"linear-api-key", "lin_api_" + g.str(csAlnum, 40)},
			{"doppler-api-token", "dp.pt." + g.str(csAlnum, 43)},
			{"hashicorp-tf-api-token", lower(4) + g.str(csDigit, 2) + lower(8) + ".atlasv1." + g.str(csB64URL, 64)},
			{"huggingface-organization-api-token", "api_org_" + g.str(csUpper+csLower, 34)},
			{"notion-api-token", "ntn_" + g.digits(11) + g.str(csAlnum, 35)},
			{"azure-ad-client-secret", g.str(csAlnum, 3) + "8Q~" + g.str(csAlnum+"_-", 34)},
			{"vault-service-token", "hvs.CAESI" + g.str(csB64URL, 91)},
			{"discord-bot-token", g.b64url(g.digits(18)) + "." + g.str(csB64URL, 6) + "." + g.str(csB64URL, 38)},
		} {
			for _, form := range []string{"Can you check why the deploy rejects this one? %s It worked yesterday.",
				"it rejects this one: %s.", "it rejects this one (%s), why?", "keys %s, and more", "`%s`"} {
				expectOne(t, r, fmt.Sprintf("seed %d, %s, %q", seed, c.kind, form), c.kind, c.secret, fmt.Sprintf(form, c.secret))
			}
		}
	}
}

// TestCommandLinePasswords: passwords given to curl, database clients and
// registry logins, and none where the command asks for one or reads it
// from a variable or file.
func TestCommandLinePasswords(t *testing.T) {
	r := newRedactor(t)
	for seed := uint64(1); seed <= 20; seed++ {
		g := newFakeGen(seed)
		p := g.str(csAlnum, 14) + "!#"
		k := g.str(csAlnum, 32)
		for _, c := range []struct{ name, kind, secret, text string }{
			{"curl -u", "curl-auth-user", p, "curl -u elastic:" + p + " https://localhost:9200"},
			{"curl --user quoted", "curl-auth-user", p, "curl --user 'kevin:" + p + "' -X PATCH https://api.example.com"},
			{"curl --user= parts quoted", "curl-auth-user", p, `curl --user="jdoe":"` + p + `" https://api.example.com`},
			{"curl -u attached", "curl-auth-user", p, "curl -ujdoe:" + p + " https://api.example.com"},
			{"curl -u api key as user", "curl-auth-user", k, "curl https://api.stripe.com/v1/charges -u " + k + ":"},
			{"curl -u continued line", "curl-auth-user", p, "curl -k -X POST https://ci.example.com \\\n  -d 'x' \\\n  -u developer:" + p},
			{"curl -H api key", "curl-auth-header", k, `curl -H "X-Api-Key: ` + k + `" https://api.example.com`},
			{"curl -H Authorization: Token", "curl-auth-header", k, `curl --header 'Authorization: Token ` + k + `' https://api.example.com`},
			{"mysql -p", "cli-password", p, "mysql -h db.internal -u root -p'" + p + "' app"},
			{"mysqldump --password=", "cli-password", p, "mysqldump --user=root --password=" + p + " app > app.sql"},
			{"docker login -p", "cli-password", p, "docker login -u ci-bot -p " + p + " registry.example.com"},
			{"podman login --password", "cli-password", p, "podman login --username ci --password " + p + " quay.io"},
			{"sshpass", "cli-password", p, "sshpass -p '" + p + "' ssh deploy@host"},
			{"redis-cli -a", "cli-password", p, "redis-cli -h cache -a " + p + " ping"},
			{"PGPASSWORD", "cli-password", "hunter22", "PGPASSWORD=hunter22 psql -h db -U app"},
			{"--password=", "cli-password", p, "./manage.py createsuperuser --password=" + p},
		} {
			expectOne(t, r, fmt.Sprintf("seed %d, %s", seed, c.name), c.kind, c.secret, c.text)
		}
	}
	for _, text := range []string{
		`curl -sL --user "$GITHUB_USERNAME:$GITHUB_PASSWORD" "$GITHUB_URL"`,
		`curl -u "${username}":"${password}" https://x`,
		`curl -u "$(cat ./login.txt):$(cat ./password.txt)" https://x`,
		`curl --user "{{ .Values.username }}:{{ .Values.password }}" https://x`,
		`curl --user "username:password" https://x`,
		`curl -i -u 'test:test' https://x`,
		`curl --user "xxx:yyy"`,
		`curl --user neo4j:[PASSWORD] http://[IP]:7474/db/data/`,
		`curl -u <user:password> https://test.com/endpoint`,
		`curl -u "myusername" http://localhost:15130/api/check_user/`,
		`curl -H "Authorization: Bearer $API_KEY" https://x`,
		`curl -H "apikey: $API_KEY" https://x`,
		`curl -H "Authorization: Token **********" https://x`,
		"mysql -h db -u root -p app",
		"mysql -u root -P 3306 -p",
		"docker login --password-stdin -u ci registry.example.com < token.txt",
		"docker login -u ci -p $REGISTRY_PASSWORD registry.example.com",
		"PGPASSWORD=$DB_PASSWORD psql -h db",
		"sort -u names.txt | git push -u origin main",
	} {
		expectNone(t, r, "command line", text)
	}
}

// TestKubernetesAndDockerConfig: the values of a Secret's data and
// stringData, and registry logins in Docker's config.json.
func TestKubernetesAndDockerConfig(t *testing.T) {
	r := newRedactor(t)
	for seed := uint64(1); seed <= 20; seed++ {
		g := newFakeGen(seed)
		v := base64.StdEncoding.EncodeToString([]byte(g.str(csAlnum, 18)))
		plain := g.str(csAlnum, 12)
		auth := base64.StdEncoding.EncodeToString([]byte("ci-bot:" + g.str(csAlnum, 16)))
		for _, c := range []struct{ name, kind, secret, text string }{
			{"yaml data", "kubernetes-secret", v, "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ntype: Opaque\ndata:\n  db-pass: " + v + "\n"},
			{"yaml data before kind, quoted", "kubernetes-secret", v, "apiVersion: \"v1\"\ndata:\n\textra: \"" + v + "\"\nkind: \"secret\"\nmetadata:\n\tname: \"x\""},
			{"yaml block scalar", "kubernetes-secret", v, "apiVersion: v1\nkind: Secret\ndata:\n  .dockercfg: |\n    " + v + "\nmetadata:\n  name: regcred\n"},
			{"yaml stringData", "kubernetes-secret", plain, "kind: Secret\nstringData:\n  api-password: " + plain + "\n"},
			{"json manifest", "kubernetes-secret", v, `{"apiVersion": "v1", "kind": "Secret", "data": {"db-pass": "` + v + `"}}`},
			{"in an edit's diff", "kubernetes-secret", v, "+ 12 kind: Secret\n+ 13 data:\n+ 14   db-pass: " + v + "\n  15 ---"},
			{"escaped line breaks", "kubernetes-secret", v, `"content": "kind: Secret\ndata:\n  db-pass: ` + v + `\n"`},
			{"docker config auth", "docker-config-auth", auth, `{"auths": {"registry.example.com": {"auth": "` + auth + `"}}}`},
			{"docker identity token", "docker-config-auth", v, `{"auths": {"acr.io": {"identitytoken": "` + v + `"}}}`},
		} {
			expectOne(t, r, fmt.Sprintf("seed %d, %s", seed, c.name), c.kind, c.secret, c.text)
		}
	}
	for _, text := range []string{
		"apiVersion: v1\nkind: Secret\ndata:\n  csrf: \"\"\n",
		"apiVersion: v1\nkind: Secret\ndata:\n  password: {{ .Values.Password }}\n",
		"apiVersion: v1\nkind: Secret\ndata:\n  extra: YmFyCg==\n", // "bar\n": a test value
		"apiVersion: v1\nkind: ConfigMap\ndata:\n  settings: c2V0dGluZ3MgZm9yIHRoZSBhcHA=\n",
		"apiVersion: external-secrets.io/v1beta1\nkind: ExternalSecret\nspec:\n  data:\n    - secretKey: api-key\n      remoteRef:\n        key: my-secrets-manager-secret\n",
		"kind: Secret\n---\nkind: ConfigMap\ndata:\n  settings: c2V0dGluZ3MgZm9yIHRoZSBhcHA=\n",
		`{"auths": {"registry.example.com": {"auth": "basic"}}}`,
		"what kind of secret is this?",
	} {
		expectNone(t, r, "configuration", text)
	}
}

// TestPlaceholders: values written in place of a secret are left alone.
func TestPlaceholders(t *testing.T) {
	r := newRedactor(t)
	for _, text := range []string{
		"aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
		"aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
		"key = AKIAXXXXXXXXXXXXXXXX",
		"GITLAB_TOKEN=glpat-XXXXXXXXXXXXXXXXXXXX",
		"glpat-xxxxxxxx-xxxxxxxxxxxxxxxxxx.xxxxxxxxx",
		"ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
		`apiKey: "AIzaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"`,
		"STRIPE_KEY=sk_live_000000000000000000000000",
		`api_key: "YOUR_API_KEY_HERE"`,
		"API_KEY=your_api_key_here",
		"API_KEY=<your-api-key-here>",
		"token = ${GITHUB_TOKEN}",
		"password: {{ .Values.password }}",
		"SECRET_KEY=changeme",
		"DATABRICKS_TOKEN=dapi123456789012345678a9bc01234defg5",
		"sk-ant-api03-abc123xyz-456def789ghij-klmnopqrstuvwx-3456yza789bcde-1234fghijklmnopby56aaaogaopaaaabc123xyzAA",
		"snykToken = 12345678-ABCD-ABCD-ABCD-1234567890AB",
		"const keyStr = \"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789\"",
		"fn::secret: ops_eyJzaWduSW5B..[Redacted]",
		"-----BEGIN PRIVATE KEY-----\nanything\n-----END PRIVATE KEY-----",
		"Keys start with -----BEGIN OPENSSH PRIVATE KEY----- and end with the END line.",
		"xoxb-12345-abcd234",
		"xoxe.xoxp-1-RANDOMSTRINGHERE",
	} {
		expectNone(t, r, "placeholder", text)
	}
}

// TestNonSecretNames: names that say key, token or secret but hold none,
// and the ids, hashes and checksums next to them.
func TestNonSecretNames(t *testing.T) {
	r := newRedactor(t)
	for seed := uint64(1); seed <= 20; seed++ {
		g := newFakeGen(seed)
		v := g.str(csAlnum, 32)
		uuid := fmt.Sprintf("%s-%s-4%s-a%s-%s", g.str(csHex, 8), g.str(csHex, 4), g.str(csHex, 3), g.str(csHex, 3), g.str(csHex, 12))
		for _, text := range []string{
			`public_key = "` + v + `"`,
			`publicToken = "` + v + `"`,
			"foreignKey=" + v,
			"primaryKey=" + v,
			"key_id = " + v,
			"keyName: " + v,
			"issuerKeyHash=" + v,
			"key_down_event=" + v,
			"csrf-token=" + v,
			"credentialsId: '" + uuid + "'",
			"withCredentials([usernamePassword(credentialsId: '" + uuid + "', usernameVariable: 'USERNAME')])",
			"token_url = https://auth.example.com/oauth/token",
			"cacheKey = " + uuid,
			"sort_key: " + g.str(csHex, 40),
			"commit " + g.str(csHex, 40),
			"sha256sum: " + g.str(csHex, 64) + "  release.tar.gz",
			`"integrity": "sha512-` + base64.StdEncoding.EncodeToString([]byte(g.str(csAlnum, 64))) + `"`,
			"image: node@sha256:" + g.str(csHex, 64),
			"golang.org/x/text v0.14.0 h1:" + base64.StdEncoding.EncodeToString([]byte(g.str(csAlnum, 32))),
			"request id " + uuid + " failed",
			"if !s.ReadUint16LengthPrefixed(&cipherSuites) {",
			"// readUint16LengthPrefixed acts like s.ReadUint16LengthPrefixed, but",
			"password = os.environ[\"DB_PASSWORD\"]",
			"apiKey := cfg.Secrets.APIKeyForRegion2(region)",
		} {
			expectNone(t, r, fmt.Sprintf("seed %d", seed), text)
		}
	}
}

// TestVendorRules: every gitleaks rule with an expression runs, except the
// ones listed in gitleaksOwn; most are anchored at their keyword.
func TestVendorRules(t *testing.T) {
	r := newRedactor(t)
	want, ids := 0, map[string]bool{}
	for _, ru := range gitleaksDefault.rules {
		ids[ru.id] = true
		if _, own := gitleaksOwn[ru.id]; !own && ru.regex != "" {
			want++
		}
	}
	if r.nVendor != want || want < 200 {
		t.Errorf("%d gitleaks rules run, want %d", r.nVendor, want)
	}
	for id := range gitleaksOwn {
		if !ids[id] {
			t.Errorf("gitleaksOwn lists %s, which gitleaks no longer has", id)
		}
	}
	// Each is analysed and compiled at its first hit; all must be able to.
	cfg, err := loadGitleaks()
	if err != nil {
		t.Fatal(err)
	}
	exprs := map[string]string{}
	kws := map[string][]string{}
	for _, gr := range cfg.rules {
		if gr.regex != "" {
			exprs[gr.id], kws[gr.id] = gr.regex, gr.keywords
		}
	}
	anchored, template := 0, 0
	for id, src := range exprs {
		vr := &vendorRule{id: id, src: src, keywords: kws[id]}
		vr.analyse()
		if vr.broken {
			t.Errorf("%s does not parse", id)
		}
		if vr.anchored {
			anchored++
		}
		if vr.semiGeneric {
			template++
		}
		if _, err := regexp.Compile(src); err != nil {
			t.Errorf("%s: %v", id, err)
		}
		if _, err := regexp.Compile(`\A(?:` + src + `)`); err != nil {
			t.Errorf("%s anchored: %v", id, err)
		}
	}
	if anchored < 80 || template < 80 || anchored+template > len(exprs) {
		t.Errorf("%d anchored at their keywords, %d of the keyword template, of %d", anchored, template, len(exprs))
	}
	t.Logf("%d gitleaks rules: %d anchored at their keywords, %d of the keyword template", len(exprs), anchored, template)
	// The analysis: literal prefixes, widths, the keyword template.
	ghp, _ := regexpSyntax(`\b(ghp_[0-9a-zA-Z]{36})(?:[\x60'"\s;]|$)`)
	if lits, b, ok := leadLits(ghp); !ok || !b || !slices.Equal(lits, []litPrefix{{"ghp_", false}}) || maxWidth(ghp) != 4+36*4+4 {
		t.Errorf("leadLits %v %v %v, width %d", lits, b, ok, maxWidth(ghp))
	}
	alt, _ := regexpSyntax(`(?:ghu|ghs)_[0-9a-zA-Z]{36}`)
	if lits, _, ok := leadLits(alt); !ok || !keywordsAgree([]string{"ghu_", "ghs_"}, lits) {
		t.Errorf("leadLits %v %v", lits, ok)
	}
	if !separatorFollows("my_adafruit_api_token = x", 8) || separatorFollows("adafruit is a shop that sells", 8) {
		t.Error("separatorFollows")
	}
}

func regexpSyntax(re string) (*syntax.Regexp, error) { return syntax.Parse(re, syntax.Perl) }

// TestAuthorizationHeaders: Basic and Bearer credentials however the header
// is written (no blank after the colon, a tab, curl -H, JSON, a shortened
// name, a sentence), and the words, realms and placeholders that follow
// "Basic" or "Bearer" without being one.
func TestAuthorizationHeaders(t *testing.T) {
	r := newRedactor(t)
	for seed := uint64(1); seed <= 20; seed++ {
		g := newFakeGen(seed)
		b := base64.StdEncoding.EncodeToString([]byte("svc-" + g.str(csLower, 5) + ":" + g.str(csAlnum, 15)))
		raw := strings.TrimRight(b, "=")
		tok := g.str(csAlnum, 40)
		for _, c := range []struct{ name, kind, secret, text string }{
			{"header", "basic-auth", b, "Authorization: Basic " + b},
			{"no blank after colon", "basic-auth", b, "Authorization:Basic " + b},
			{"tab after colon", "basic-auth", b, "Authorization:\tBasic " + b},
			{"curl --header single quotes", "basic-auth", b, "curl https://api.example.com/v1 --header 'Authorization:Basic " + b + "'"},
			{"curl -H double quotes", "basic-auth", b, `curl -H "Authorization:Basic ` + b + `" https://api.example.com`},
			{"curl -H lower case", "basic-auth", b, `curl -H "authorization: basic ` + b + `" https://x`},
			{"JSON member", "basic-auth", b, `{"headers": {"Authorization": "Basic ` + b + `"}}`},
			{"JSON escaped in text", "basic-auth", b, `{\"command\": \"curl -H \\\"Authorization:Basic ` + b + `\\\" https://x\"}`},
			{"Proxy-Authorization", "basic-auth", b, "Proxy-Authorization: Basic " + b},
			{"shortened name", "basic-auth", b, "Auth: Basic " + b},
			{"in a sentence", "basic-auth", b, "call it with authorization basic " + b + " and it works"},
			{"header named in prose", "basic-auth", b, "The Authorization header: Basic " + b + "."},
			{"unpadded", "basic-auth", raw, "Authorization: Basic " + raw},
			{"edited, binary, after the header", "basic-auth", "dXNlcjpwYXNzJ5BuamBac3V6SllLWlJH", `curl -H "Authorization: Basic dXNlcjpwYXNzJ5BuamBac3V6SllLWlJH" https://x`},
			{"bearer, no blank after colon", "bearer-token", tok, `curl -H "Authorization:Bearer ` + tok + `" https://x`},
			{"bearer, tab", "bearer-token", tok, "Authorization:\tBearer " + tok},
			{"bearer, shortened name", "bearer-token", tok, "Auth: Bearer " + tok},
			{"bearer in a sentence", "bearer-token", tok, "send authorization bearer " + tok + " with it"},
		} {
			expectOne(t, r, fmt.Sprintf("seed %d, %s", seed, c.name), c.kind, c.secret, c.text)
		}
	}
	for _, text := range []string{
		"Basic auth is enabled on the staging server.",
		`Authorization: Basic realm="x"`,
		`WWW-Authenticate: Basic realm="Restricted Area", charset="UTF-8"`,
		"Authorization: Basic <base64>",
		"Authorization: Basic xxxxx",
		"Authorization: Basic xxxxxxxxxxxxxxxx",
		"Authorization: Basic ${CREDENTIALS}",
		`curl -H "Authorization: Basic $(echo -n user:pass | base64)" https://x`,
		"Basic Authentication is configured in settings.py",
		"The BasicAuthentication class and basic_authentication module",
		"basic configuration: administrators only",
		"the basic fixedTotal field",             // decodes to printable text with a colon, but no header
		"basic dXNlcjpwYXNzJ5BuamBac3V6SllLWlJH", // binary, with no header
		"Authorization: Basic base64(username:password)",
		"Authorization: Bearer <token>",
		"Bearer token authentication",
		`Authorization: Bearer $API_TOKEN`,
		`WWW-Authenticate: Bearer realm="example", error="invalid_token"`,
	} {
		expectNone(t, r, "not a credential", text)
	}
}
