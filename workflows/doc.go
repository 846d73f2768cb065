// Package workflows runs lokal's durable background jobs.
//
// # Jobs
//
// A job is a row written in the same transaction as the change that causes it, so a crash
// can lose neither. A [Worker] claims due jobs one at a time with a lease; a job whose
// worker died is claimed again once its lease runs out, and a failed job is retried with
// quadratic backoff up to a limit. Today the jobs are the checkup that follows writes.
//
// # Webhook deliveries
//
// A [Deliverer] posts the events that writes leave in the webhook outbox (one row per
// write, in the write's transaction). It fans each row out into one delivery per event and
// webhook, claims a webhook's due deliveries in batches under a 30-second lease renewed
// while they are held, posts them through the outbound guard with at most PerEndpoint in
// flight per webhook, and records every attempt; the rules (backoff, what counts as
// delivered, disabling a webhook failing for days) are the catalogue's. Delivery is at
// least once: a delivery is settled only after its answer is recorded.
package workflows
