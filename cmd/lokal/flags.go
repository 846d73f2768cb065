package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Flags are parsed here rather than with the flag package: words and flags come in any
// order, and a flag that needs a value must not take the next flag as it (`--workspace
// --title X`), which the flag package cannot tell.

type flagKind int

const (
	stringFlag flagKind = iota
	listFlag            // comma-separated; --flag= clears
	boolFlag            // --flag or --flag=true|false
	intFlag
)

// flagDef is one flag a command takes.
type flagDef struct {
	name     string
	kind     flagKind
	arg      string // the value's placeholder in usage, such as ID or DSN
	usage    string
	env      string // variable read when the flag is not given
	def      string // default when neither is given
	required bool
}

// input is a parsed command line: the flags given, then the environment, then defaults.
type input struct {
	defs  map[string]flagDef
	given map[string]string // on the command line
	vals  map[string]string // given, or from the environment
}

// rawFlag is a flag as it appeared on the command line.
type rawFlag struct {
	name, value string
	hasValue    bool
}

// splitArgs separates words from flags using kinds, which says whether a flag takes a value
// (flags unknown to every command are kept for the command to refuse). help is true when
// -h or --help was given.
func splitArgs(args []string, kinds map[string]flagKind) (words []string, flags []rawFlag, help bool, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			words = append(words, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			words = append(words, a)
			continue
		}
		name := strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		name, value, hasValue := strings.Cut(name, "=")
		if name == "h" || name == "help" {
			help = true
			continue
		}
		kind, known := kinds[name]
		if !known || kind == boolFlag || hasValue {
			flags = append(flags, rawFlag{name: name, value: value, hasValue: hasValue})
			continue
		}
		if i+1 >= len(args) || (len(args[i+1]) > 1 && args[i+1][0] == '-') {
			return nil, nil, help, fmt.Errorf("--%s needs a value", name)
		}
		flags = append(flags, rawFlag{name: name, value: args[i+1], hasValue: true})
		i++
	}
	return words, flags, help, nil
}

// bind checks the flags against the command's definitions and fills in the environment.
func bind(cmd *command, flags []rawFlag) (*input, error) {
	in := &input{defs: map[string]flagDef{}, given: map[string]string{}, vals: map[string]string{}}
	for _, d := range cmd.allFlags() {
		in.defs[d.name] = d
	}
	for _, f := range flags {
		d, ok := in.defs[f.name]
		if !ok {
			return nil, fmt.Errorf("unknown flag --%s for lokal %s (see lokal help %s)", f.name, cmd.name, cmd.name)
		}
		v := f.value
		if d.kind == boolFlag && !f.hasValue {
			v = "true"
		}
		if err := checkValue(d, v, "--"+d.name); err != nil {
			return nil, err
		}
		in.given[d.name], in.vals[d.name] = v, v
	}
	for _, d := range in.defs {
		if _, ok := in.vals[d.name]; ok || d.env == "" {
			continue
		}
		if v := os.Getenv(d.env); v != "" {
			if err := checkValue(d, v, d.env); err != nil {
				return nil, err
			}
			in.vals[d.name] = v
		}
	}
	for _, d := range cmd.allFlags() {
		if !d.required {
			continue
		}
		if v, ok := in.vals[d.name]; !ok {
			return nil, fmt.Errorf("--%s is required (see lokal help %s)", d.name, cmd.name)
		} else if strings.TrimSpace(v) == "" {
			return nil, fmt.Errorf("--%s needs a value", d.name)
		}
	}
	return in, nil
}

func checkValue(d flagDef, v, where string) error {
	switch d.kind {
	case boolFlag:
		if v != "true" && v != "false" {
			return fmt.Errorf("%s takes true or false, not %q", where, v)
		}
	case intFlag:
		if _, err := strconv.Atoi(v); err != nil {
			return fmt.Errorf("%s takes a whole number, not %q", where, v)
		}
	}
	return nil
}

// str is the flag's value: given, from the environment, or the default.
func (in *input) str(name string) string {
	if v, ok := in.vals[name]; ok {
		return v
	}
	return in.mustDef(name).def
}

// has reports whether the flag was given on the command line.
func (in *input) has(name string) bool {
	_, ok := in.given[name]
	return ok
}

// opt is the flag's value when given on the command line, else nil: for commands that
// change only what they are told to.
func (in *input) opt(name string) *string {
	v, ok := in.given[name]
	if !ok {
		return nil
	}
	return &v
}

// list splits a list flag; "" is the empty list.
func (in *input) list(name string) []string {
	out := []string{}
	for _, v := range strings.Split(in.str(name), ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// optList is list when the flag was given on the command line, else nil.
func (in *input) optList(name string) *[]string {
	if !in.has(name) {
		return nil
	}
	l := in.list(name)
	return &l
}

func (in *input) boolean(name string) bool { return in.str(name) == "true" }

func (in *input) optBool(name string) *bool {
	if !in.has(name) {
		return nil
	}
	b := in.boolean(name)
	return &b
}

func (in *input) integer(name string) int {
	n, _ := strconv.Atoi(in.str(name)) // checked by bind; defaults are numbers
	return n
}

func (in *input) mustDef(name string) flagDef {
	d, ok := in.defs[name]
	if !ok {
		panic("lokal: flag --" + name + " is not declared by this command")
	}
	return d
}

// flagUsage lists every flag of a command, one a line, with its variable and default.
func flagUsage(defs []flagDef) string {
	var b strings.Builder
	left := make([]string, len(defs))
	width := 0
	for i, d := range defs {
		left[i] = "--" + d.name
		switch d.kind {
		case boolFlag:
			left[i] += "[=true|false]"
		default:
			left[i] += " " + d.arg
		}
		width = max(width, len(left[i]))
	}
	for i, d := range defs {
		var notes []string
		if d.required {
			notes = append(notes, "required")
		}
		if d.env != "" {
			notes = append(notes, "env "+d.env)
		}
		switch {
		case d.def != "":
			notes = append(notes, "default "+d.def)
		case d.kind == boolFlag:
			notes = append(notes, "default false")
		}
		line := d.usage
		if len(notes) > 0 {
			line += " (" + strings.Join(notes, "; ") + ")"
		}
		fmt.Fprintf(&b, "  %-*s  %s\n", width, left[i], line)
	}
	return b.String()
}

// flagKinds is the kind of every flag of every command; a name has one kind everywhere.
func flagKinds(cmds []*command) map[string]flagKind {
	kinds := map[string]flagKind{}
	for _, c := range cmds {
		for _, d := range c.allFlags() {
			kinds[d.name] = d.kind
		}
	}
	return kinds
}
