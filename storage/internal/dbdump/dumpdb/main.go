// Command dumpdb writes a lokal database as text: the restorable dump that the release
// fixtures in storage/testdata/releases hold, or with -schema its normalized schema.
//
//	go run ./storage/internal/dbdump/dumpdb -database sqlite:lokal.db > dump.txt
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/lokal-dev/lokal/storage/internal/dbdump"
)

func main() {
	dsn := flag.String("database", "", "DSN: sqlite:PATH or postgres://...")
	schema := flag.Bool("schema", false, "print the normalized schema instead of a restorable dump")
	flag.Parse()
	if err := run(*dsn, *schema); err != nil {
		fmt.Fprintln(os.Stderr, "dumpdb:", err)
		os.Exit(1)
	}
}

func run(dsn string, schema bool) error {
	if dsn == "" {
		return fmt.Errorf("-database is required")
	}
	ctx := context.Background()
	db, dialect, err := dbdump.Open(dsn)
	if err != nil {
		return err
	}
	defer db.Close()
	if schema {
		s, err := dbdump.Schema(ctx, db, dialect)
		if err != nil {
			return err
		}
		_, err = os.Stdout.WriteString(s)
		return err
	}
	d, err := dbdump.Take(ctx, db, dialect)
	if err != nil {
		return err
	}
	_, err = os.Stdout.Write(d.Format())
	return err
}
