"""Session 2 (worktree retry-backoff): exponential backoff with full jitter, pre-commit errcheck."""
from lib_transcript import Session

WT = "/Users/mira/src/relaybox-wt/retry-backoff"

RETRY_BEFORE = """package relay

import (
	"context"
	"time"

	"github.com/mira-okafor/relaybox/internal/db/sqlc"
)

const (
	retryDelay  = 5 * time.Second
	maxAttempts = 8
)

// scheduleRetry re-enqueues a failed delivery after retryDelay, or marks it dead
// once it has used maxAttempts.
func (d *Dispatcher) scheduleRetry(ctx context.Context, del sqlc.Delivery, c Consumer) {
	if del.Attempts+1 >= maxAttempts {
		d.markDead(ctx, del, c)
		return
	}
	if err := d.store.IncrementAttempts(ctx, del.ID); err != nil {
		d.log.Error("increment attempts", "delivery", del.ID, "err", err)
	}
	del.Attempts++
	time.AfterFunc(retryDelay, func() { d.Enqueue(del) })
}
"""

BACKOFF = """package relay

import (
	"math/rand/v2"
	"time"
)

// Backoff computes retry delays: exponential growth capped at Cap, with full jitter.
//
//	delay(n) = random in [MinDelay, min(Cap, Base * 2^n)]   (n = 0 for the first retry)
//
// Full jitter (rather than equal jitter or a fixed delay) spreads a burst of failed
// deliveries over the whole window, so consumers that come back after an outage are
// not hit by every retry at the same moment.
type Backoff struct {
	Base time.Duration
	Cap  time.Duration
	// Rand returns a pseudo-random int64 in [0, n). Tests replace it.
	Rand func(n int64) int64
}

// MinDelay keeps full jitter from producing an immediate retry.
const MinDelay = time.Second

// DefaultBackoff: 1m, 2m, 4m, ... capped at 20m. With maxAttempts = 8 the worst case
// is about 71 minutes from the first failure to the delivery being marked dead.
var DefaultBackoff = Backoff{Base: time.Minute, Cap: 20 * time.Minute, Rand: rand.Int64N}

// Delay returns how long to wait before retry number n (0-based).
func (b Backoff) Delay(n int) time.Duration {
	ceil := b.Cap
	if n < 32 {
		if d := b.Base << n; d > 0 && d < b.Cap {
			ceil = d
		}
	}
	return max(MinDelay, time.Duration(b.Rand(int64(ceil)+1)))
}
"""

BACKOFF_TEST = """package relay

import (
	"testing"
	"time"
)

func TestBackoff_CeilingDoublesUntilCap(t *testing.T) {
	// Rand returning n-1 gives the ceiling itself.
	b := Backoff{Base: time.Minute, Cap: 20 * time.Minute, Rand: func(n int64) int64 { return n - 1 }}
	want := []time.Duration{
		1 * time.Minute, 2 * time.Minute, 4 * time.Minute, 8 * time.Minute,
		16 * time.Minute, 20 * time.Minute, 20 * time.Minute, 20 * time.Minute,
	}
	for n, w := range want {
		if got := b.Delay(n); got != w {
			t.Errorf("Delay(%d) = %v, want %v", n, got, w)
		}
	}
}

func TestBackoff_NeverBelowMinDelay(t *testing.T) {
	b := Backoff{Base: time.Minute, Cap: 20 * time.Minute, Rand: func(int64) int64 { return 0 }}
	for n := 0; n < 8; n++ {
		if got := b.Delay(n); got != MinDelay {
			t.Errorf("Delay(%d) = %v, want %v", n, got, MinDelay)
		}
	}
}

func TestBackoff_HugeAttemptDoesNotOverflow(t *testing.T) {
	b := Backoff{Base: time.Minute, Cap: 20 * time.Minute, Rand: func(n int64) int64 { return n - 1 }}
	for _, n := range []int{31, 32, 63, 64, 1000} {
		if got := b.Delay(n); got != 20*time.Minute {
			t.Errorf("Delay(%d) = %v, want cap", n, got)
		}
	}
}

func TestBackoff_JitterSpreadsBurst(t *testing.T) {
	// 10k deliveries failing at once must not all come back in the same second.
	seen := map[time.Duration]int{}
	for i := 0; i < 10000; i++ {
		seen[DefaultBackoff.Delay(3).Truncate(time.Second)]++
	}
	for d, c := range seen {
		if c > 200 {
			t.Fatalf("%d of 10000 retries landed in the same second (%v)", c, d)
		}
	}
}
"""


def build():
    s = Session(seed=2202, cwd=WT, branch="retry-backoff", start_iso="2026-11-11T13:05:40.000Z")
    s.snapshot()
    s.mark("task")
    s.user("I'm in the retry-backoff worktree. please replace the fixed 5s retry delay in internal/relay/retry.go "
           "with exponential backoff plus jitter")
    s.upto("task")
    s.say("Let me confirm where I am and look at the current retry code.")
    s.bash("git worktree list && git status -sb", "Show worktrees and branch status",
           """/Users/mira/src/relaybox                     3d0e8a1 [main]
/Users/mira/src/relaybox-wt/retry-backoff   3d0e8a1 [retry-backoff]
## retry-backoff""")
    s.read(f"{WT}/internal/relay/retry.go", RETRY_BEFORE)
    s.grep("scheduleRetry|markDead|IncrementAttempts", f"{WT}/internal", """internal/relay/dispatcher.go:75:			d.scheduleRetry(ctx, del, c)
internal/relay/retry.go:17:func (d *Dispatcher) scheduleRetry(ctx context.Context, del sqlc.Delivery, c Consumer) {
internal/relay/retry.go:19:		d.markDead(ctx, del, c)
internal/relay/retry.go:22:	if err := d.store.IncrementAttempts(ctx, del.ID); err != nil {
internal/relay/store.go:14:	IncrementAttempts(ctx context.Context, id int64) error
internal/relay/store.go:41:func (s *pgStore) IncrementAttempts(ctx context.Context, id int64) error {
internal/relay/store.go:55:func (d *Dispatcher) markDead(ctx context.Context, del sqlc.Delivery, c Consumer) {""")
    s.bash("sed -n 1,60p internal/relay/store.go", "Show Store interface and pg implementation",
           """package relay

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/mira-okafor/relaybox/internal/db/sqlc"
)

// Store is what the dispatcher needs from the database.
type Store interface {
	GetDelivery(ctx context.Context, id int64) (sqlc.Delivery, error)
	IncrementAttempts(ctx context.Context, id int64) error
	MarkDelivered(ctx context.Context, id int64) error
	MarkDead(ctx context.Context, id int64) error
}

type pgStore struct {
	q *sqlc.Queries
}

func NewPgStore(pool *pgxpool.Pool) Store { return &pgStore{q: sqlc.New(pool)} }

func (s *pgStore) GetDelivery(ctx context.Context, id int64) (sqlc.Delivery, error) {
	return s.q.GetDelivery(ctx, id)
}

func (s *pgStore) IncrementAttempts(ctx context.Context, id int64) error {
	return s.q.IncrementAttempts(ctx, id)
}

func (s *pgStore) MarkDelivered(ctx context.Context, id int64) error {
	return s.q.MarkDelivered(ctx, id)
}

func (s *pgStore) MarkDead(ctx context.Context, id int64) error {
	return s.q.MarkDead(ctx, id)
}

func (d *Dispatcher) markDead(ctx context.Context, del sqlc.Delivery, c Consumer) {
	if err := d.store.MarkDead(ctx, del.ID); err != nil {
		d.log.Error("mark dead", "delivery", del.ID, "err", err)
		return
	}
	deliveriesDead.Inc()
	d.log.Warn("delivery dead", "delivery", del.ID, "consumer", c.Name, "attempts", del.Attempts+1)
}""")
    s.think("The schedule is purely in-memory via time.AfterFunc. With longer exponential delays (minutes), a restart loses far more pending retries. Where to persist is an architectural choice the user should make; offer options: Postgres column + SKIP LOCKED, keep in memory, Redis.")
    s.mark("options")
    s.say("Today a retry is a `time.AfterFunc` in process memory: the attempt counter is in Postgres, but the "
          "*schedule* only exists in the pod. A restart or a deploy drops every pending retry (they sit in "
          "`status = 'pending'` until someone replays them). Before I write the backoff, where should the retry "
          "schedule live?\n\n"
          "1. **PostgreSQL, on the `deliveries` row**: add `next_attempt_at`, a poller claims due rows with "
          "`SELECT ... FOR UPDATE SKIP LOCKED`. Survives restarts, works with several replicas, no new infrastructure.\n"
          "2. **In memory, as today** (`time.AfterFunc` with the new delays): smallest change, still loses retries on "
          "every restart, and with 20-minute delays that window gets much bigger.\n"
          "3. **Redis sorted set** (score = due time): fast and simple to poll, but we don't run Redis on the k3s "
          "cluster, so it's a new stateful service to operate.\n\n"
          "I'd lean towards 1.")
    s.user("1", pause=(15, 40))
    s.say("Option 1 then: the retry schedule is persisted in PostgreSQL as `next_attempt_at` on the `deliveries` "
          "row, because retries have to survive pod restarts and deploys, it works when several replicas poll "
          "(SKIP LOCKED), and we already have pgx and Postgres, no Redis to run on the cluster. That needs a "
          "migration plus sqlc queries. Should I do that in this branch too?")
    s.upto("options")
    s.mark("split")
    s.user("no, backoff only in this branch, the migration goes in a separate PR. small PRs please, Tomás reviews them on his phone")
    s.upto("split")
    s.say("OK: this branch computes the delay with backoff and keeps `time.AfterFunc` for now; the persistence "
          "change comes in its own PR.")
    s.mark("slack")
    s.user("""also here's what Tomás wrote in #payments-eng this morning, for context:

> **Tomás Ibarra** 9:12 AM
> after yesterday's ~20 min outage of payments-consumer, relaybox fired ~14k stripe retries within basically the same second when it came back, and it fell over again (503s for another 6 min)
> whatever you do with the backoff please spread them out
> also keep it at 8 attempts max pls, the dead-letter alert keys off `relay_delivery_dead_total` and the runbook assumes roughly an hour of retries before something goes dead""", pause=(60, 120))
    s.upto("slack")
    s.mark("decision")
    s.say("That settles the jitter question. Let's use **full jitter** (`delay = random(0, min(cap, base*2^n))`) "
          "instead of equal jitter or plain exponential: with equal jitter half of every delay is fixed, so 14k "
          "deliveries that failed together still come back bunched in the upper half of the window, which is "
          "exactly what knocked payments-consumer over again. Full jitter spreads them over the whole window.\n\n"
          "Parameters to match the runbook: base 1m, doubling, cap 20m, `maxAttempts` stays 8 (so "
          "`relay_delivery_dead_total` keeps its meaning). Worst case 1+2+4+8+16+20+20 = 71 minutes of "
          "retries, about half that on average. I'll add a 1s floor so jitter never produces an immediate retry.")
    s.upto("decision")
    s.user("sounds right, go ahead", pause=(20, 50))
    s.todo([
        ("Add Backoff type with full jitter (internal/relay/backoff.go)", "in_progress", "Adding Backoff type"),
        ("Unit tests for ceiling, floor, overflow, spread", "pending", "Writing backoff tests"),
        ("Use backoff in scheduleRetry, keep maxAttempts = 8", "pending", "Wiring backoff into scheduleRetry"),
        ("make test (-race) and make lint, commit", "pending", "Running tests and lint"),
    ])
    s.mark("backoff")
    s.write(f"{WT}/internal/relay/backoff.go", BACKOFF)
    s.upto("backoff")
    s.write(f"{WT}/internal/relay/backoff_test.go", BACKOFF_TEST)
    s.bash("go test -race -run Backoff -v ./internal/relay/", "Run backoff tests with -race",
           """=== RUN   TestBackoff_CeilingDoublesUntilCap
--- PASS: TestBackoff_CeilingDoublesUntilCap (0.00s)
=== RUN   TestBackoff_NeverBelowMinDelay
--- PASS: TestBackoff_NeverBelowMinDelay (0.00s)
=== RUN   TestBackoff_HugeAttemptDoesNotOverflow
--- PASS: TestBackoff_HugeAttemptDoesNotOverflow (0.00s)
=== RUN   TestBackoff_JitterSpreadsBurst
--- PASS: TestBackoff_JitterSpreadsBurst (0.01s)
PASS
ok  	github.com/mira-okafor/relaybox/internal/relay	1.318s""", slow=6)
    s.say("Backoff works. Now wire it into `scheduleRetry`, with the backoff as a field on the dispatcher so tests "
          "can inject a deterministic one.")
    s.edit(f"{WT}/internal/relay/retry.go",
           """const (
	retryDelay  = 5 * time.Second
	maxAttempts = 8
)

// scheduleRetry re-enqueues a failed delivery after retryDelay, or marks it dead
// once it has used maxAttempts.
func (d *Dispatcher) scheduleRetry(ctx context.Context, del sqlc.Delivery, c Consumer) {
	if del.Attempts+1 >= maxAttempts {
		d.markDead(ctx, del, c)
		return
	}
	if err := d.store.IncrementAttempts(ctx, del.ID); err != nil {
		d.log.Error("increment attempts", "delivery", del.ID, "err", err)
	}
	del.Attempts++
	time.AfterFunc(retryDelay, func() { d.Enqueue(del) })
}""",
           """// maxAttempts stays at 8: the dead-letter alert (relay_delivery_dead_total) and the
// runbook assume about an hour of retries before a delivery goes dead.
const maxAttempts = 8

// scheduleRetry re-enqueues a failed delivery after an exponential, fully jittered
// delay (see Backoff), or marks it dead once it has used maxAttempts.
func (d *Dispatcher) scheduleRetry(ctx context.Context, del sqlc.Delivery, c Consumer) {
	if del.Attempts+1 >= maxAttempts {
		d.markDead(ctx, del, c)
		return
	}
	delay := d.backoff.Delay(int(del.Attempts))
	d.store.IncrementAttempts(ctx, del.ID)
	del.Attempts++
	retryDelaySeconds.Observe(delay.Seconds())
	d.log.Info("retry scheduled", "delivery", del.ID, "consumer", c.Name, "attempt", del.Attempts, "in", delay)
	time.AfterFunc(delay, func() { d.Enqueue(del) })
}""", snippet_start=10)
    s.edit(f"{WT}/internal/relay/dispatcher.go",
           """	routes   map[string][]Consumer
	workers  int""",
           """	routes   map[string][]Consumer
	backoff  Backoff
	workers  int""", snippet_start=16)
    s.edit(f"{WT}/internal/relay/dispatcher.go",
           """		routes:  routes,
		workers: workers,""",
           """		routes:  routes,
		backoff: DefaultBackoff,
		workers: workers,""", snippet_start=33)
    s.edit(f"{WT}/internal/relay/metrics.go",
           """var deliveriesDead = promauto.NewCounter(prometheus.CounterOpts{
	Name: "relay_delivery_dead_total",
	Help: "Deliveries marked dead after the last attempt.",
})""",
           """var deliveriesDead = promauto.NewCounter(prometheus.CounterOpts{
	Name: "relay_delivery_dead_total",
	Help: "Deliveries marked dead after the last attempt.",
})

var retryDelaySeconds = promauto.NewHistogram(prometheus.HistogramOpts{
	Name:    "relay_retry_delay_seconds",
	Help:    "Delay chosen for a scheduled retry (exponential backoff, full jitter).",
	Buckets: []float64{1, 30, 60, 120, 240, 480, 960, 1200},
})""", snippet_start=18)
    s.bash("make test", "Run full suite (race detector on)",
           """go test -race -count=1 ./...
ok  	github.com/mira-okafor/relaybox/cmd/relaybox	1.187s
ok  	github.com/mira-okafor/relaybox/internal/api	2.290s
?   	github.com/mira-okafor/relaybox/internal/db/sqlc	[no test files]
ok  	github.com/mira-okafor/relaybox/internal/db	0.603s [no tests to run]
ok  	github.com/mira-okafor/relaybox/internal/relay	2.412s
?   	github.com/mira-okafor/relaybox/internal/relay/relaytest	[no test files]
ok  	github.com/mira-okafor/relaybox/third_party/pgqueue	0.377s""", slow=24)
    s.bash("git diff --stat", "Summarise changes before commit",
           """ internal/relay/dispatcher.go |  2 ++
 internal/relay/metrics.go    |  6 ++++++
 internal/relay/retry.go      | 18 +++++++++---------
 3 files changed, 17 insertions(+), 9 deletions(-)""")
    s.say("Tests pass. Committing.")
    s.mark("hookfail")
    s.bash("git add internal/relay/backoff.go internal/relay/backoff_test.go internal/relay/retry.go "
           "internal/relay/dispatcher.go internal/relay/metrics.go && git commit -m \"relay: exponential backoff with full jitter for retries\"",
           "Commit backoff change",
           """pre-commit: make lint
golangci-lint run ./...
internal/relay/retry.go:20:26: Error return value of `d.store.IncrementAttempts` is not checked (errcheck)
	d.store.IncrementAttempts(ctx, del.ID)
	                        ^
1 issues:
* errcheck: 1
make: *** [Makefile:27: lint] Error 1
pre-commit: make lint failed, commit aborted (fix the issues or run `make lint` to see them again)""",
           error=True, slow=15)
    s.say("The pre-commit hook ran `make lint` and golangci-lint's errcheck rejected it: when I rewrote "
          "`scheduleRetry` I dropped the `if err := ...` around `d.store.IncrementAttempts` (retry.go:20). That "
          "was a regression on my side, the old code checked it. Restoring the check; on failure we log and count "
          "it, and still schedule the retry (a lost counter increment only means one extra attempt, dropping the "
          "retry would lose the webhook).")
    s.edit(f"{WT}/internal/relay/retry.go",
           """	delay := d.backoff.Delay(int(del.Attempts))
	d.store.IncrementAttempts(ctx, del.ID)
	del.Attempts++""",
           """	delay := d.backoff.Delay(int(del.Attempts))
	if err := d.store.IncrementAttempts(ctx, del.ID); err != nil {
		// Still retry: a missed increment costs one extra attempt, a dropped retry loses the webhook.
		d.log.Error("increment attempts", "delivery", del.ID, "err", err)
		retryStoreErrors.Inc()
	}
	del.Attempts++""", snippet_start=19)
    s.edit(f"{WT}/internal/relay/metrics.go",
           """var retryDelaySeconds = promauto.NewHistogram(prometheus.HistogramOpts{""",
           """var retryStoreErrors = promauto.NewCounter(prometheus.CounterOpts{
	Name: "relay_retry_store_errors_total",
	Help: "Failures to record a retry attempt in the store.",
})

var retryDelaySeconds = promauto.NewHistogram(prometheus.HistogramOpts{""", snippet_start=23)
    s.bash("make lint", "Re-run golangci-lint",
           """golangci-lint run ./...
0 issues.""", slow=13)
    s.bash("git add internal/relay/retry.go internal/relay/metrics.go && git commit -m \"relay: exponential backoff with full jitter for retries\n\n"
           "Delay before retry n is random in [1s, min(20m, 1m*2^n)]; maxAttempts stays 8\n"
           "(relay_delivery_dead_total alert, ~1h runbook). Spreads retry bursts after a\n"
           "consumer outage instead of firing them all at once.\"",
           "Commit again after lint fix",
           """pre-commit: make lint
golangci-lint run ./...
0 issues.
pre-commit: ok
[retry-backoff 9c2e5d1] relay: exponential backoff with full jitter for retries
 5 files changed, 138 insertions(+), 9 deletions(-)
 create mode 100644 internal/relay/backoff.go
 create mode 100644 internal/relay/backoff_test.go""", slow=15)
    s.upto("hookfail")
    s.todo([
        ("Add Backoff type with full jitter (internal/relay/backoff.go)", "completed", "Adding Backoff type"),
        ("Unit tests for ceiling, floor, overflow, spread", "completed", "Writing backoff tests"),
        ("Use backoff in scheduleRetry, keep maxAttempts = 8", "completed", "Wiring backoff into scheduleRetry"),
        ("make test (-race) and make lint, commit", "completed", "Running tests and lint"),
    ])
    s.say("Committed as 9c2e5d1 on `retry-backoff`. Should I push and open the PR?")
    s.user("yes push it and open the PR, I'll ping Tomás to review")
    s.bash("git push -u origin retry-backoff", "Push branch",
           """Enumerating objects: 14, done.
Counting objects: 100% (14/14), done.
Delta compression using up to 10 threads
Compressing objects: 100% (8/8), done.
Writing objects: 100% (8/8), 3.02 KiB | 3.02 MiB/s, done.
Total 8 (delta 5), reused 0 (delta 0), pack-reused 0
remote: Resolving deltas: 100% (5/5), completed with 5 local objects.
remote:
remote: Create a pull request for 'retry-backoff' on GitHub by visiting:
remote:      https://github.com/mira-okafor/relaybox/pull/new/retry-backoff
remote:
To github.com:mira-okafor/relaybox.git
 * [new branch]      retry-backoff -> retry-backoff
branch 'retry-backoff' set up to track 'origin/retry-backoff'.""")
    s.bash("gh pr create --base main --title \"relay: exponential backoff with full jitter for retries\" "
           "--body \"Replaces the fixed 5s retry delay. Delay before retry n: random in [1s, min(20m, 1m*2^n)] "
           "(full jitter), maxAttempts stays 8. Context: the ~14k-retry burst that knocked payments-consumer over "
           "after its outage. Persisting the schedule (next_attempt_at) follows in a separate PR.\"",
           "Open pull request",
           """Creating pull request for retry-backoff into main in mira-okafor/relaybox

https://github.com/mira-okafor/relaybox/pull/42""", slow=3)
    s.bash("git log --oneline -3", "Show branch history",
           """9c2e5d1 (HEAD -> retry-backoff, origin/retry-backoff) relay: exponential backoff with full jitter for retries
3d0e8a1 (origin/main, origin/HEAD, main) Merge pull request #41 from mira-okafor/fix/dispatcher-stats-race
7a3f0c5 relay: guard dispatcher stats with a mutex""")
    s.mark("summary")
    s.say("PR #42 is open: https://github.com/mira-okafor/relaybox/pull/42\n\n"
          "What changed in the `retry-backoff` worktree:\n"
          "- `internal/relay/backoff.go`: `Backoff{Base, Cap, Rand}` with `Delay(n)` = random in "
          "[1s, min(20m, 1m*2^n)], i.e. exponential with **full jitter**; `DefaultBackoff` used by the dispatcher. "
          "Tests cover the doubling, the cap, the 1s floor, overflow and burst spread.\n"
          "- `retry.go`: `scheduleRetry` uses the backoff; `maxAttempts` stays 8 per Tomás (dead-letter alert and "
          "~1h runbook); new metrics `relay_retry_delay_seconds` and `relay_retry_store_errors_total`.\n"
          "- First commit was blocked by the pre-commit hook (`make lint`, errcheck on the unchecked "
          "`d.store.IncrementAttempts` at retry.go:20); the error is handled again and the commit landed as 9c2e5d1.\n\n"
          "Decided: the retry schedule will be persisted in PostgreSQL (`next_attempt_at` on `deliveries`, claimed "
          "with FOR UPDATE SKIP LOCKED), option 1, in a separate PR. Until then retries are still in-memory timers.")
    s.upto("summary")
    return s
