package storage

import "github.com/uptrace/bun/migrate"

func registerCore(m *migrate.Migrations) { m.MustRegister(migrateCore, noDown) }
