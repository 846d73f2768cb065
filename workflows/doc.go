// Package workflows runs lokal's durable background jobs.
//
// # Jobs
//
// A job is a row written in the same transaction as the change that causes it, so a crash
// can lose neither. A [Worker] claims due jobs one at a time with a lease; a job whose
// worker died is claimed again once its lease runs out, and a failed job is retried with
// quadratic backoff up to a limit. Today the jobs are the checkup that follows writes; the
// AI translation, webhook and redeploy issues add their kinds here.
package workflows
