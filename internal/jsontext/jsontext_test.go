package jsontext

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestDecodeAgreesWithEncodingJSON(t *testing.T) {
	for _, in := range []string{
		`{"a": [1, 2.5, -3e2, true, false, null], "b": {"c": "d\n\"e\" \u00e9 \ud83d\ude00"}, "": []}`,
		`"plain"`, `[]`, `{}`, `  42  `,
	} {
		got, err := Decode([]byte(in))
		if err != nil {
			t.Fatalf("Decode(%s): %v", in, err)
		}
		var want any
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("Decode(%s) = %#v, want %#v", in, got, want)
		}
		// And what Encode writes, encoding/json reads back the same.
		var again any
		if err := json.Unmarshal(Encode(got), &again); err != nil || !reflect.DeepEqual(again, want) {
			t.Errorf("Encode(%#v) = %s, which reads back as %#v (%v)", got, Encode(got), again, err)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	deep := ""
	for i := 0; i < 1000; i++ {
		deep += "["
	}
	for _, in := range []string{``, `{`, `{"a" 1}`, `[1,]`, `"unterminated`, `tru`, `{"a":1} x`, "\"\x01\"", `"\x"`, deep} {
		if _, err := Decode([]byte(in)); err == nil {
			t.Errorf("Decode(%q) did not fail", in)
		}
	}
}

func TestObjectKeepsOrder(t *testing.T) {
	if got := string(Encode(Object{{"z", 1}, {"a", []string{"x", "y"}}, {"m", map[string]any{"b": nil, "a": 2.5}}})); got != `{"z":1,"a":["x","y"],"m":{"a":2.5,"b":null}}` {
		t.Errorf("Encode = %s", got)
	}
}

// An Object's members are found by name, the first of a repeated one.
func TestObjectGet(t *testing.T) {
	v, err := DecodeOrdered([]byte(`{"a": 1, "b": "x", "a": 2}`))
	if err != nil {
		t.Fatal(err)
	}
	o := v.(Object)
	if o.Index("b") != 1 || o.Index("c") != -1 || o.Get("a") != 1.0 || o.Get("b") != "x" || o.Get("c") != nil {
		t.Errorf("Index b %d, c %d; Get a %v, b %v, c %v", o.Index("b"), o.Index("c"), o.Get("a"), o.Get("b"), o.Get("c"))
	}
}
