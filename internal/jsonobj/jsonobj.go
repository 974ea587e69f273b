// Package jsonobj edits a JSON object as its members in order, each value
// kept as written: what a cut of a session (package scope, and each
// format's cut in package sessiontree) needs to change a line's members
// and leave every other byte of it alone.
package jsonobj

import (
	"bytes"
	"fmt"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Object is a JSON object as its members in order, values as written.
type Object []Member

// Member is one member of an Object.
type Member struct {
	Name  string
	Value jsontext.Value
}

// Parse reads a JSON object, duplicate names and invalid UTF-8 allowed.
func Parse(raw jsontext.Value) (Object, error) {
	d := jsontext.NewDecoder(bytes.NewReader(raw), jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))
	tok, err := d.ReadToken()
	if err != nil {
		return nil, err
	}
	if tok.Kind() != '{' {
		return nil, fmt.Errorf("not a JSON object")
	}
	var obj Object
	for d.PeekKind() != '}' {
		tok, err := d.ReadToken()
		if err != nil {
			return nil, err
		}
		name := tok.String() // a token is valid only until the next read
		v, err := d.ReadValue()
		if err != nil {
			return nil, err
		}
		obj = append(obj, Member{name, bytes.Clone(v)})
	}
	return obj, nil
}

// Get is the value of the first member called name, nil when none is.
func (o Object) Get(name string) jsontext.Value {
	for _, m := range o {
		if m.Name == name {
			return m.Value
		}
	}
	return nil
}

// Set sets the first member called name, or appends one.
func (o *Object) Set(name string, v jsontext.Value) {
	for i := range *o {
		if (*o)[i].Name == name {
			(*o)[i].Value = v
			return
		}
	}
	*o = append(*o, Member{name, v})
}

// SetString sets a member to a JSON string.
func (o *Object) SetString(name, s string) {
	v, _ := json.Marshal(s)
	o.Set(name, v)
}

// Del removes every member called name.
func (o *Object) Del(name string) {
	out := (*o)[:0]
	for _, m := range *o {
		if m.Name != name {
			out = append(out, m)
		}
	}
	*o = out
}

// Encode writes the object, its members in order.
func (o Object) Encode() []byte {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(m.Name)
		b.Write(name)
		b.WriteByte(':')
		b.Write(m.Value)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// Quote is s as a JSON string.
func Quote(s string) jsontext.Value {
	v, _ := jsontext.AppendQuote(nil, s)
	return v
}

// StringOf is a JSON string's value, "" for any other value.
func StringOf(v jsontext.Value) string {
	if v.Kind() != '"' {
		return ""
	}
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return ""
	}
	return s
}
