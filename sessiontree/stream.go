package sessiontree

import (
	"bytes"

	"github.com/go-json-experiment/json/jsontext"
)

// decodeRecords decodes the records of a line format: the input's lines,
// or, for whole-file JSON (p.stream: a stream of pretty-printed objects,
// as jq writes them), its top-level values, each read as a line is, with
// the line it starts on as its line number.
func decodeRecords[T any](in *input, p *probe, newDecoder func() lineDecoder[T]) ([]T, error) {
	if !p.stream {
		return decodeLines(in, p.first, newDecoder)
	}
	data, err := in.all(p.first)
	if err != nil {
		return nil, err
	}
	recs := splitValues(data[p.bom:], int64(p.bom))
	out := make([]T, len(recs))
	newDecoder()(recs, out)
	return out, nil
}

// splitValues cuts whole-file JSON into its top-level values. off is
// data's offset in the input. What cannot be read as JSON (a syntax
// error, a value cut short) is one last record holding the rest, marked
// last: the decoders report it as a broken line.
func splitValues(data []byte, off int64) []rawLine {
	d := jsontext.NewDecoder(bytes.NewReader(data), jsonOpts)
	var recs []rawLine
	line, lineAt := int32(1), 0
	lineOf := func(at int) int32 {
		line += int32(bytes.Count(data[lineAt:at], []byte{'\n'}))
		lineAt = at
		return line
	}
	end := 0 // past the last value read
	for {
		v, err := d.ReadValue()
		if err != nil {
			break
		}
		at := int(d.InputOffset()) - len(v)
		recs = append(recs, rawLine{text: data[at : at+len(v)], off: off + int64(at), n: lineOf(at)})
		end = at + len(v)
	}
	rest := data[end:]
	if t, lead := trimSpace(rest); len(t) > 0 {
		at := end + lead
		recs = append(recs, rawLine{text: t, off: off + int64(at), n: lineOf(at), last: true})
	}
	return recs
}
