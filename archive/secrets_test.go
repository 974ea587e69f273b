package archive

import "testing"

func TestSecretsHeld(t *testing.T) {
	sub := &AgentInfo{}
	for _, c := range []struct {
		ss   []Session
		want string
	}{
		{nil, ""},
		{[]Session{{}, {}}, ""},
		{[]Session{{Secrets: 4}, {}}, "1 session holds credentials (4 secrets in all)"},
		{[]Session{{Secrets: 1}}, "1 session holds credentials (1 secret in all)"},
		{[]Session{{Secrets: 4}, {Secrets: 2}, {Secrets: 1, Agent: sub}}, "2 sessions and 1 subagent hold credentials (7 secrets in all)"},
		{[]Session{{Secrets: 3, Agent: sub}}, "1 subagent holds credentials (3 secrets in all)"},
	} {
		if got := SecretsHeld(c.ss); got != c.want {
			t.Errorf("SecretsHeld(%+v) = %q, want %q", c.ss, got, c.want)
		}
	}
}
