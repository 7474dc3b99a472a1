"""Phrase bank of the technical discussion: its cast, openings, asides, details and subjects (topics, paragraphs,
figures, decision, tasks).

Body paragraphs may use the shared variables, the item's picks and figures, {topic}, and the first names
{sender} and {to1}; a paragraph starting with "?" is optional. Task owners: sender, to1, to2, cc1."""

from __future__ import annotations

from gaia_eval.generation.specs import ActionSpec as Act
from gaia_eval.generation.specs import EmailItem as Item
from gaia_eval.generation.specs import EmailType
from gaia_eval.generation.specs import FigureSpec as Fig

SPEC = EmailType(
    subjects=("Proposal: {first_topic}", "Thoughts on the {first_topic}", "RFC: {first_topic}",
              "Re: {first_topic} options"),
    label="technical discussion",
    sender_roles=("Staff Engineer", "Senior Backend Engineer", "Tech Lead", "Site Reliability Engineer"),
    to_roles=("Backend Engineer", "Platform Engineer", "Engineering Manager", "Database Administrator",
              "Security Engineer"),
    to_count=(1, 3),
    cc_roles=("Engineering Manager", "Product Manager"),
    cc_count=(0, 1),
    openings=(
        "Following up on yesterday's discussion with some numbers and a proposal. This touches {topics}.",
        "I spent some time digging into {topics}, and I think we have enough to make a call on each.",
        "Writing this down so we can decide asynchronously instead of in another meeting. Topics: {topics}.",
    ),
    closings=(
        "Happy to pair on any of this if it's easier to talk through with the code open.",
        "Comments welcome here or in the doc. I'd like to start on this next week.",
        "If I've misread anything in the data, please push back. I'd rather be corrected now.",
    ),
    items=(
        Item(
            topic="database connection pool",
            request="Any progress on the database connection pool problem? We saw timeouts again during the sale.",
            figures=(Fig("conns", "count", "maximum number of database connections per service", 40, 120, 10,
                         unit="connections"),),
            body=(
                "I've been digging into the database connection pool issues. Under peak load we hit the limit of "
                "{conns} connections per service, and requests queue up behind it.",
                "?Raising the limit isn't free. Each connection costs memory on the database side, and we're already "
                "closer to that ceiling than I'd like.",
                "?What surprised me is how bursty it is. Most of the time we use a fraction of the pool; then a batch "
                "job starts and everything piles up within seconds.",
                "?I also checked whether any service is leaking connections. None are, as far as I can tell; this is genuinely a capacity problem rather than a bug.",
                "?A pooler would also smooth out the bursts, because it queues requests in a way the database handles much better than thousands of separate connections.",
                "?The main risk is a new component in the request path. It's mature software and widely used, but we'd want good monitoring on it from day one.",
            ),
            decision="add a connection pooler in front of the primary database",
            actions=(Act("to1", "benchmark the connection pooler in staging", (3, 10)),),
        ),
        Item(
            topic="caching strategy",
            request="What's your take on the caching strategy? The product pages still feel slow to me.",
            figures=(Fig("hit", "percent", "cache hit rate on the product pages", 60, 85),
                     Fig("ttl", "duration", "new cache time-to-live for product pages", 10, 30, 5, unit="minutes")),
            body=(
                "On the caching strategy: our current hit rate on product pages is {hit}, and most misses come from "
                "entries expiring too early rather than from genuinely new content.",
                "?The reason for the short expiry was price changes, but prices change a few times a day at most. "
                "Explicit invalidation on change handles that much better than a short timer.",
                "?I ran the numbers on memory as well. Keeping entries longer costs very little, because the product catalog is small compared with the cache we already have.",
                "?For pages that show stock levels, we'd keep the short expiry for now. Stock changes much more often than prices, and showing stale stock is worse than a slower page.",
                "?I'd also like to add a cache hit rate panel to the main dashboard. Right now it's buried in a separate view, which is part of why this went unnoticed.",
            ),
            decision="raise the cache time-to-live for product pages to {ttl}",
            actions=(Act("to2", "add cache invalidation on price changes", (3, 10)),),
        ),
        Item(
            topic="API versioning",
            request="How many people are still on the old API? I'd like a plan for API versioning before it gets worse.",
            figures=(Fig("clients", "count", "number of external clients still on the old API version", 10, 40, unit="clients"),),
            body=(
                "For API versioning, we still have {clients} external clients on the old version, and keeping both "
                "versions alive is slowing down every change to the orders endpoints.",
                "?Most of those clients are small and probably don't know they're on the old version. A couple of "
                "big ones do know, and will need a personal heads-up.",
                "?Keeping two versions alive also doubles the testing effort for every change. That cost is easy to overlook because it's spread across every pull request.",
                "?The differences between the versions are small for most clients. For the majority, upgrading is a matter of changing a base URL and a couple of field names.",
                "?We should also document the versioning policy properly, so future changes follow a predictable path instead of each one being negotiated from scratch.",
            ),
            decision="support the old API version for six more months and then retire it",
            actions=(Act("sender", "draft the deprecation timeline for the old API", (3, 8)),
                     Act("to1", "list the external clients on the old API version", (2, 5))),
        ),
        Item(
            topic="CI build times",
            request="Can we do something about CI build times? People are complaining in every retro.",
            figures=(Fig("build", "duration", "average CI build time", 12, 30, unit="minutes"),),
            body=(
                "Our CI build times keep creeping up: the average build now takes {build}, which is long enough that "
                "people stop waiting and switch context.",
                "?Most of that is the integration suite running serially. The unit tests are fast; it's the handful "
                "of end-to-end tests that dominate.",
                "?The fix is mostly configuration. The tests themselves don't need to change, and the extra compute cost is small compared with the time people spend waiting.",
                "?There are also a few tests that are effectively duplicates of each other. Removing them would shave off a little more time, but that's a smaller, separate cleanup.",
                "?Faster builds also mean smaller pull requests, in my experience. When a build takes ages, people batch changes together, which makes reviews harder.",
            ),
            decision="split the test suite into parallel jobs",
            actions=(Act("to1", "split the integration tests into parallel jobs", (5, 12)),),
        ),
        Item(
            topic="checkout incident postmortem",
            request="Is the checkout incident postmortem written up? Leadership is asking what we're changing.",
            figures=(Fig("downtime", "duration", "length of the checkout outage", 20, 90, 5, unit="minutes"),
                     Fig("orders", "count", "number of orders that failed during the checkout outage", 200, 1500, 10,
                         unit="orders")),
            body=(
                "A short recap of the checkout incident postmortem: checkout was down for {downtime}, and roughly "
                "{orders} orders failed before the rollback.",
                "?The root cause was a configuration change that looked harmless in review. Nothing in our pipeline "
                "would have caught it, which is the real problem.",
                "?The on-call response itself was good. The alert fired quickly and the rollback was clean; the problem is that the change should never have reached production.",
                "?Customer support handled the fallout well. They had a holding message out quickly, and most customers who contacted us were able to complete their order later.",
                "?I'd also like us to practice a checkout rollback in staging every quarter. The rollback worked this time, but it was the first time some of the team had done it.",
            ),
            decision="require a canary deploy for every checkout change",
            actions=(Act("to1", "add a canary stage to the checkout pipeline", (5, 14)),
                     Act("cc1", "contact the customers whose orders failed", (2, 5))),
        ),
        Item(
            topic="event queue backlog",
            request="What happened with the event queue backlog yesterday? Some customers saw delayed notifications.",
            figures=(Fig("messages", "count", "number of messages in the event queue backlog at peak", 20000, 90000, 1000,
                         unit="messages"),),
            body=(
                "The event queue backlog hit {messages} messages at peak yesterday, and the consumers took over an "
                "hour to catch up.",
                "?We run a fixed number of consumers sized for a normal day. On a busy day, that's simply not enough, "
                "and nobody gets paged until customers notice the delay.",
                "?Autoscaling on backlog is a standard pattern, and the queue already exposes the metric we need. The main work is choosing sensible limits so a spike can't scale us into a different problem.",
                "?The delay mostly affected notification emails, which is why customers noticed. Internal processing caught up without anyone having to intervene manually.",
                "?We should also alert on backlog age, not just size. A small backlog that isn't moving is a worse sign than a large one that's draining quickly.",
            ),
            decision="autoscale the queue consumers on backlog size",
            actions=(Act("to1", "configure autoscaling for the queue consumers", (3, 10)),),
        ),
    ),
    asides=(
        "All the graphs I'm referring to are on the team dashboard, in the section for this quarter's investigations.",
        "I'll admit some of this is judgment rather than hard data. Where that's the case, I've tried to say so "
        "explicitly, so it's clear which parts are measured and which are opinion.",
        "None of these changes need a maintenance window, as far as I can tell. They can all go out behind "
        "configuration flags and be rolled back without a deploy.",
        "I also looked at how a couple of other teams solved similar problems. Our constraints are different "
        "enough that I wouldn't copy them directly, but the general shape holds.",
        "Credit where it's due: the on-call engineers spotted most of these patterns first. I just put the numbers together.",
        "If this email is too long, the short version is in the first line of each section. The rest is supporting detail.",
        "I've tried to keep opinions clearly separated from measurements, but tell me if something reads as more certain than it is.",
    ),
    details=(
        "The dashboards behind the {topic} are linked in the doc, including the raw queries, so anyone can check my reading of the data.",
        "I'd like the change for the {topic} to go out behind a flag, so we can turn it off in seconds if anything looks wrong.",
        "I looked at a couple of alternatives for the {topic}. They either cost more or add moving parts, so I don't think they're worth it right now.",
        "The {topic} isn't urgent in the sense of waking anyone up, but it's the kind of problem that gets more expensive every month we leave it.",
        "For the {topic}, the rollback steps are written down too. They're short, which is a good sign.",
        "Nothing about the {topic} requires downtime. Everything can be rolled out gradually during normal working hours.",
        "If someone sees a flaw in my reasoning on the {topic}, please say so. It's much cheaper to fix a wrong assumption in an email than in production.",
        "The {topic} also came up in the last architecture sync, and the general feeling there matched what I'm proposing.",
        "To be clear, the {topic} isn't anyone's fault. The current setup was reasonable when it was built; our needs have simply outgrown it.",
        "For the {topic}, I'd like a short design note in the repository as well, so the reasoning survives longer than this email thread.",
        "The {topic} is also a good candidate for a load test in staging before we touch production. The tooling is already there.",
        "I've checked the {topic} against our cost forecast. The change is roughly neutral, and possibly a small saving.",
        "Security has seen the {topic} proposal and has no concerns, as long as the new component follows our standard hardening.",
        "If the {topic} goes the way I expect, it will also simplify on-call. Fewer moving parts means fewer ways to be woken up.",
        "On the {topic}, I've also written a small script to reproduce the problem locally, which should make testing the fix much easier.",
        "The {topic} needs no changes from other teams, as far as I can tell. It's contained within our services.",
        "For the {topic}, I'd like to pair with whoever picks it up for the first day, to share what I found.",
        "I expect the {topic} to show up clearly in the weekly reliability report once it's done, which will be a nice confirmation.",
        "The {topic} is also a good learning opportunity for the newer people on the team, if anyone wants to get involved.",
        "For the {topic}, I've tried to keep the change small enough to review in one sitting.",
    ),
)
