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
// The kinds: the checkup that follows writes, and automatic translation (keys of one
// namespace into one language, queued by the catalogue's write hook; one row holds up to a
// thousand of them and each claim takes a batch of at most ten). Claims go round the
// projects with due jobs, so one project's backlog does not starve another's.
// A checkup is a singleton job: a project has at most one pending and one running, which
// the database holds (unique partial indexes, and a claim that passes over a pending one
// while its kind runs for the project), whatever the number of workers and processes.
//
// # Webhook deliveries
//
// A [Deliverer] posts the events that writes leave in the webhook outbox (one row per
// write, in the write's transaction). It fans each row out into one delivery per event and
// webhook, claims a webhook's due deliveries in batches under a 30-second lease renewed
// while they are held, posts them through the outbound guard with at most PerEndpoint in
// flight per webhook, and records every attempt with the rules: backoff, what counts as
// delivered, disabling a webhook failing for days. That bookkeeping is the deliverer's own,
// on its own rows, through the [DeliveryStore] port that storage's DB satisfies; the
// catalogue only opens the webhooks' secrets, which it sealed. Delivery is at least once: a
// delivery is settled only after its answer is recorded.
//
// # Outbound calls
//
// What lokal calls on a user's behalf is made here, through the outbound guard the
// catalogue was configured with: the webhook POSTs, and a redeploy's dispatch ([Dispatch],
// GitHub's workflow_dispatch or a deploy hook), which the catalogue's Redeploy operation
// authorizes, budgets and records around.
package workflows
