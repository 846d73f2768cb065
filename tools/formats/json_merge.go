package formats

import (
	"bytes"
	"slices"
	"strconv"
	"strings"
)

// The JSON codecs merge by patching the file where the reader found each value: a changed
// string is rewritten in place, a member that goes takes its separator with it, a new one
// is written after the member before it in the file's own indentation, key/colon spacing
// and escaping. Everything else keeps its bytes.

// jsonStyle is how a file writes what a Merge adds to it.
type jsonStyle struct {
	unit  string // one level of indentation; "" with compact, a file on one line
	colon string // between a key and its value: ": ", " : ", ":"
	// compact: members are not on lines of their own.
	compact bool
	// slash, ascii, html, upper: see jsonWriter.
	slash, ascii, html, upper bool
	// xcode writes new objects in Xcode's key order and its empty objects.
	xcode bool
}

// detectJSONStyle reads the style of data, whose tree is root.
func detectJSONStyle(data []byte, root *jsonNode) jsonStyle {
	st := jsonStyle{unit: "  ", colon: ": "}
	if root.Kind == jsonObject && len(root.Vals) > 0 {
		first := root.Vals[0]
		st.colon = string(data[keyEnd(data, first):first.Start])
		if ind, own := lineIndent(data, first.KeyStart); own {
			st.unit = ind
		} else {
			st.compact, st.unit = true, ""
		}
		if st.unit == "" && !st.compact {
			st.unit = "  "
		}
	}
	// Escapes are decided by what the file's strings hold: \/ without a bare /, \u escapes
	// of non-ASCII text without raw UTF-8, \u003c without a bare <.
	st.slash = bytes.Contains(data, []byte(`\/`))
	if i := bytes.Index(data, []byte(`\u`)); i >= 0 && i+6 <= len(data) {
		hex := data[i+2 : i+6]
		st.upper = bytes.ContainsAny(hex, "ABCDEF")
		st.ascii = !hasNonASCII(data) && hasNonASCIIEscape(data)
	}
	st.html = bytes.Contains(bytes.ToLower(data), []byte(`\u003c`)) && !bytes.Contains(data, []byte("<"))
	return st
}

func hasNonASCII(data []byte) bool {
	for _, c := range data {
		if c >= 0x80 {
			return true
		}
	}
	return false
}

// hasNonASCIIEscape: data escapes a character past ASCII (\u0080 and up).
func hasNonASCIIEscape(data []byte) bool {
	for i := 0; ; {
		j := bytes.Index(data[i:], []byte(`\u`))
		if j < 0 || i+j+6 > len(data) {
			return false
		}
		i += j + 2
		if !bytes.HasPrefix(data[i:], []byte("00")) || data[i+2] >= '8' {
			return true
		}
	}
}

// keyEnd is the offset just past the key of the member whose value is v.
func keyEnd(data []byte, v *jsonNode) int64 {
	i := v.Start - 1
	for i > v.KeyStart && data[i] != ':' {
		i--
	}
	for i > v.KeyStart && data[i-1] != '"' {
		i--
	}
	return i
}

// lineIndent is the indentation of the line at offset, and whether offset is the first
// thing on its line.
func lineIndent(data []byte, offset int64) (string, bool) {
	start := bytes.LastIndexByte(data[:offset], '\n') + 1
	ind := data[start:offset]
	own := len(bytes.TrimLeft(ind, " \t")) == 0 && start > 0
	if !own {
		ind = ind[:len(ind)-len(bytes.TrimLeft(ind, " \t"))]
	}
	return string(ind), own
}

// jsonPatch gathers the edits of a Merge on one parsed file.
type jsonPatch struct {
	data  []byte
	style jsonStyle
	edits []Edit
	conts map[*jsonNode]*contPatch
	order []*jsonNode // containers in the order they were first patched
	// replaced are the nodes written anew (replace).
	replaced []*jsonNode
}

// contPatch is what happens to one object's or array's members.
type contPatch struct {
	removed map[int]bool
	inserts []jsonInsert
}

type jsonInsert struct {
	after int // the member it follows, -1 for the first place
	key   string
	value *jsonNode
}

func newJSONPatch(data []byte, root *jsonNode) *jsonPatch {
	return &jsonPatch{data: data, style: detectJSONStyle(data, root), conts: map[*jsonNode]*contPatch{}}
}

func (p *jsonPatch) writer(prefix string) *jsonWriter {
	w := &jsonWriter{colon: p.style.colon, slash: p.style.slash, ascii: p.style.ascii, html: p.style.html, upper: p.style.upper, unit: p.style.unit, prefix: prefix}
	if p.style.xcode {
		w.xcodeEmpty, w.order = true, xcodeOrder
	}
	return w
}

// quote is s as a JSON string in the file's escaping.
func (p *jsonPatch) quote(s string) string {
	w := p.writer("")
	w.str(s)
	return w.b.String()
}

// write is v written as the value of a member whose line is indented by prefix.
func (p *jsonPatch) write(v *jsonNode, prefix string) string {
	w := p.writer(prefix)
	if p.style.compact {
		w.compact(v)
	} else {
		w.node(v, 0)
	}
	return w.b.String()
}

// setString rewrites n as the string s, unless it already is.
func (p *jsonPatch) setString(n *jsonNode, s string) {
	if n.Kind == jsonString && n.Str == s {
		return
	}
	p.edits = append(p.edits, Edit{Start: int(n.Start), End: int(n.End), Text: p.quote(s)})
}

// replace rewrites n as v, n being the value of a member (or item) of container c.
func (p *jsonPatch) replace(c, n, v *jsonNode) {
	p.replaced = append(p.replaced, n)
	p.edits = append(p.edits, Edit{Start: int(n.Start), End: int(n.End), Text: p.write(v, p.memberIndent(c))})
}

func (p *jsonPatch) cont(c *jsonNode) *contPatch {
	cp := p.conts[c]
	if cp == nil {
		cp = &contPatch{removed: map[int]bool{}}
		p.conts[c] = cp
		p.order = append(p.order, c)
	}
	return cp
}

// remove takes member i out of container c.
func (p *jsonPatch) remove(c *jsonNode, i int) { p.cont(c).removed[i] = true }

// insert adds key (ignored in an array) with value v to c after member after (-1: first).
func (p *jsonPatch) insert(c *jsonNode, after int, key string, v *jsonNode) {
	cp := p.cont(c)
	cp.inserts = append(cp.inserts, jsonInsert{after: after, key: key, value: v})
}

// memberStart is where member i of c starts: its key, or an array item itself.
func memberStart(c *jsonNode, i int) int64 {
	if c.Kind == jsonObject {
		return c.Vals[i].KeyStart
	}
	return c.Vals[i].Start
}

// memberIndent is the indentation of c's members: its first member's, else one level
// more than c's own line.
func (p *jsonPatch) memberIndent(c *jsonNode) string {
	if len(c.Vals) > 0 {
		ind, _ := lineIndent(p.data, memberStart(c, 0))
		return ind
	}
	ind, _ := lineIndent(p.data, c.Start)
	return ind + p.style.unit
}

// separator is what c writes between two members.
func (p *jsonPatch) separator(c *jsonNode) string {
	if len(c.Vals) >= 2 {
		return string(p.data[c.Vals[0].End:memberStart(c, 1)])
	}
	if p.style.compact {
		return ","
	}
	return ",\n" + p.memberIndent(c)
}

func (p *jsonPatch) member(c *jsonNode, in jsonInsert, prefix string) string {
	v := p.write(in.value, prefix)
	if c.Kind == jsonArray {
		return v
	}
	return p.quote(in.key) + p.style.colon + v
}

// bytes applies the edits to the file.
func (p *jsonPatch) bytes() ([]byte, error) {
	// A container inside a member that goes (or is written anew) has no edits of its own.
	dead := map[*jsonNode]bool{}
	for _, c := range p.order {
		cp := p.conts[c]
		for i := range cp.removed {
			markJSONTree(c.Vals[i], dead)
		}
		if len(cp.removed) == len(c.Vals) && len(cp.inserts) > 0 {
			for _, v := range c.Vals {
				markJSONTree(v, dead)
			}
		}
	}
	for _, n := range p.replaced {
		markJSONTree(n, dead)
	}
	for _, c := range p.order {
		if !dead[c] {
			p.containerEdits(c, p.conts[c])
		}
	}
	return Splice(p.data, p.edits)
}

// markJSONTree marks n and every node inside it.
func markJSONTree(n *jsonNode, marks map[*jsonNode]bool) {
	marks[n] = true
	for _, v := range n.Vals {
		markJSONTree(v, marks)
	}
}

func (p *jsonPatch) containerEdits(c *jsonNode, cp *contPatch) {
	n := len(c.Vals)
	kept := 0
	for i := range n {
		if !cp.removed[i] {
			kept++
		}
	}
	if kept == 0 && len(cp.inserts) > 0 {
		// Nothing to write beside: the container is written anew.
		fresh := &jsonNode{Kind: c.Kind}
		for _, in := range cp.inserts {
			fresh.Keys = append(fresh.Keys, in.key)
			fresh.Vals = append(fresh.Vals, in.value)
		}
		ind, _ := lineIndent(p.data, c.Start)
		p.edits = append(p.edits, Edit{Start: int(c.Start), End: int(c.End), Text: p.write(fresh, ind)})
		return
	}
	// Inserts first: one at the offset a removal starts at must come before it.
	sep, ind := p.separator(c), p.memberIndent(c)
	for _, in := range cp.inserts {
		at := in.after
		for at >= 0 && cp.removed[at] {
			at--
		}
		if at >= 0 {
			p.edits = append(p.edits, Edit{Start: int(c.Vals[at].End), End: int(c.Vals[at].End), Text: sep + p.member(c, in, ind)})
			continue
		}
		first := 0
		for cp.removed[first] {
			first++
		}
		start := int(memberStart(c, first))
		p.edits = append(p.edits, Edit{Start: start, End: start, Text: p.member(c, in, ind) + sep})
	}
	if kept == 0 && n > 0 {
		p.edits = append(p.edits, Edit{Start: int(c.Start) + 1, End: int(c.End) - 1})
		return
	}
	for a := 0; a < n; a++ {
		if !cp.removed[a] {
			continue
		}
		b := a
		for b+1 < n && cp.removed[b+1] {
			b++
		}
		if a > 0 {
			p.edits = append(p.edits, Edit{Start: int(c.Vals[a-1].End), End: int(c.Vals[b].End)})
		} else {
			p.edits = append(p.edits, Edit{Start: int(memberStart(c, a)), End: int(memberStart(c, b+1))})
		}
		a = b
	}
}

// jsonLeafAt is one leaf of a local file: its key (dotted in a nested file), its value,
// and the path of containers and member indexes leading to it.
type jsonLeafAt struct {
	key  string
	node *jsonNode
	path []jsonStep
}

type jsonStep struct {
	cont *jsonNode
	idx  int
}

// jsonWant is what theirs wants a leaf to be: a string, or an opaque value (ARB metadata)
// that is written when new and kept as it is when the file has it.
type jsonWant struct {
	key    string
	text   string
	opaque *jsonNode
}

// mergeJSONLeaves patches local (root its tree, leaves its leaves in file order) into wants,
// in theirs' order: a leaf wanted with other text is rewritten, one not wanted goes
// (unless keep says it stays), a wanted one local lacks is inserted after the member
// holding the nearest wanted leaf before it. With nested, a new key goes into the deepest
// object its dotted key runs through, creating the objects the rest of it names, by the
// nesting rule of doc.go: where a leaf has the name an object would take, the rest of the
// key is written whole beside it, and an object of the file that a new leaf's name meets
// is written flat ("a.b": ...) beside it.
func mergeJSONLeaves(local []byte, root *jsonNode, leaves []jsonLeafAt, wants []jsonWant, nested bool, keep func(key string) bool) ([]byte, error) {
	p := newJSONPatch(local, root)
	byKey := make(map[string]int, len(leaves))
	for i, l := range leaves {
		byKey[l.key] = i
	}
	pos := make(map[*jsonNode]int, len(wants)) // the want index of each leaf local has, by node
	wanted := make([]bool, len(leaves))
	for wi, w := range wants {
		i, ok := byKey[w.key]
		if !ok {
			continue
		}
		wanted[i] = true
		for _, s := range leaves[i].path {
			if old, seen := pos[s.cont.Vals[s.idx]]; !seen || wi < old {
				pos[s.cont.Vals[s.idx]] = wi
			}
		}
	}

	// Where each new leaf goes: its container and the segments below it. An object member
	// whose name a new leaf takes is written flat.
	type newLeaf struct {
		wi   int
		cont *jsonNode
		segs []string
	}
	parents := map[*jsonNode]*jsonNode{}
	var walk func(c *jsonNode)
	walk = func(c *jsonNode) {
		for _, v := range c.Vals {
			if isJSONContainer(v) {
				parents[v] = c
				walk(v)
			}
		}
	}
	walk(root)
	flat := map[*jsonNode]bool{}
	var news []newLeaf
	for changed := true; changed; {
		changed, news = false, news[:0]
		for wi, w := range wants {
			if _, ok := byKey[w.key]; ok {
				continue
			}
			cont, prefix := root, ""
			if nested {
				cont, prefix = deepestContainer(root, w.key, flat)
			}
			rest := w.key[len(prefix):]
			segs := []string{rest}
			if nested && nestable(rest) {
				segs = strings.Split(rest, ".")
			}
			news = append(news, newLeaf{wi, cont, segs})
		}
		// An object stays when a leaf of it stays or a new one goes into it.
		stays := map[*jsonNode]bool{}
		for n := range pos {
			stays[n] = true
		}
		for _, nl := range news {
			for c := nl.cont; c != nil; c = parents[c] {
				stays[c] = true
			}
		}
		for _, nl := range news {
			if len(nl.segs) == 1 && nl.cont.Kind == jsonObject {
				if i := nl.cont.index(nl.segs[0]); i >= 0 && !flat[nl.cont.Vals[i]] && isJSONContainer(nl.cont.Vals[i]) && stays[nl.cont.Vals[i]] {
					flat[nl.cont.Vals[i]], changed = true, true
				}
			}
		}
	}
	// Names taken in a container by a leaf that stays or comes, or by a flat object.
	taken := map[*jsonNode]map[string]bool{}
	take := func(c *jsonNode, name string) {
		if taken[c] == nil {
			taken[c] = map[string]bool{}
		}
		taken[c][name] = true
	}
	for i, l := range leaves {
		if wanted[i] && len(l.path) > 0 {
			s := l.path[len(l.path)-1]
			if s.cont.Kind == jsonObject {
				take(s.cont, s.cont.Keys[s.idx])
			}
		}
	}
	for _, nl := range news {
		if len(nl.segs) == 1 {
			take(nl.cont, nl.segs[0])
		}
	}

	inFlat := func(l jsonLeafAt) bool {
		for _, s := range l.path {
			if flat[s.cont.Vals[s.idx]] {
				return true
			}
		}
		return false
	}
	for _, w := range wants {
		if i, ok := byKey[w.key]; ok && w.opaque == nil && !inFlat(leaves[i]) {
			p.setString(leaves[i].node, w.text)
		}
	}
	// Flat objects: their leaves that stay, in file order, as members of their own.
	wantOf := make(map[string]int, len(wants))
	for wi, w := range wants {
		wantOf[w.key] = wi
	}
	// An object or array a new leaf's name meets goes when nothing in it stays (an empty
	// one has no leaf to take it away).
	for _, nl := range news {
		if len(nl.segs) == 1 && nl.cont.Kind == jsonObject {
			if i := nl.cont.index(nl.segs[0]); i >= 0 && isJSONContainer(nl.cont.Vals[i]) && !flat[nl.cont.Vals[i]] {
				p.remove(nl.cont, i)
			}
		}
	}
	for _, c := range p.flatten(root, flat) {
		if _, keeps := pos[c.cont.Vals[c.idx]]; !keeps {
			p.remove(c.cont, c.idx) // it goes, its leaves with it
			continue
		}
		var members []string
		for i, l := range leaves {
			if !wanted[i] || !slices.ContainsFunc(l.path, func(s jsonStep) bool { return s.cont == c.cont && s.idx == c.idx }) {
				continue
			}
			w := wants[wantOf[l.key]]
			v := w.opaque
			if v == nil {
				v = jsonStr(w.text)
			}
			rel := l.key[len(c.prefix):]
			members = append(members, p.quote(rel)+p.style.colon+p.write(v, p.memberIndent(c.cont)))
		}
		n := c.cont.Vals[c.idx]
		p.replaced = append(p.replaced, n)
		p.edits = append(p.edits, Edit{Start: int(memberStart(c.cont, c.idx)), End: int(n.End), Text: strings.Join(members, p.separator(c.cont))})
	}

	// New leaves: the container, the member they follow, the objects to create.
	created := map[jsonCreated]*jsonNode{}
	for _, nl := range news {
		w := wants[nl.wi]
		value := w.opaque
		if value == nil {
			value = jsonStr(w.text)
		}
		cont, segs := nl.cont, nl.segs
		// A name a leaf holds is no object: the rest goes whole beside it.
		if len(segs) > 1 && cont.Kind == jsonObject && taken[cont][segs[0]] {
			segs = []string{strings.Join(segs, ".")}
		}
		// Objects created for an earlier new key take this one too.
		at := jsonCreated{cont: cont}
		var into *jsonNode
		for len(segs) > 1 {
			next := at.below(segs[0])
			c, ok := created[next]
			if !ok {
				break
			}
			into, at, segs = c, next, segs[1:]
		}
		if into != nil {
			addJSONPath(into, at, segs, value, created)
			continue
		}
		top := jsonObj()
		addJSONPath(top, jsonCreated{cont: cont}, segs, value, created)
		after := -1
		for i, v := range cont.Vals {
			if at, ok := pos[v]; ok && at < nl.wi {
				after = i
			}
		}
		key := top.Keys[0]
		if cont.Kind == jsonArray {
			key = ""
		}
		p.insert(cont, after, key, top.Vals[0])
	}

	// Leaves that go; an object left with no member goes with them, unless a new leaf
	// goes into it.
	gone := map[*jsonNode]int{} // members removed per container
	for i, l := range leaves {
		if wanted[i] || keep != nil && keep(l.key) {
			continue
		}
		for d := len(l.path) - 1; d >= 0; d-- {
			s := l.path[d]
			p.remove(s.cont, s.idx)
			gone[s.cont]++
			if d == 0 || gone[s.cont] < len(s.cont.Vals) || len(p.cont(s.cont).inserts) > 0 {
				break
			}
		}
	}
	return p.bytes()
}

func isJSONContainer(n *jsonNode) bool { return n.Kind == jsonObject || n.Kind == jsonArray }

// jsonCreated names an object a Merge creates: the container of the file it goes into,
// and its path of segments below it.
type jsonCreated struct {
	cont *jsonNode
	rel  string
}

func (c jsonCreated) below(seg string) jsonCreated {
	if c.rel == "" {
		return jsonCreated{c.cont, seg}
	}
	return jsonCreated{c.cont, c.rel + "." + seg}
}

// addJSONPath puts value at segs below obj (a created object, at), creating objects and
// registering them in created. A segment that is a leaf of the object already ends the
// nesting: the rest goes whole beside it; a leaf whose name an object created before
// holds makes that object flat.
func addJSONPath(obj *jsonNode, at jsonCreated, segs []string, value *jsonNode, created map[jsonCreated]*jsonNode) {
	for len(segs) > 1 {
		i := obj.index(segs[0])
		if i >= 0 && obj.Vals[i].Kind != jsonObject {
			segs = []string{strings.Join(segs, ".")}
			break
		}
		if i < 0 {
			obj.Keys = append(obj.Keys, segs[0])
			obj.Vals = append(obj.Vals, jsonObj())
			i = len(obj.Vals) - 1
			created[at.below(segs[0])] = obj.Vals[i]
		}
		obj, at, segs = obj.Vals[i], at.below(segs[0]), segs[1:]
	}
	name := segs[0]
	if i := obj.index(name); i >= 0 {
		// An object created before under this name is written flat beside the leaf.
		sub := obj.Vals[i]
		obj.Keys = slices.Delete(obj.Keys, i, i+1)
		obj.Vals = slices.Delete(obj.Vals, i, i+1)
		var walk func(n *jsonNode, rel string, c jsonCreated)
		walk = func(n *jsonNode, rel string, c jsonCreated) {
			delete(created, c)
			for j, k := range n.Keys {
				if n.Vals[j].Kind == jsonObject {
					walk(n.Vals[j], rel+"."+k, c.below(k))
					continue
				}
				obj.Keys = append(obj.Keys, rel+"."+k)
				obj.Vals = append(obj.Vals, n.Vals[j])
			}
		}
		walk(sub, name, at.below(name))
	}
	obj.Keys = append(obj.Keys, name)
	obj.Vals = append(obj.Vals, value)
}

// jsonFlat is an object member written flat: container, member index, the container's
// path with a dot after it ("" for root).
type jsonFlat struct {
	cont   *jsonNode
	idx    int
	prefix string
}

// flatten finds the members of flat below root, outermost first (one inside another is
// written with it).
func (p *jsonPatch) flatten(root *jsonNode, flat map[*jsonNode]bool) []jsonFlat {
	var out []jsonFlat
	var walk func(c *jsonNode, prefix string)
	walk = func(c *jsonNode, prefix string) {
		for i, k := range containerKeys(c) {
			v := c.Vals[i]
			if flat[v] {
				out = append(out, jsonFlat{c, i, prefix})
				continue
			}
			if isJSONContainer(v) {
				walk(v, prefix+k+".")
			}
		}
	}
	if len(flat) > 0 {
		walk(root, "")
	}
	return out
}

// deepestContainer is the deepest object or array of root that a dotted key runs through,
// and its dotted path with a dot after it ("" for root: a key may be empty); it does not
// go into the members of flat.
func deepestContainer(root *jsonNode, key string, flat map[*jsonNode]bool) (*jsonNode, string) {
	cont, path := root, ""
	for {
		rest := key[len(path):]
		found := false
		for i, k := range containerKeys(cont) {
			v := cont.Vals[i]
			if isJSONContainer(v) && !flat[v] && strings.HasPrefix(rest, k+".") {
				cont, path, found = v, path+k+".", true
				break
			}
		}
		if !found {
			return cont, path
		}
	}
}

// containerKeys are an object's keys or an array's indexes.
func containerKeys(c *jsonNode) []string {
	if c.Kind == jsonObject {
		return c.Keys
	}
	keys := make([]string, len(c.Vals))
	for i := range keys {
		keys[i] = strconv.Itoa(i)
	}
	return keys
}
