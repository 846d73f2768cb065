// Package workflows runs lokal's durable background jobs.
//
// # Jobs
//
// A job is a row written in the same transaction as the change that causes it, so a crash
// can lose neither. A [Worker] runs several jobs at once, each claimed with a short lease
// that the worker renews while the job runs; the jobs of a process that died are claimed
// again once their leases run out (30 seconds by default), and a failed job is retried
// with quadratic backoff up to a limit, after which its kind may record what was given up.
//
// The kinds: the checkup that follows writes, and automatic translation (a batch of at
// most ten keys of one namespace into one language, queued by the catalogue's write hook).
package workflows
