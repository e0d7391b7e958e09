package engine

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
)

func TestBadInput(t *testing.T) {
	ab := map[string]float64{"a": 2, "b": 3}
	tests := []struct {
		name   string
		graph  string // JSON
		leaves map[string]float64
		out    string
		kind   error
		says   string // the message must contain this
	}{
		{"unknown op", `[["p","mull",["a","b"]]]`, ab, "p", ErrUnknownOp, `node "p": unknown op "mull"`},
		{"missing op", `[["p","",["a","b"]]]`, ab, "p", ErrUnknownOp, `node "p": the op is missing`},
		{"too few inputs", `[["p","mul",["a"]]]`, ab, "p", ErrArity, `node "p": mul takes 2 inputs, got 1`},
		{"too many inputs", `[["p","tanh",["a","b"]]]`, ab, "p", ErrArity, `node "p": tanh takes 1 input, got 2`},
		{"undefined input", `[["p","mul",["a","c"]]]`, ab, "p", ErrUndefined, `node "p": input "c" is not defined earlier`},
		{"input defined later", `[["u","add",["p","a"]],["p","mul",["a","b"]]]`, ab, "u", ErrUndefined, `node "u": input "p" is not defined earlier`},
		{"self input", `[["p","mul",["p","a"]]]`, ab, "p", ErrUndefined, `node "p": uses itself`},
		{"duplicate node", `[["p","mul",["a","b"]],["p","add",["a","b"]]]`, ab, "p", ErrDuplicate, `node "p": defined twice, by entries 1 and 2`},
		{"node reuses a leaf's name", `[["a","mul",["b","b"]]]`, ab, "a", ErrDuplicate, `node "a": is both a leaf and a node`},
		{"empty name", `[["p","mul",["a","b"]],["","neg",["p"]]]`, ab, "p", ErrEmptyName, `entry 2 (after node "p"): empty name`},
		{"empty input name", `[["p","mul",["a",""]]]`, ab, "p", ErrEmptyName, `node "p": input 2 has an empty name`},
		{"out missing", `[["p","mul",["a","b"]]]`, ab, "L", ErrNoOutput, `"L" is not the name of a node or leaf`},
		{"NaN leaf", `[["p","mul",["a","b"]]]`, map[string]float64{"a": math.NaN(), "b": 1}, "p", ErrBadNumber, `leaf "a": not a finite number`},
		{"infinite leaf", `[["p","mul",["a","b"]]]`, map[string]float64{"a": 1, "b": math.Inf(-1)}, "p", ErrBadNumber, `leaf "b": not a finite number`},
		{"division by zero", `[["z","sub",["a","a"]],["q","div",["b","z"]]]`, ab, "q", ErrDivByZero, `node "q": division by zero: b / z with z = 0`},
		{"log of zero", `[["z","sub",["a","a"]],["l","log",["z"]]]`, ab, "l", ErrLogDomain, `node "l": log of a non-positive number: z = 0`},
		{"log of negative", `[["n","neg",["a"]],["l","log",["n"]]]`, ab, "l", ErrLogDomain, `z = -2`[:0] + `n = -2`},
		{"overflow", `[["e","exp",["big"]]]`, map[string]float64{"big": 1000}, "e", ErrNotFinite, `node "e": exp(big = 1000) is +Inf`},
		{"bad pow", `[["r","pow",["n"],0.5]]`, map[string]float64{"n": -1}, "r", ErrNotFinite, `node "r": pow(n = -1, 0.5) is NaN`},
		{"constant on add", `[["s","add",["a","b"],2]]`, ab, "s", ErrArity, `node "s": add takes no constant`},
		{"not a list", `{"p":1}`, ab, "p", ErrSyntax, `the graph must be a list`},
		{"entry not a list", `[["p","mul",["a","b"]], 7]`, ab, "p", ErrSyntax, `entry 2: expected [name, op, [inputs]], got a number`},
		{"name not a string", `[[1,"mul",["a","b"]]]`, ab, "p", ErrSyntax, `entry 1: the name must be a string, got a number`},
		{"op not a string", `[["p",null,["a","b"]]]`, ab, "p", ErrSyntax, `node "p": the op must be a string, got null`},
		{"inputs not a list", `[["p","mul","a"]]`, ab, "p", ErrSyntax, `node "p": the inputs must be a list of names, got a string`},
		{"input not a string", `[["p","mul",["a",2]]]`, ab, "p", ErrSyntax, `node "p": input 2 must be a name in quotes, got a number`},
		{"short entry", `[["p","mul"]]`, ab, "p", ErrSyntax, `node "p": expected [name, op, [inputs]], but the entry ends early`},
		{"long entry", `[["p","pow",["a"],2,3]]`, ab, "p", ErrSyntax, `at most four elements`},
		{"truncated", `[["p","mul",["a","b"]`, ab, "p", ErrSyntax, `the text ends`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			g, err := ParseGraph([]byte(tc.graph))
			if err == nil {
				var vals map[string]float64
				vals, err = Evaluate(g, tc.leaves)
				if err == nil {
					_, err = Backward(g, vals, tc.out)
				}
			}
			if err == nil {
				t.Fatalf("no error, want %v", tc.kind)
			}
			if !errors.Is(err, tc.kind) {
				t.Errorf("error %q is not %v", err, tc.kind)
			}
			if !strings.Contains(err.Error(), tc.says) {
				t.Errorf("error %q does not say %q", err, tc.says)
			}
		})
	}
}

func TestBackwardNeedsValues(t *testing.T) {
	g := Graph{{"p", "mul", []string{"a", "b"}, 0}}
	_, err := Backward(g, map[string]float64{"a": 1, "b": 2}, "p")
	if !errors.Is(err, ErrMissingValue) || !strings.Contains(err.Error(), `node "p": has no value`) {
		t.Errorf("backward without node values: %v", err)
	}
	// A leaf as the output: its own gradient is 1, every other 0.
	grads, err := Backward(g, map[string]float64{"a": 1, "b": 2, "p": 2}, "a")
	if err != nil || grads["a"] != 1 || grads["p"] != 0 || grads["b"] != 0 {
		t.Errorf("backward from a leaf: %v %v", grads, err)
	}
}

func TestParseValues(t *testing.T) {
	names, vals, err := ParseValues([]byte(` {"b": 3, "a": -2.5e0} `))
	if err != nil || strings.Join(names, ",") != "b,a" || vals[0] != 3 || vals[1] != -2.5 {
		t.Errorf("got %v %v %v", names, vals, err)
	}
	for in, says := range map[string]string{
		`[1]`:              "must be an object",
		`{"a": null}`:      `leaf "a": not a finite number: got null`,
		`{"a": "2"}`:       `leaf "a": not a finite number: got a string`,
		`{"a": 1, "a": 2}`: `leaf "a": duplicate name`,
		`{"": 1}`:          "empty name",
		`{"a": 1e999}`:     `leaf "a"`,
		`{"a" 1}`:          "expected ':'",
	} {
		if _, _, err := ParseValues([]byte(in)); err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("ParseValues(%s) = %v, want an error saying %q", in, err, says)
		}
	}
}

func TestParseGraphShapes(t *testing.T) {
	g, err := ParseGraph([]byte(`[["p","mul",["a","b"]], ["y","pow",["p"],3], ["n\u00e9","neg",["y"]], ["k","add",[]]]`))
	if err != nil {
		t.Fatal(err)
	}
	if len(g) != 4 || g[1].K != 3 || g[2].Name != "né" || len(g[3].Inputs) != 0 {
		t.Errorf("parsed %+v", g)
	}
	if g, err := ParseGraph([]byte(` [ ] `)); err != nil || len(g) != 0 {
		t.Errorf("empty graph: %v %v", g, err)
	}
}

func TestJSONStrings(t *testing.T) {
	for _, s := range []string{"plain", `q"uote`, `back\slash`, "tab\tnew\nline", "\x01ctl", "né 𝛁 ∂", "\u2028", "😀"} {
		name, _ := json.Marshal(s)
		g, err := ParseGraph([]byte(`[[` + string(name) + `, "neg", ["a"]]]`))
		if err != nil || g[0].Name != s {
			t.Errorf("decoding the name %s = %+v, %v; want %q", name, g, err, s)
		}
	}
	if g, err := ParseGraph([]byte(`[["\ud83d\ude00 \u00e9", "neg", ["a"]]]`)); err != nil || g[0].Name != "😀 é" {
		t.Errorf("surrogates: %+v %v", g, err)
	}
}
