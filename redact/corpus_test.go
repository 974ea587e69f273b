// The corpus: fake secrets of every kind, made from a seeded generator,
// each in the text that makes it recognisable.

package redact

import (
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"strings"
)

// A planted secret: Text is how it appears (with the context that makes it
// recognisable), Secret the exact span that must be replaced, Kind the rule
// that must report it. Every value is made up here from a seeded generator:
// the shapes are right, the values are not anyone's keys.
type planted struct {
	Kind, Secret, Text string
}

type fakeGen struct{ rng *rand.Rand }

func newFakeGen(seed uint64) *fakeGen { return &fakeGen{rand.New(rand.NewPCG(seed, 0x5ec7e75))} }

const (
	csUpper   = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	csLower   = "abcdefghijklmnopqrstuvwxyz"
	csDigit   = "0123456789"
	csAlnum   = csUpper + csLower + csDigit
	csB64URL  = csAlnum + "_-"
	csB64     = csAlnum + "+/"
	csHex     = "0123456789abcdef"
	csBech32U = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"
)

// str returns n characters of cs; when n >= 8 it retries until every
// class cs offers is present (lower, upper, digit).
func (g *fakeGen) str(cs string, n int) string {
	for {
		b := make([]byte, n)
		for i := range b {
			b[i] = cs[g.rng.IntN(len(cs))]
		}
		s := string(b)
		if n < 8 {
			return s
		}
		l, u, d := classes(s)
		if (l || !strings.ContainsAny(cs, csLower)) && (u || !strings.ContainsAny(cs, csUpper)) &&
			(d || !strings.ContainsAny(cs, csDigit)) {
			return s
		}
	}
}

func (g *fakeGen) digits(n int) string {
	s := g.str(csDigit, n)
	return string(rune('1'+g.rng.IntN(9))) + s[1:]
}

func (g *fakeGen) b64url(v string) string { return base64.RawURLEncoding.EncodeToString([]byte(v)) }

// pemBlock makes a PEM-looking private key block of random bytes.
func (g *fakeGen) pemBlock(label string, lines int) string {
	raw := make([]byte, 48*lines)
	for i := range raw {
		raw[i] = byte(g.rng.IntN(256))
	}
	enc := base64.StdEncoding.EncodeToString(raw)
	var sb strings.Builder
	sb.WriteString("-----BEGIN " + label + "-----\n")
	for len(enc) > 64 {
		sb.WriteString(enc[:64] + "\n")
		enc = enc[64:]
	}
	sb.WriteString(enc + "\n-----END " + label + "-----")
	return sb.String()
}

// corpus returns one or more fake secrets of every kind the rules know.
func corpus(seed uint64) []planted {
	c := &corpusBuilder{g: newFakeGen(seed)}
	c.platformTokens()
	c.structures()
	c.serviceTokens()
	c.inContext()
	return c.ps
}

// corpusBuilder collects the planted secrets, in the order the generator
// makes them.
type corpusBuilder struct {
	g  *fakeGen
	ps []planted
}

func (c *corpusBuilder) add(kind, secret, text string) {
	if text == "" {
		text = secret
	}
	c.ps = append(c.ps, planted{kind, secret, text})
}

// platformTokens: the prefixed tokens of AWS, GitHub, GitLab, Slack,
// Stripe, the sk- family, Google and Azure.
func (c *corpusBuilder) platformTokens() {
	g, add := c.g, c.add
	var s string
	// AWS
	s = "AKIA" + g.str(csUpper+"234567", 16)
	add("aws-access-key", s, "aws_access_key_id = "+s)
	s = "ASIA" + g.str(csUpper+"234567", 16)
	add("aws-access-key", s, "temporary credentials "+s+" expire in 1h")
	s = g.str(csB64, 40)
	add("aws-secret-key", s, "export AWS_SECRET_ACCESS_KEY="+s)
	// GitHub
	s = "ghp_" + g.str(csAlnum, 36)
	add("github-pat", s, "git remote set-url origin https://x-access-token@github.com/acme/app.git # token "+s)
	s = "ghp_" + g.str(csAlnum, 36)
	add("github-pat", s, "GH_TOKEN="+s+" gh pr list")
	s = "github_pat_" + g.str(csAlnum, 22) + "_" + g.str(csAlnum, 59)
	add("github-pat", s, "fine-grained token: "+s)
	s = "gho_" + g.str(csAlnum, 36)
	add("github-oauth", s, "oauth_token: "+s)
	s = "ghs_" + g.str(csAlnum, 36)
	add("github-app-token", s, "installation token "+s)
	s = "ghr_" + g.str(csAlnum, 76)
	add("github-refresh-token", s, "refresh "+s)
	// GitLab
	s = "glpat-" + g.str(csB64URL, 20)
	add("gitlab-pat", s, "curl --header \"PRIVATE-TOKEN: "+s+"\" https://gitlab.example.com/api/v4/projects")
	s = "glrt-" + g.str(csB64URL, 20)
	add("gitlab-token", s, "gitlab-runner register --token "+s)
	// Slack
	s = "xoxb-" + g.digits(12) + "-" + g.digits(13) + "-" + g.str(csAlnum, 24)
	add("slack-token", s, "SLACK_BOT_TOKEN="+s)
	s = "xapp-1-A" + g.str(csUpper+csDigit, 10) + "-" + g.digits(13) + "-" + g.str(csHex, 64)
	add("slack-app-token", s, "app-level token "+s)
	s = "services/T" + g.str(csUpper+csDigit, 8) + "/B" + g.str(csUpper+csDigit, 10) + "/" + g.str(csAlnum, 24)
	add("slack-webhook", s, "curl -X POST https://hooks.slack.com/"+s+" -d '{\"text\":\"deployed\"}'")
	// Stripe
	s = "sk_live_" + g.str(csAlnum, 24)
	add("stripe-key", s, "Stripe.api_key = '"+s+"'")
	s = "rk_test_" + g.str(csAlnum, 40)
	add("stripe-key", s, "restricted key "+s)
	s = "whsec_" + g.str(csAlnum, 32)
	add("stripe-webhook-secret", s, "endpoint secret "+s)
	// sk-… family
	s = "sk-proj-" + g.str(csB64URL, 74) + "T3BlbkFJ" + g.str(csB64URL, 74)
	add("openai-key", s, "OPENAI_API_KEY="+s)
	s = "sk-" + g.str(csAlnum, 48)
	add("openai-key", s, "openai.api_key = \""+s+"\"")
	s = "sk-ant-api03-" + g.str(csB64URL, 93) + "AA"
	add("anthropic-key", s, "ANTHROPIC_API_KEY="+s)
	s = "sk-or-v1-" + g.str(csHex, 64)
	add("openrouter-key", s, "router key "+s)
	s = "sk-" + g.str(csHex, 32)
	add("sk-api-key", s, "deepseek key "+s)
	// Google
	s = "AIza" + g.str(csB64URL, 35)
	add("google-api-key", s, "https://maps.googleapis.com/maps/api/geocode/json?address=Paris&key="+s)
	s = "GOCSPX-" + g.str(csB64URL, 28)
	add("google-oauth-secret", s, "client secret "+s)
	s = "ya29." + g.str(csB64URL, 120)
	add("google-oauth-token", s, "gcloud auth print-access-token -> "+s)
	// Azure
	s = g.str(csB64, 86) + "=="
	add("azure-storage-key", s, "DefaultEndpointsProtocol=https;AccountName=ledgerstore;AccountKey="+s+";EndpointSuffix=core.windows.net")
	s = g.str(csB64, 43) + "="
	add("azure-shared-access-key", s, "Endpoint=sb://ledger.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey="+s)
}

// structures: JWTs, private key blocks and URLs with a password.
func (c *corpusBuilder) structures() {
	g, add := c.g, c.add
	var s string
	// JWT
	s = g.b64url(`{"alg":"HS256","typ":"JWT"}`) + "." + g.b64url(fmt.Sprintf(`{"sub":"%s","name":"Dev","iat":1516239022}`, g.digits(10))) + "." + g.str(csB64URL, 43)
	add("jwt", s, "session cookie: "+s)
	// Private keys
	s = g.pemBlock("RSA PRIVATE KEY", 12)
	add("private-key", s, "$ cat ~/.ssh/id_rsa\n"+s+"\n$ ")
	s = g.pemBlock("OPENSSH PRIVATE KEY", 6)
	add("private-key", s, "key file contents:\n"+s)
	// URLs with credentials
	s = g.str(csAlnum, 20)
	add("database-url", s, "DATABASE_URL=postgres://ledger:"+s+"@db.internal:5432/ledger?sslmode=require")
	s = g.str(csAlnum, 18)
	add("database-url", s, "mongodb+srv://admin:"+s+"@cluster0.ab1cd.mongodb.net/prod")
	s = g.str(csAlnum, 22)
	add("database-url", s, "REDIS_URL=redis://default:"+s+"@cache.internal:6379/0")
	s = g.str(csAlnum, 16)
	add("database-url", s, "mysql://root:"+s+"@127.0.0.1:3306/app")
	s = g.str(csAlnum, 24)
	add("url-credentials", s, "pip install --index-url https://deploy:"+s+"@pypi.internal.example/simple pkg")
}

// serviceTokens: registries, Twilio, SendGrid, Mailgun, Discord,
// Telegram, Heroku, DigitalOcean, Hugging Face, Shopify, Square, Datadog,
// other AI providers, age.
func (c *corpusBuilder) serviceTokens() {
	g, add := c.g, c.add
	var s string
	// Registries
	s = "npm_" + g.str(csAlnum, 36)
	add("npm-token", s, "//registry.npmjs.org/:_authToken="+s)
	s = "pypi-AgEIcHlwaS5vcmc" + g.str(csB64URL, 70)
	add("pypi-token", s, "twine upload -p "+s+" dist/*")
	// Twilio, SendGrid, Mailgun
	s = "SK" + g.str(csHex, 32)
	add("twilio-api-key", s, "api key sid "+s)
	s = "AC" + g.str(csHex, 32)
	add("twilio-account-sid", s, "account "+s)
	s = g.str(csHex, 32)
	add("twilio-auth-token", s, "TWILIO_AUTH_TOKEN="+s)
	s = "SG." + g.str(csB64URL, 22) + "." + g.str(csB64URL, 43)
	add("sendgrid-key", s, "SENDGRID_API_KEY='"+s+"'")
	s = "key-" + g.str(csHex, 32)
	add("mailgun-key", s, "mailgun: "+s)
	// Discord, Telegram
	s = "MT" + g.str(csB64URL, 24) + "." + g.str(csB64URL, 6) + "." + g.str(csB64URL, 38)
	add("discord-bot-token", s, "client.run(DISCORD) # discord bot token "+s)
	s = g.digits(18) + "/" + g.str(csB64URL, 68)
	add("discord-webhook", s, "https://discord.com/api/webhooks/"+s)
	s = g.digits(10) + ":AA" + g.str(csB64URL, 33)
	add("telegram-bot-token", s, "https://api.telegram.org/bot"+s+"/getMe")
	// Heroku, DigitalOcean, Hugging Face, Shopify, Square, Datadog
	s = "HRKU-AA" + g.str(csB64URL, 58)
	add("heroku-key", s, "heroku authorizations: "+s)
	s = fmt.Sprintf("%s-%s-4%s-a%s-%s", g.str(csHex, 8), g.str(csHex, 4), g.str(csHex, 3), g.str(csHex, 3), g.str(csHex, 12))
	add("heroku-key", s, "HEROKU_API_KEY="+s)
	s = "dop_v1_" + g.str(csHex, 64)
	add("digitalocean-token", s, "doctl auth init -t "+s)
	s = "hf_" + g.str(csUpper+csLower, 34)
	add("huggingface-token", s, "huggingface-cli login --token "+s)
	s = "shpat_" + g.str(csHex, 32)
	add("shopify-token", s, "X-Shopify-Access-Token: "+s)
	s = "EAAA" + g.str(csB64URL, 60)
	add("square-token", s, "square access token "+s)
	s = "sq0csp-" + g.str(csB64URL, 43)
	add("square-token", s, "square oauth secret "+s)
	s = g.str(csHex, 32)
	add("datadog-api-key", s, "DD_API_KEY="+s+" datadog-agent start")
	// Other AI providers, age
	s = "gsk_" + g.str(csAlnum, 52)
	add("groq-key", s, "GROQ="+s)
	s = "xai-" + g.str(csAlnum, 80)
	add("xai-key", s, "xai "+s)
	s = "AGE-SECRET-KEY-1" + g.str(csBech32U, 58)
	add("age-secret-key", s, "# created: 2026-01-15\n"+s)
}

// inContext: Authorization headers, Vault tokens, command lines, Kubernetes
// and Docker configuration, a bare Discord token and the generic rule.
func (c *corpusBuilder) inContext() {
	g, add := c.g, c.add
	var s string
	// Authorization headers
	s = g.str(csB64URL, 40)
	add("bearer-token", s, "curl -H \"Authorization: Bearer "+s+"\" https://api.example.com/v1/me")
	s = base64.StdEncoding.EncodeToString([]byte("deploy:" + g.str(csAlnum, 20)))
	add("basic-auth", s, "Authorization: Basic "+s)
	// HashiCorp Vault
	s = "hvs.CAESI" + g.str(csB64URL, 91)
	add("vault-service-token", s, "export VAULT_TOKEN="+s)
	s = "hvb.AAAAAQ" + g.str(csB64URL, 132)
	add("vault-batch-token", s, "batch token "+s+" (ttl 20m)")
	s = "s." + g.str(csAlnum, 24)
	add("vault-service-token", s, "Key    Value\ntoken  "+s+"\ntoken_policies  [default]")
	// Command lines
	s = g.str(csAlnum, 20)
	add("curl-auth-user", s, "curl -u deploy:"+s+" https://ci.example.com/api/builds")
	s = g.str(csAlnum, 32)
	add("curl-auth-header", s, `curl -H "X-Api-Key: `+s+`" https://api.example.com/v2/items`)
	s = g.str(csAlnum, 14)
	add("cli-password", s, "mysql -h db.internal -u root -p'"+s+"' ledger")
	s = g.str(csAlnum, 24)
	add("cli-password", s, "docker login -u ci-bot -p "+s+" registry.example.com")
	s = g.str(csAlnum, 10)
	add("cli-password", s, "PGPASSWORD="+s+" psql -h db -U ledger")
	// Kubernetes Secret, Docker config
	s = base64.StdEncoding.EncodeToString([]byte(g.str(csAlnum, 24)))
	add("kubernetes-secret", s, "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ntype: Opaque\ndata:\n  db-pass: "+s)
	s = base64.StdEncoding.EncodeToString([]byte("ci-bot:" + g.str(csAlnum, 20)))
	add("docker-config-auth", s, `{"auths": {"registry.example.com": {"auth": "`+s+`"}}}`)
	// A Discord bot token with no "discord" near it: base64 of the bot's id.
	s = g.b64url(g.digits(18)) + "." + g.str(csB64URL, 6) + "." + g.str(csB64URL, 38)
	add("discord-bot-token", s, "client.run('"+s+"')")
	// Generic: a secret-ish name, then a high-entropy value
	s = g.str(csAlnum, 32)
	add("generic-secret", s, "API_KEY="+s)
	s = g.str(csAlnum, 1) + g.str(csAlnum+"!#%^", 19)
	add("generic-secret", s, "db:\n  password: "+s+"\n  pool: 5")
	s = g.str(csB64URL, 40)
	add("generic-secret", s, `{"client_secret": "`+s+`", "client_id": "ledger-web"}`)
	s = g.str(csHex, 40)
	add("generic-secret", s, "SESSION_SECRET="+s)
}
