package tools_test

import (
	"context"
	"database/sql"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/uptrace/bun/driver/pgdriver"
)

// benchCPU measures the CPU a benchmark's loop costs: this process's (getrusage) and, on
// PostgreSQL, that of the server's backends connected to the benchmark's database (read
// from /proc: the server runs on this machine in tests). On a shared machine wall time
// says more about the neighbours than about the code; CPU seconds do not.
type benchCPU struct {
	pg           *sql.DB
	self, server time.Duration
}

func newBenchCPU(tb testing.TB, dialect, dsn string) *benchCPU {
	c := &benchCPU{}
	if dialect == "postgres" {
		c.pg = sql.OpenDB(pgdriver.NewConnector(pgdriver.WithDSN(dsn)))
		c.pg.SetMaxOpenConns(1)
		tb.Cleanup(func() { c.pg.Close() })
	}
	return c
}

func benchSelfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchServerCPU sums the user and system time of the database's backends.
func (c *benchCPU) benchServerCPU() time.Duration {
	if c.pg == nil {
		return 0
	}
	rows, err := c.pg.QueryContext(context.Background(),
		`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`)
	if err != nil {
		return 0
	}
	defer rows.Close()
	var total time.Duration
	for rows.Next() {
		var pid int
		if rows.Scan(&pid) != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
		if len(f) < 13 {
			continue
		}
		u, _ := strconv.ParseInt(f[11], 10, 64)
		k, _ := strconv.ParseInt(f[12], 10, 64)
		total += time.Duration(u+k) * 10 * time.Millisecond // USER_HZ is 100 on Linux
	}
	return total
}

func (c *benchCPU) start() { c.self, c.server = benchSelfCPU(), c.benchServerCPU() }

// report adds the CPU seconds per op since start as metrics.
func (c *benchCPU) report(b *testing.B) {
	self, server := benchSelfCPU()-c.self, c.benchServerCPU()-c.server
	b.ReportMetric(self.Seconds()/float64(b.N), "cpu-s/op")
	if c.pg != nil {
		b.ReportMetric(server.Seconds()/float64(b.N), "pg-cpu-s/op")
	}
}
