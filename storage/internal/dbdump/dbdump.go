package dbdump

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/uptrace/bun/driver/pgdriver"
	_ "modernc.org/sqlite" // the "sqlite" driver
)

// The dialects, named as storage names them.
const (
	SQLite   = "sqlite"
	Postgres = "postgres"
)

// Open connects to a lokal DSN ("sqlite:PATH" or "postgres://...") with a plain
// database/sql pool of one connection. PostgreSQL sessions write times in UTC, so that a
// dump does not depend on the server's time zone.
func Open(dsn string) (*sql.DB, string, error) {
	if path, ok := strings.CutPrefix(dsn, "sqlite:"); ok {
		db, err := sql.Open("sqlite", "file:"+path+"?_pragma=busy_timeout(10000)")
		if err != nil {
			return nil, "", err
		}
		db.SetMaxOpenConns(1)
		return db, SQLite, nil
	}
	u, err := url.Parse(dsn)
	if err != nil {
		return nil, "", fmt.Errorf("parsing the DSN: %w", err)
	}
	q := u.Query()
	q.Set("TimeZone", "UTC") // the driver passes parameters it does not know to the session
	u.RawQuery = q.Encode()
	db := sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(u.String())))
	db.SetMaxOpenConns(1)
	return db, Postgres, nil
}

// Dump is a restorable copy of a database: Load runs DDL, inserts Tables' rows, then runs
// Post (PostgreSQL's foreign keys and indexes, which would slow or refuse the inserts).
type Dump struct {
	Dialect string
	DDL     []string
	Tables  []Table
	Post    []string
}

// Table is one table's rows, each value a SQL literal.
type Table struct {
	Name    string
	Columns []string
	Rows    [][]string
}

// Take reads the whole database.
func Take(ctx context.Context, db *sql.DB, dialect string) (*Dump, error) {
	d := &Dump{Dialect: dialect}
	tables, err := tableNames(ctx, db, dialect)
	if err != nil {
		return nil, err
	}
	if dialect == SQLite {
		// A virtual table's shadow tables come with it, and its rows are derived (Load
		// rebuilds full-text indexes); triggers wait until the rows are in, so that loading
		// them fires nothing.
		derived := map[string]bool{}
		if err := scan(ctx, db, func(s string) { derived[s] = true },
			`SELECT name FROM pragma_table_list WHERE type IN ('shadow', 'virtual')`); err != nil {
			return nil, fmt.Errorf("listing virtual tables: %w", err)
		}
		if err := scan(ctx, db, func(s string) { d.DDL = append(d.DDL, s) },
			`SELECT sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\_%' ESCAPE '\' AND type IN ('table', 'index')
				AND name NOT IN (SELECT name FROM pragma_table_list WHERE type = 'shadow') ORDER BY type DESC, rowid`); err != nil {
			return nil, fmt.Errorf("reading the schema: %w", err)
		}
		if err := scan(ctx, db, func(s string) { d.Post = append(d.Post, s) },
			`SELECT sql FROM sqlite_master WHERE type = 'trigger' ORDER BY rowid`); err != nil {
			return nil, fmt.Errorf("reading the triggers: %w", err)
		}
		tables = slices.DeleteFunc(tables, func(t string) bool { return derived[t] })
		// AUTOINCREMENT's counters: restored after the tables that create their table.
		var n int
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_master WHERE name = 'sqlite_sequence'`).Scan(&n); err != nil {
			return nil, err
		}
		if n > 0 {
			tables = append(tables, "sqlite_sequence")
		}
	} else {
		for _, t := range tables {
			create, post, err := pgTableDDL(ctx, db, t)
			if err != nil {
				return nil, err
			}
			d.DDL = append(d.DDL, create)
			d.Post = append(d.Post, post...)
		}
	}
	for _, t := range tables {
		cols, err := Columns(ctx, db, dialect, t)
		if err != nil {
			return nil, err
		}
		rows, err := Rows(ctx, db, dialect, t, cols)
		if err != nil {
			return nil, err
		}
		d.Tables = append(d.Tables, Table{Name: t, Columns: cols, Rows: rows})
	}
	return d, nil
}

// fts5Table is the name in a CREATE VIRTUAL TABLE of a full-text index.
var fts5Table = regexp.MustCompile(`(?i)^CREATE VIRTUAL TABLE (?:IF NOT EXISTS )?"?(\w+)"? USING fts5\(`)

// Load replays d into db, which must have no tables of d's yet.
func Load(ctx context.Context, db *sql.DB, d *Dump) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback() //nolint:errcheck
	exec := func(q string) error {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return fmt.Errorf("%s: %w", firstLine(q), err)
		}
		return nil
	}
	if d.Dialect == Postgres {
		// Indexes name extensions' operator classes (pg_trgm's) unqualified: they are found
		// in the extensions' schemas, which need not be this connection's.
		if err := exec(`SELECT set_config('search_path', current_setting('search_path') || COALESCE((SELECT string_agg(', ' || quote_ident(n.nspname), '')
			FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE n.nspname <> 'pg_catalog'), ''), true)`); err != nil {
			return err
		}
	}
	for _, q := range d.DDL {
		if err := exec(q); err != nil {
			return err
		}
	}
	for _, t := range d.Tables {
		if t.Name == "sqlite_sequence" {
			// The inserts above counted their ids; the release's counters replace them.
			if err := exec("DELETE FROM sqlite_sequence"); err != nil {
				return err
			}
		}
		cols := make([]string, len(t.Columns))
		for i, c := range t.Columns {
			cols[i] = Ident(c)
		}
		for _, r := range t.Rows {
			if err := exec("INSERT INTO " + Ident(t.Name) + " (" + strings.Join(cols, ", ") + ") VALUES (" + strings.Join(r, ", ") + ")"); err != nil {
				return err
			}
		}
	}
	for _, q := range d.Post {
		if err := exec(q); err != nil {
			return err
		}
	}
	if d.Dialect == SQLite {
		for _, q := range d.DDL {
			if m := fts5Table.FindStringSubmatch(q); m != nil {
				if err := exec("INSERT INTO " + Ident(m[1]) + " (" + Ident(m[1]) + ") VALUES ('rebuild')"); err != nil {
					return err
				}
			}
		}
	}
	if d.Dialect == Postgres {
		// The serial counters continue after the rows, as they did in the release.
		rows, err := tx.QueryContext(ctx, `SELECT c.relname, a.attname FROM pg_attribute a
			JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
			WHERE n.nspname = current_schema() AND c.relkind = 'r' AND a.attnum > 0
			AND pg_get_serial_sequence(quote_ident(c.relname), a.attname) IS NOT NULL`)
		if err != nil {
			return fmt.Errorf("listing serial columns: %w", err)
		}
		var serials [][2]string
		for rows.Next() {
			var s [2]string
			if err := rows.Scan(&s[0], &s[1]); err != nil {
				rows.Close()
				return err
			}
			serials = append(serials, s)
		}
		rows.Close()
		for _, s := range serials {
			if err := exec(fmt.Sprintf(`SELECT setval(pg_get_serial_sequence(%s, %s), COALESCE(MAX(%s), 0) + 1, false) FROM %s`,
				Literal(Ident(s[0])), Literal(s[1]), Ident(s[1]), Ident(s[0]))); err != nil {
				return err
			}
		}
	}
	return tx.Commit()
}

// Columns lists a table's columns in their order.
func Columns(ctx context.Context, db *sql.DB, dialect, table string) ([]string, error) {
	q := `SELECT name FROM pragma_table_info(?) ORDER BY cid`
	if dialect == Postgres {
		q = `SELECT a.attname FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
			JOIN pg_namespace n ON n.oid = c.relnamespace
			WHERE n.nspname = current_schema() AND c.relname = $1 AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`
	}
	var cols []string
	if err := scan(ctx, db, func(s string) { cols = append(cols, s) }, q, table); err != nil {
		return nil, fmt.Errorf("listing the columns of %s: %w", table, err)
	}
	return cols, nil
}

// Rows reads cols of every row of table as SQL literals, sorted.
func Rows(ctx context.Context, db *sql.DB, dialect, table string, cols []string) ([][]string, error) {
	sel := make([]string, len(cols))
	for i, c := range cols {
		if dialect == SQLite {
			sel[i] = "quote(" + Ident(c) + ")"
		} else {
			sel[i] = Ident(c) + "::text"
		}
	}
	rs, err := db.QueryContext(ctx, "SELECT "+strings.Join(sel, ", ")+" FROM "+Ident(table))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", table, err)
	}
	defer rs.Close()
	var out [][]string
	for rs.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rs.Scan(ptrs...); err != nil {
			return nil, fmt.Errorf("reading %s: %w", table, err)
		}
		row := make([]string, len(cols))
		for i, v := range vals {
			switch {
			case dialect == SQLite:
				row[i] = v.String // quote() wrote the literal
			case !v.Valid:
				row[i] = "NULL"
			default:
				row[i] = Literal(v.String)
			}
		}
		out = append(out, row)
	}
	if err := rs.Err(); err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool { return strings.Join(out[i], "\x00") < strings.Join(out[j], "\x00") })
	return out, nil
}

// TableNames lists the database's tables, sorted.
func TableNames(ctx context.Context, db *sql.DB, dialect string) ([]string, error) {
	ts, err := tableNames(ctx, db, dialect)
	sort.Strings(ts)
	return ts, err
}

// tableNames lists the tables in the order they were created.
func tableNames(ctx context.Context, db *sql.DB, dialect string) ([]string, error) {
	q := `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY rowid`
	if dialect == Postgres {
		q = `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
			WHERE n.nspname = current_schema() AND c.relkind = 'r' ORDER BY c.oid`
	}
	var ts []string
	if err := scan(ctx, db, func(s string) { ts = append(ts, s) }, q); err != nil {
		return nil, fmt.Errorf("listing tables: %w", err)
	}
	return ts, nil
}

// pgColumn is one column as PostgreSQL's catalogue describes it.
type pgColumn struct {
	name, typ, def string
	notNull        bool
}

func pgColumns(ctx context.Context, db *sql.DB, table string) ([]pgColumn, error) {
	rs, err := db.QueryContext(ctx, `SELECT a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull,
			COALESCE(pg_get_expr(d.adbin, d.adrelid), '')
		FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
		LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
		WHERE n.nspname = current_schema() AND c.relname = $1 AND a.attnum > 0 AND NOT a.attisdropped
		ORDER BY a.attnum`, table)
	if err != nil {
		return nil, fmt.Errorf("reading the columns of %s: %w", table, err)
	}
	defer rs.Close()
	var cols []pgColumn
	for rs.Next() {
		var c pgColumn
		if err := rs.Scan(&c.name, &c.typ, &c.notNull, &c.def); err != nil {
			return nil, err
		}
		cols = append(cols, c)
	}
	return cols, rs.Err()
}

// pgConstraint is a table constraint: its name, kind (p, u, f, c) and definition.
type pgConstraint struct{ name, kind, def string }

func pgConstraints(ctx context.Context, db *sql.DB, table string) ([]pgConstraint, error) {
	rs, err := db.QueryContext(ctx, `SELECT k.conname, k.contype::text, pg_get_constraintdef(k.oid)
		FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = current_schema() AND c.relname = $1 ORDER BY k.contype, k.conname`, table)
	if err != nil {
		return nil, fmt.Errorf("reading the constraints of %s: %w", table, err)
	}
	defer rs.Close()
	var ks []pgConstraint
	for rs.Next() {
		var k pgConstraint
		if err := rs.Scan(&k.name, &k.kind, &k.def); err != nil {
			return nil, err
		}
		ks = append(ks, k)
	}
	return ks, rs.Err()
}

// onSchema is the schema name pg_get_indexdef puts before the table.
var onSchema = regexp.MustCompile(` ON (?:"[^"]+"|[a-z_0-9]+)\.`)

// opsSchema is the schema it puts before an operator class (pg_trgm's) that is not on the
// reader's search_path: the same index reads differently from another schema.
var opsSchema = regexp.MustCompile(` (?:"[^"]+"|[a-z_0-9]+)\.([a-z_0-9]+_ops)\b`)

// pgIndexes lists the definitions of a table's indexes that no constraint owns, without
// their schema, so they replay into any schema.
func pgIndexes(ctx context.Context, db *sql.DB, table string) ([]string, error) {
	var out []string
	err := scan(ctx, db, func(s string) {
		out = append(out, opsSchema.ReplaceAllString(onSchema.ReplaceAllString(s, " ON "), " $1"))
	},
		`SELECT pg_get_indexdef(i.indexrelid) FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid
			JOIN pg_namespace n ON n.oid = c.relnamespace JOIN pg_class ic ON ic.oid = i.indexrelid
		WHERE n.nspname = current_schema() AND c.relname = $1
			AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conrelid = i.indrelid AND k.conindid = i.indexrelid)
		ORDER BY ic.relname`, table)
	if err != nil {
		return nil, fmt.Errorf("reading the indexes of %s: %w", table, err)
	}
	return out, nil
}

// serialDefault is the default a SERIAL or BIGSERIAL column gets.
var serialDefault = regexp.MustCompile(`^nextval\('[^']+'::regclass\)$`)

// pgTableDDL is the CREATE TABLE of a PostgreSQL table, and the foreign keys and indexes
// to add once its rows are in.
func pgTableDDL(ctx context.Context, db *sql.DB, table string) (string, []string, error) {
	cols, err := pgColumns(ctx, db, table)
	if err != nil {
		return "", nil, err
	}
	ks, err := pgConstraints(ctx, db, table)
	if err != nil {
		return "", nil, err
	}
	ixs, err := pgIndexes(ctx, db, table)
	if err != nil {
		return "", nil, err
	}
	var defs, post []string
	for _, c := range cols {
		typ, def := c.typ, c.def
		if serialDefault.MatchString(def) {
			switch typ {
			case "bigint":
				typ, def = "BIGSERIAL", ""
			case "integer":
				typ, def = "SERIAL", ""
			}
		}
		s := Ident(c.name) + " " + typ
		if c.notNull {
			s += " NOT NULL"
		}
		if def != "" {
			s += " DEFAULT " + def
		}
		defs = append(defs, s)
	}
	for _, k := range ks {
		if k.kind == "f" {
			post = append(post, "ALTER TABLE "+Ident(table)+" ADD CONSTRAINT "+Ident(k.name)+" "+k.def)
			continue
		}
		defs = append(defs, "CONSTRAINT "+Ident(k.name)+" "+k.def)
	}
	return "CREATE TABLE " + Ident(table) + " (\n\t" + strings.Join(defs, ",\n\t") + "\n)", append(post, ixs...), nil
}

// Schema is the database's schema as sorted text: two databases built by different
// routes (a fresh one, an upgraded one) with equal schemas give equal text. Column order
// is left out: an upgrade appends the columns a fresh database has in its middle.
func Schema(ctx context.Context, db *sql.DB, dialect string) (string, error) {
	tables, err := TableNames(ctx, db, dialect)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, t := range tables {
		var lines []string
		if dialect == SQLite {
			lines, err = sqliteSchema(ctx, db, t)
		} else {
			lines, err = pgSchema(ctx, db, t)
		}
		if err != nil {
			return "", err
		}
		sort.Strings(lines)
		fmt.Fprintf(&b, "%s: table\n", t)
		for _, l := range lines {
			fmt.Fprintf(&b, "%s: %s\n", t, l)
		}
	}
	return b.String(), nil
}

func pgSchema(ctx context.Context, db *sql.DB, table string) ([]string, error) {
	cols, err := pgColumns(ctx, db, table)
	if err != nil {
		return nil, err
	}
	ks, err := pgConstraints(ctx, db, table)
	if err != nil {
		return nil, err
	}
	ixs, err := pgIndexes(ctx, db, table)
	if err != nil {
		return nil, err
	}
	var lines []string
	for _, c := range cols {
		l := "column " + c.name + " " + c.typ
		if c.notNull {
			l += " not null"
		}
		if c.def != "" {
			l += " default " + c.def
		}
		lines = append(lines, l)
	}
	for _, k := range ks {
		lines = append(lines, "constraint "+k.name+" "+k.def)
	}
	for _, ix := range ixs {
		lines = append(lines, "index "+ix)
	}
	return lines, nil
}

// partialWhere is the condition of a partial index in its CREATE INDEX.
var partialWhere = regexp.MustCompile(`(?is)\)\s+WHERE\s+(.*)$`)

func sqliteSchema(ctx context.Context, db *sql.DB, table string) ([]string, error) {
	var lines []string
	rs, err := db.QueryContext(ctx, `SELECT name, type, "notnull", COALESCE(dflt_value, ''), pk FROM pragma_table_info(?)`, table)
	if err != nil {
		return nil, fmt.Errorf("reading the columns of %s: %w", table, err)
	}
	for rs.Next() {
		var name, typ, def string
		var notNull bool
		var pk int
		if err := rs.Scan(&name, &typ, &notNull, &def, &pk); err != nil {
			rs.Close()
			return nil, err
		}
		l := "column " + name + " " + strings.ToUpper(typ)
		if notNull {
			l += " not null"
		}
		if def != "" {
			l += " default " + def
		}
		if pk > 0 {
			l += fmt.Sprintf(" primary key %d", pk)
		}
		lines = append(lines, l)
	}
	rs.Close()
	var create string
	if err := db.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?`, table).Scan(&create); err != nil {
		return nil, err
	}
	if strings.Contains(strings.ToUpper(create), "AUTOINCREMENT") {
		lines = append(lines, "autoincrement")
	}

	type ix struct {
		name, origin string
		unique       bool
	}
	var ixs []ix
	rs, err = db.QueryContext(ctx, `SELECT name, "unique", origin FROM pragma_index_list(?)`, table)
	if err != nil {
		return nil, fmt.Errorf("reading the indexes of %s: %w", table, err)
	}
	for rs.Next() {
		var x ix
		if err := rs.Scan(&x.name, &x.unique, &x.origin); err != nil {
			rs.Close()
			return nil, err
		}
		ixs = append(ixs, x)
	}
	rs.Close()
	for _, x := range ixs {
		if x.origin == "pk" {
			continue
		}
		var cols []string
		if err := scan(ctx, db, func(s string) { cols = append(cols, s) },
			`SELECT COALESCE(name, '<expr>') FROM pragma_index_info(?) ORDER BY seqno`, x.name); err != nil {
			return nil, err
		}
		l := "index " + x.name
		if x.origin == "u" {
			l = "unique constraint" // named by position in CREATE TABLE: not part of the schema
		} else if x.unique {
			l += " unique"
		}
		l += " (" + strings.Join(cols, ", ") + ")"
		if x.origin == "c" {
			var sqlText string
			if err := db.QueryRowContext(ctx, `SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?`, x.name).Scan(&sqlText); err != nil {
				return nil, err
			}
			if m := partialWhere.FindStringSubmatch(sqlText); m != nil {
				l += " where " + strings.Join(strings.Fields(m[1]), " ")
			}
		}
		lines = append(lines, l)
	}

	rs, err = db.QueryContext(ctx, `SELECT "table", "from", COALESCE("to", ''), on_update, on_delete FROM pragma_foreign_key_list(?)`, table)
	if err != nil {
		return nil, fmt.Errorf("reading the foreign keys of %s: %w", table, err)
	}
	defer rs.Close()
	for rs.Next() {
		var parent, from, to, onUpdate, onDelete string
		if err := rs.Scan(&parent, &from, &to, &onUpdate, &onDelete); err != nil {
			return nil, err
		}
		lines = append(lines, fmt.Sprintf("foreign key (%s) references %s (%s) on update %s on delete %s", from, parent, to, onUpdate, onDelete))
	}
	return lines, rs.Err()
}

// The text form of a dump: a line per item, "KIND JSON", so that a fixture diffs by line.
//
//	dialect "sqlite"
//	ddl "CREATE TABLE ..."
//	table ["name", "col", ...]
//	row ["'literal'", "1", "NULL"]
//	post "ALTER TABLE ..."

// Format writes d as text.
func (d *Dump) Format() []byte {
	var b bytes.Buffer
	line := func(kind string, v any) {
		j, err := json.Marshal(v)
		if err != nil {
			panic(err) // strings and slices of strings always marshal
		}
		b.WriteString(kind + " ")
		b.Write(j)
		b.WriteByte('\n')
	}
	line("dialect", d.Dialect)
	for _, q := range d.DDL {
		line("ddl", q)
	}
	for _, t := range d.Tables {
		line("table", append([]string{t.Name}, t.Columns...))
		for _, r := range t.Rows {
			line("row", r)
		}
	}
	for _, q := range d.Post {
		line("post", q)
	}
	return b.Bytes()
}

// Parse reads the text Format wrote.
func Parse(text []byte) (*Dump, error) {
	d := &Dump{}
	sc := bufio.NewScanner(bytes.NewReader(text))
	sc.Buffer(nil, 16<<20)
	for n := 1; sc.Scan(); n++ {
		kind, payload, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			return nil, fmt.Errorf("line %d: no payload", n)
		}
		var s string
		var list []string
		var err error
		switch kind {
		case "dialect", "ddl", "post":
			err = json.Unmarshal([]byte(payload), &s)
		case "table", "row":
			err = json.Unmarshal([]byte(payload), &list)
		default:
			err = fmt.Errorf("unknown kind %q", kind)
		}
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		switch kind {
		case "dialect":
			d.Dialect = s
		case "ddl":
			d.DDL = append(d.DDL, s)
		case "post":
			d.Post = append(d.Post, s)
		case "table":
			if len(list) == 0 {
				return nil, fmt.Errorf("line %d: a table without a name", n)
			}
			d.Tables = append(d.Tables, Table{Name: list[0], Columns: list[1:]})
		case "row":
			if len(d.Tables) == 0 || len(list) != len(d.Tables[len(d.Tables)-1].Columns) {
				return nil, fmt.Errorf("line %d: a row that does not fit its table", n)
			}
			t := &d.Tables[len(d.Tables)-1]
			t.Rows = append(t.Rows, list)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if d.Dialect != SQLite && d.Dialect != Postgres {
		return nil, fmt.Errorf("unknown dialect %q", d.Dialect)
	}
	return d, nil
}

// Ident quotes an identifier for either dialect.
func Ident(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// Literal quotes a string as a SQL literal for either dialect.
func Literal(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func scan(ctx context.Context, db *sql.DB, each func(string), q string, args ...any) error {
	rs, err := db.QueryContext(ctx, q, args...)
	if err != nil {
		return err
	}
	defer rs.Close()
	for rs.Next() {
		var s string
		if err := rs.Scan(&s); err != nil {
			return err
		}
		each(s)
	}
	return rs.Err()
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}
