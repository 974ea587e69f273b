// The rule table of our own: the order of its rules (buildRules), the
// vendor prefixes and the assignment rules it holds, and the kinds it
// reports (allKinds).

package redact

// buildRules returns the rule table of our own: the token formats, the
// header, command-line and configuration rules, then a rule for each
// assignment rule (returned too, for JSON member names).
func buildRules() ([]rule, []assignRule) {
	rules := tokenRules()
	// Headers.
	rules = append(rules, rule{keywords: []string{"bearer"}, match: bearer})
	rules = append(rules, rule{keywords: []string{"basic"}, match: basicAuth})
	// Command lines, Kubernetes Secrets, legacy Vault tokens.
	rules = append(rules, rule{keywords: []string{"curl"}, match: curlCommand})
	rules = append(rules, rule{keywords: []string{"mysql", "mariadb", "login", "sshpass", "redis-cli"}, match: cliPassword})
	rules = append(rules, rule{keywords: []string{"kind"}, match: kubernetesSecret})
	rules = append(rules, rule{keywords: []string{"token", "vault"}, match: legacyVault})

	assigns := assignRules()
	for i := range assigns {
		ar := &assigns[i]
		rules = append(rules, rule{keywords: ar.keywords, match: func(d *detector, at, kwLen int) { d.assign(ar, at, kwLen) }})
	}
	return rules, assigns
}

// tokenRules: the token formats, most of them a vendor prefix and a
// run of characters (prefixRule), some with matchers of their own.
func tokenRules() []rule {
	fixed := func(n int) (int, int) { return n, n }
	rules := []rule{}
	pr := func(kind string, set, minLen, maxLen int, check func(string) bool, prefixes ...string) {
		rules = append(rules, prefixRule(kind, prioSpecific, set, minLen, maxLen, check, prefixes...))
	}
	// AWS access key ids.
	mn, mx := fixed(16)
	pr("aws-access-key", setUpperDigit, mn, mx, nil, "AKIA", "ASIA", "ABIA", "ACCA")
	// GitHub.
	pr("github-pat", setAlnum, 30, 255, hasDigitLetter, "ghp_")
	pr("github-pat", setWord, 40, 255, hasDigitLetter, "github_pat_")
	pr("github-oauth", setAlnum, 30, 255, hasDigitLetter, "gho_")
	pr("github-app-token", setAlnum, 30, 255, hasDigitLetter, "ghu_", "ghs_")
	pr("github-refresh-token", setAlnum, 30, 255, hasDigitLetter, "ghr_")
	// GitLab.
	pr("gitlab-pat", setB64URL, 20, 255, nil, "glpat-")
	pr("gitlab-token", setB64URL, 20, 255, nil, "glptt-", "glrt-", "gldt-", "glcbt-", "gloas-", "glsoat-")
	// Slack.
	pr("slack-token", setAlnumDash, 10, 255, slackBody, "xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xoxe-", "xoxe.xoxp-", "xoxe.xoxb-")
	pr("slack-app-token", setAlnumDash, 20, 255, slackBody, "xapp-")
	rules = append(rules, webhookPath("slack-webhook", "hooks.slack.com/"))
	rules = append(rules, webhookPath("discord-webhook", "discord.com/api/webhooks/", "discordapp.com/api/webhooks/"))
	// Stripe.
	pr("stripe-key", setAlnum, 20, 255, nil, "sk_live_", "rk_live_", "sk_test_", "rk_test_")
	pr("stripe-webhook-secret", setAlnum, 24, 255, nil, "whsec_")
	// sk-… (OpenAI, Anthropic, OpenRouter, others).
	rules = append(rules, rule{keywords: []string{"sk-"}, match: skKey})
	// Google.
	mn, mx = fixed(35)
	pr("google-api-key", setB64URL, mn, mx, nil, "AIza")
	pr("google-oauth-secret", setB64URL, 24, 64, nil, "GOCSPX-")
	pr("google-oauth-token", setB64URL, 30, 2048, hasDigitLetter, "ya29.")
	// Azure.
	rules = append(rules, rule{keywords: []string{"accountkey"}, match: azureKey("azure-storage-key")})
	rules = append(rules, rule{keywords: []string{"sharedaccesskey"}, match: azureKey("azure-shared-access-key")})
	// Generic structured secrets.
	rules = append(rules, rule{keywords: []string{"eyJ"}, match: jwt})
	rules = append(rules, rule{keywords: []string{"-----BEGIN "}, match: privateKey})
	rules = append(rules, rule{keywords: []string{"://"}, match: urlCredentials})
	// Package registries.
	pr("npm-token", setAlnum, 36, 36, nil, "npm_")
	pr("pypi-token", setB64URL, 50, 1024, nil, "pypi-AgE")
	// Twilio (API key SID, account SID).
	mn, mx = fixed(32)
	pr("twilio-api-key", setHex, mn, mx, nil, "SK")
	pr("twilio-account-sid", setHex, mn, mx, nil, "AC")
	// SendGrid, Mailgun.
	rules = append(rules, rule{keywords: []string{"SG."}, match: sendgrid})
	pr("mailgun-key", setHexLower, 32, 32, nil, "key-")
	// Telegram, Discord.
	rules = append(rules, rule{keywords: []string{":AA"}, match: telegram})
	rules = append(rules, contextRegex(0, "discord-bot-token", reDiscord, "discord"))
	// Heroku, DigitalOcean, Hugging Face, Shopify, Square.
	pr("heroku-key", setB64URL, 40, 255, nil, "HRKU-")
	mn, mx = fixed(64)
	pr("digitalocean-token", setHexLower, mn, mx, nil, "dop_v1_", "doo_v1_", "dor_v1_")
	mn, mx = fixed(34)
	pr("huggingface-token", setAlnum, mn, mx, mixedCase, "hf_")
	pr("shopify-token", setHex, 32, 32, nil, "shpat_", "shpca_", "shppa_", "shpss_")
	pr("square-token", setB64URL, 60, 60, hasDigitLetter, "EAAA")
	pr("square-token", setB64URL, 22, 22, nil, "sq0atp-")
	pr("square-token", setB64URL, 43, 43, nil, "sq0csp-")
	// AI providers with their own prefixes.
	pr("groq-key", setAlnum, 48, 64, hasDigitLetter, "gsk_")
	pr("xai-key", setAlnum, 70, 100, hasDigitLetter, "xai-")
	// age.
	pr("age-secret-key", setBech32Upper, 58, 58, nil, "AGE-SECRET-KEY-1")
	// HashiCorp Vault (in place of gitleaks' rules: see gitleaksOwn):
	// hvs. and hvb. tokens; legacyVault the s. ones.
	highEntropy := func(b string) bool { return hasDigitLetter(b) && entropy(b) >= 3.5 }
	pr("vault-service-token", setB64URL, 24, 512, highEntropy, "hvs.")
	pr("vault-batch-token", setB64URL, 24, 512, highEntropy, "hvb.")
	return rules
}

// assignRules: values known by the name they are assigned to, from the
// vendor-specific (aws, datadog, twilio, ...) to the generic rule.
func assignRules() []assignRule {
	mixedB64 := func(n int) func(v, ident string) bool {
		return func(v, _ string) bool {
			l, u, _ := classes(v)
			return len(v) == n && allIn(v, setB64) && l && u
		}
	}
	hexN := func(ns ...int) func(v, ident string) bool {
		return func(v, _ string) bool {
			for _, n := range ns {
				if exactSet(v, setHex, n) {
					l, _, dg := classes(v)
					return l && dg
				}
			}
			return false
		}
	}
	assigns := []assignRule{
		{kind: "aws-secret-key", keywords: []string{"aws", "secretaccesskey", "secret_access_key", "secret-access-key"},
			allowSpace: true, prio: prioContext, check: mixedB64(40)},
		{kind: "datadog-api-key", keywords: []string{"datadog", "dd_api_key", "dd_app_key", "dd-api-key", "dd-application-key", "dd_application_key"},
			allowSpace: true, prio: prioContext, check: hexN(32, 40)},
		{kind: "twilio-auth-token", keywords: []string{"twilio"}, allowSpace: true, prio: prioContext, check: hexN(32)},
		{kind: "heroku-key", keywords: []string{"heroku"}, allowSpace: true, prio: prioContext,
			check: func(v, _ string) bool { return isUUID(v) }},
		{kind: "mailgun-key", keywords: []string{"mailgun"}, allowSpace: true, prio: prioContext,
			check: func(v, _ string) bool { return reMailgun.MatchString(v) }},
		{kind: "discord-bot-token", keywords: []string{"discord"}, allowSpace: true, prio: prioContext,
			check: func(v, _ string) bool { return reDiscordFull.MatchString(v) }},
		{kind: "cli-password", keywords: []string{"pgpassword", "mysql_pwd", "sshpass", "rediscli_auth", "--password"},
			prio: prioHeader, check: envPassword},
		{kind: "docker-config-auth", keywords: []string{"auth", "identitytoken", "registrytoken"},
			prio: prioHeader, check: dockerAuth},
		{kind: "generic-secret", keywords: []string{"key", "token", "secret", "password", "passwd", "pwd", "credential", "creds", "auth"},
			prio: prioGeneric, check: genericValue},
	}
	return assigns
}

// allKinds: every rule id of our own table (sorted). The gitleaks rules
// add their ids (vendorRules).
var allKinds = []string{
	"age-secret-key", "anthropic-key", "aws-access-key", "aws-secret-key", "azure-shared-access-key",
	"azure-storage-key", "basic-auth", "bearer-token", "cli-password", "curl-auth-header", "curl-auth-user",
	"database-url", "datadog-api-key", "digitalocean-token", "discord-bot-token", "discord-webhook",
	"docker-config-auth", "generic-secret", "github-app-token", "github-oauth", "github-pat",
	"github-refresh-token", "gitlab-pat", "gitlab-token", "google-api-key", "google-oauth-secret",
	"google-oauth-token", "groq-key", "heroku-key", "huggingface-token", "jwt", "kubernetes-secret",
	"mailgun-key", "npm-token", "openai-key", "openrouter-key", "private-key", "pypi-token",
	"sendgrid-key", "shopify-token", "sk-api-key", "slack-app-token", "slack-token", "slack-webhook",
	"square-token", "stripe-key", "stripe-webhook-secret", "telegram-bot-token", "twilio-account-sid",
	"twilio-api-key", "twilio-auth-token", "url-credentials", "vault-batch-token", "vault-service-token",
	"xai-key",
}
