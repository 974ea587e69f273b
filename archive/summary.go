package archive

import (
	"time"

	"canopy/internal/text"
	"canopy/sessiontree"
	"canopy/usage"
)

// Session is what the archive knows of one session: what its index row
// shows, how it links to other sessions, and how its page was made. It is
// kept in the manifest, so that a re-run learns it without loading
// sessions whose source did not change.
type Session struct {
	Source string `json:"source"` // Source.Path
	Page   string `json:"page"`   // the page, relative to the archive's root, slash-separated
	Format string `json:"format"` // as the loader names it: pi, oh-my-pi, flue, claude-code, codex
	// FormatVersion is the version of the program that wrote it, as it
	// writes it: Claude Code's "2.1.3", Codex's "0.46.0"; "" for pi and Flue.
	FormatVersion string `json:"formatVersion,omitempty"`

	ID           string            `json:"id,omitempty"`
	Title        string            `json:"title"` // the session's name, else its first prompt, else its id
	Named        bool              `json:"named,omitempty"`
	Project      string            `json:"project"` // the working directory
	Started      string            `json:"started,omitempty"`
	LastActivity string            `json:"lastActivity,omitempty"`
	Entries      int               `json:"entries"`
	Branches     int               `json:"branches"` // the conversation's leaves (sessiontree.Session.Shape)
	Models       []string          `json:"models,omitempty"`
	Usage        sessiontree.Usage `json:"usage"` // Usage.Cost: the cost the session records
	// The cost of the messages that record tokens and no cost (Claude
	// Code's, Codex's), estimated from genai-prices, and the models it has
	// no price for (sessiontree.Stats).
	EstimatedCost  float64  `json:"estimatedCost,omitempty"`
	CostEstimated  bool     `json:"costEstimated,omitempty"`
	UnpricedModels []string `json:"unpricedModels,omitempty"`
	// NoTokens: its agent records tokens, not prices, and no reply
	// recorded any (sessiontree.Stats): its cost is unknown, not zero.
	NoTokens bool `json:"noTokens,omitempty"`
	// Spend is what it spent by day and model (package usage), for the
	// archive's usage page.
	Spend       []usage.Spend `json:"spend,omitempty"`
	Silent      int           `json:"silent,omitempty"` // NO_REPLY and HEARTBEAT_OK turns
	Gateway     *GatewayInfo  `json:"gateway,omitempty"`
	Diagnostics int           `json:"diagnostics,omitempty"`
	// Secrets is how many credentials (distinct values) its source holds:
	// kept as they are in its page, as in an audit record, unless the
	// archive is made with --redact, which replaces them.
	Secrets  int       `json:"secrets,omitempty"`
	Rotation *Rotation `json:"rotation,omitempty"` // a transcript a gateway rotated: reset, deleted, backup
	Locked   bool      `json:"locked,omitzero"`    // archived as it stood, a lock file beside it

	// How it links to others, as written in the file.
	ParentSession string                     `json:"parentSession,omitempty"` // header: the session it was forked from
	Tasks         []sessiontree.ChildSession `json:"tasks,omitempty"`         // Flue metadata.taskSessions
	Agent         *AgentInfo                 `json:"agent,omitempty"`         // a Claude Code subagent's transcript

	// Stale, when set, says why this record and the session's page are
	// the ones an earlier run made: the source could not be archived by
	// the run that wrote the manifest (see PageRecord.Stale).
	Stale string `json:"stale,omitempty"`
}

// summarize reads what the index needs from a loaded session.
func summarize(s *sessiontree.Session, src Source) Session {
	out := Session{
		Source: src.Path, Format: s.Format, FormatVersion: s.FormatVersion, ID: s.Header.ID, Project: usage.Project(s, src.Path),
		Entries: len(s.Entries), ParentSession: s.Header.ParentSession, Tasks: s.ChildSessions,
		Gateway: src.Gateway, Diagnostics: len(s.Diagnostics) + s.Suppressed,
		Rotation: src.Rotation, Locked: src.Locked, Agent: agentInfo(s, src.Path),
	}
	// Started: when the session was created (its header), else its
	// earliest entry. A fork copies its parent's entries, old timestamps
	// and all: its header says when it began.
	var first, last time.Time
	created, err := time.Parse(time.RFC3339Nano, s.Header.Timestamp)
	hasCreated := err == nil
	out.Branches, _ = s.Shape() // the conversation's leaves: bookkeeping is never a branch
	for _, e := range s.Entries {
		if e.TimeOK {
			if first.IsZero() || e.Time.Before(first) {
				first = e.Time
			}
			if e.Time.After(last) {
				last = e.Time
			}
		}
		if e.Silent {
			out.Silent++
		}
	}
	if hasCreated {
		first = created
	}
	if !first.IsZero() {
		out.Started = first.UTC().Format(time.RFC3339)
	}
	if !last.IsZero() {
		out.LastActivity = last.UTC().Format(time.RFC3339)
	}
	out.Spend = usage.Of(s, time.Time{})
	st := s.Stats(s.Entries)
	out.Usage = st.Usage
	out.EstimatedCost, out.CostEstimated, out.NoTokens = st.EstimatedCost, st.CostEstimated, st.NoTokens
	for _, m := range st.Models {
		out.Models = append(out.Models, modelName(m))
	}
	for _, m := range st.UnpricedModels {
		out.UnpricedModels = append(out.UnpricedModels, text.Or(modelName(m), "(no model named)"))
	}
	out.Title, out.Named = s.Title(), s.Name != ""
	if out.Title == "" && src.Gateway != nil && src.Gateway.DisplayName != "" {
		out.Title = text.Clip(src.Gateway.DisplayName, 200)
	}
	if out.Title == "" {
		out.Title = "Session " + text.Or(s.Header.ID, src.Rel)
	}
	return out
}

func msTime(ms float64) string {
	return time.UnixMilli(int64(ms)).UTC().Format(time.RFC3339)
}

// modelName is "provider/model", or whichever of them is known.
func modelName(m sessiontree.Model) string { return usage.ModelName(m) }
