"""Phrase bank of the project update: its cast, openings, asides, details and subjects (topics, paragraphs,
figures, decision, tasks).

Body paragraphs may use the shared variables, the item's picks and figures, {topic}, and the first names
{sender} and {to1}; a paragraph starting with "?" is optional. Task owners: sender, to1, to2, cc1."""

from __future__ import annotations

from gaia_eval.generation.specs import ActionSpec as Act
from gaia_eval.generation.specs import EmailItem as Item
from gaia_eval.generation.specs import EmailType
from gaia_eval.generation.specs import FigureSpec as Fig

SPEC = EmailType(
    subjects=("{project} status update", "{project} update for the week of {today}", "Weekly update: {project}",
              "Where {project} stands this week"),
    label="project update",
    sender_roles=("Project Manager", "Engineering Manager", "Program Manager", "Product Manager"),
    to_roles=("VP of Engineering", "Director of Product", "Head of Operations", "Engineering Director", "Product Lead"),
    to_count=(1, 3),
    cc_roles=("Tech Lead", "QA Lead", "Product Designer", "Data Analyst"),
    cc_count=(0, 2),
    openings=(
        "Here's this week's update on {project}. The short version: we're mostly on track, with a few things that "
        "need your attention, namely {topics}.",
        "A quick update on where {project} stands, covering {topics}.",
        "I wanted to send a proper update on {project} before the steering meeting. There's news on {topics}.",
    ),
    closings=(
        "Let me know if anything here needs a deeper conversation. Happy to set up time.",
        "That's it for this week. Shout if I've missed anything.",
        "As always, reply here or grab me on chat if you have questions.",
    ),
    items=(
        Item(
            topic="{project} timeline",
            request="Where does the {project} timeline stand? I keep hearing different dates depending on who I ask.",
            figures=(Fig("done", "percent", "share of {project} milestones completed", 55, 85),
                     Fig("beta", "date", "beta milestone date for {project}", 14, 40)),
            body=(
                "The {project} timeline is holding up. We're {done} of the way through the planned milestones, "
                "and the beta milestone is set for {beta}.",
                "?The slip we worried about last month didn't happen, largely because the integration work went "
                "faster than expected. The remaining risk is performance testing, which depends on the new test "
                "environment being ready in time.",
                "?I know the date moved once already, so I want to be clear that this one has buffer built in. "
                "If anything threatens it, you'll hear about it from me early, not the week before.",
                "?The team has also started a weekly demo for internal stakeholders, which has helped. People see progress instead of hearing about it, and the questions we get are much more specific.",
                "?We've also tightened how we track the remaining work. Every open task now has a single owner and a realistic estimate, which sounds basic but wasn't true a month ago.",
                "?The dependency on the platform team is the other thing I'm watching. They've been responsive, and their part is scheduled, but it's the one piece of the plan we don't control directly.",
            ),
            decision="keep the beta milestone on {beta} and hold the launch date",
            actions=(Act("cc1", "finish the performance test plan", (3, 10)),
                     Act("sender", "share the updated milestone plan with the steering group", (2, 6))),
        ),
        Item(
            topic="{project} budget",
            request="Finance is asking how the {project} budget is tracking. Are we still within what was approved?",
            figures=(Fig("total", "amount", "", 400000, 600000, 10000, planted=False),
                     Fig("spent", "amount", "budget spent on {project} to date", 180000, 320000, 5000)),
            body=(
                "On the {project} budget: we've spent {spent} of the {total} approved, which is roughly where we "
                "expected to be at this point.",
                "?The one line running hot is contractor time. We brought in extra help for the data work, and it "
                "paid off, but it wasn't free. Everything else is at or under plan.",
                "?Finance asked whether we expect to need a contingency. My honest answer is probably not, but I'd "
                "rather keep the option open until the beta is behind us.",
                "?For what it's worth, the budget tracking itself has improved a lot. We now reconcile against finance every two weeks instead of at quarter end, so there are fewer surprises in either direction.",
                "?Licensing came in slightly under plan, because we negotiated annual terms instead of monthly. That saving roughly offsets the extra contractor time, which is why the total still looks healthy.",
                "?I've also started reporting the budget by workstream rather than by cost category. It makes it much easier to see which parts of the project are expensive and why.",
            ),
            decision="end the contractor engagement at the end of {next_month}",
            actions=(Act("to1", "approve the revised contractor plan", (3, 8)),
                     Act("sender", "send the budget breakdown to finance", (2, 5))),
        ),
        Item(
            topic="data migration",
            request="How is the data migration going? Support mentioned some odd records last week.",
            figures=(Fig("records", "count", "number of customer records migrated so far", 40000, 90000, 1000, unit="records"),),
            body=(
                "The data migration is the part I'm happiest about. We've moved {records} customer records so far "
                "without a single data-loss incident.",
                "?The remaining records are the messy ones: duplicates, missing fields, and accounts that were merged "
                "by hand years ago. Those need more care than the bulk of the data did.",
                "?Support has been great here. They've been spot-checking migrated accounts every morning and "
                "flagging anything odd before customers notice.",
                "?We've also kept the old system running in read-only mode, so if anything looks wrong after a batch, support can compare against the original record in seconds.",
                "?Performance has held up better than expected. The nightly jobs finish well before the morning peak, so customers haven't noticed any slowdown while the migration runs.",
                "?Once the migration is done, we can switch off the old database servers, which is a nice saving and one less system for the on-call rotation to worry about.",
            ),
            decision="migrate the remaining records in weekly batches instead of one big cutover",
            actions=(Act("cc1", "write the rollback steps for the batch migration", (3, 10)),
                     Act("to2", "confirm the support team's availability for each batch", (2, 7))),
        ),
        Item(
            topic="backend staffing gap",
            request="Is the backend staffing gap going to affect the plan? I'd like to know before it becomes a surprise.",
            figures=(Fig("open_for", "duration", "time the backend role on the {project} team has been open",
                         5, 10, unit="weeks"),),
            body=(
                "The backend staffing gap is the risk I'd flag. We're still down one backend engineer, and the role "
                "has been open for {open_for}.",
                "?We've had decent candidates, but two of them accepted other offers late in the process. The "
                "market for this profile is tighter than we expected.",
                "?In the meantime, the team has been covering, but it's not sustainable for much longer without "
                "something slipping.",
                "?I've also asked the recruiting team to widen the search to a couple of other regions. It adds some coordination overhead, but it roughly doubles the pool of candidates.",
                "?The gap mostly affects the API work, because that's where we need deep backend experience. Front-end and data work are fully staffed and moving at the expected pace.",
                "?I've been careful not to let the gap turn into overtime. A couple of people offered to put in extra hours, and I said no; burning people out would cost us more than the delay.",
            ),
            decision="bring in a contractor to cover the open backend role until it's filled",
            actions=(Act("to1", "approve the contractor request for the backend role", (2, 6)),
                     Act("sender", "send two contractor profiles for review", (3, 8))),
        ),
        Item(
            topic="user testing results",
            request="Do you have the user testing results yet? The design team said the last round went well.",
            figures=(Fig("participants", "count", "number of participants in the latest round of user testing", 8, 20,
                         unit="participants"),
                     Fig("success", "percent", "task success rate in the latest user testing", 60, 90)),
            body=(
                "On the user testing results: we ran another round last week with {participants} participants, "
                "and the task success rate came in at {success}, up from the previous round.",
                "?The biggest remaining confusion is around the settings page. People look for notification options "
                "in the wrong place, and several gave up before finding them.",
                "?Some of the comments were genuinely encouraging, too. More than one person said the new flow felt "
                "faster, even where the timings were about the same.",
                "?The recordings are worth watching if you have half an hour. Seeing someone hunt for a button for a full minute is more persuasive than any metric I could put in an email.",
                "?The onboarding flow tested particularly well. Almost everyone completed it without help, which is a big change from the first round, when most participants got stuck at least once.",
                "?We also tested with two participants who use screen readers. Both completed the core tasks, and their feedback gave us a short list of accessibility fixes we'd have missed otherwise.",
            ),
            decision="redesign the settings page before launch",
            actions=(Act("cc1", "share the user testing recordings", (1, 5)),
                     Act("sender", "schedule a design review for the settings page", (2, 7))),
        ),
        Item(
            topic="security review",
            request="Has the security review come back? I'd like to know if there's anything that could block launch.",
            figures=(Fig("findings", "count", "number of findings from the {project} security review", 5, 12, unit="findings"),),
            body=(
                "The security review came back with {findings} findings. None are critical, but two are rated high "
                "and have to be fixed before launch.",
                "?The high-rated ones are both about session handling, which we were already planning to touch. The "
                "rest are hardening suggestions that are good practice but not urgent.",
                "?The reviewers were complimentary about the overall design, which is worth saying. Most of their comments were about configuration defaults rather than anything structural.",
                "?We've also agreed with the security team to make these reviews routine rather than one-off. A lighter review every quarter is much less disruptive than a big one before each launch.",
                "?The fixes themselves are small. The effort is mostly in testing, because session handling touches almost every part of the product.",
            ),
            decision="fix both high-rated findings before launch and schedule the rest after it",
            actions=(Act("cc1", "fix the high-rated security findings", (5, 12)),
                     Act("to1", "sign off on the exceptions for the low-rated findings", (5, 12))),
        ),
    ),
    asides=(
        "On a lighter note, the team celebrated the last milestone with a long lunch on Friday. Morale is good, "
        "which matters more than it shows up in any status report.",
        "The steering group asked for fewer slides and more plain text, which is why this update is an email "
        "rather than a deck.",
        "I've also cleaned up the project board, so the status there should finally match what's in this email.",
        "A reminder that the project wiki has the latest architecture notes, in case anyone new is joining the work.",
        "For newcomers to this list: these updates go out every week, and older ones are archived on the project wiki.",
        "The team has asked me to pass on thanks for the quick decisions last week. They unblocked more work than it may have seemed.",
        "I'm out for two days next week. The tech lead will cover anything urgent, and this thread will still reach me.",
    ),
    details=(
        "The team has been candid about the {topic} in our internal check-ins, which I appreciate. It's much easier to plan around a known problem than a hidden one.",
        "I'd rather flag the {topic} early and have it turn out fine than stay quiet and surprise you later.",
        "On the {topic}, the risk register now matches this email, so the steering group sees the same picture you do.",
        "The detailed breakdown of the {topic} is on the project board, along with the history of how we got here.",
        "If the steering group asks about the {topic}, the key message is that it's understood and under control, even if it isn't finished.",
        "Compared with the last update, the {topic} has moved in the right direction, though not as fast as I'd like.",
        "The {topic} came up in the last retrospective as well. The team's view matches mine, which is reassuring.",
        "As things stand today, nothing about the {topic} changes the overall launch plan.",
        "The {topic} is also one of the areas where the new planning process has paid off. We saw the issue coming weeks earlier than we would have last year.",
        "I've shared the {topic} with the team leads as well, so the people doing the work have the same information as the people funding it.",
        "One lesson from the {topic} that I'd like to keep: small, frequent check-ins beat big reviews. Problems surface while they're still cheap.",
        "For the {topic}, the next milestone to watch is already on the project calendar, so progress should be easy to follow from here.",
        "The {topic} also shapes how the rest of the plan unfolds, which is another reason I'm giving it this much attention.",
        "The {topic} doesn't need anything from you beyond what's asked here, but I wanted you to have the full picture.",
        "On the {topic}, the numbers in this email come straight from the project tracker, so they match what anyone would see there.",
        "If you'd like more detail on the {topic}, the team would be glad to walk you through it at the next demo.",
        "The {topic} has had a lot of attention from the team this week, and it shows in the quality of the work.",
        "For the {topic}, I've set a reminder to revisit it at the next steering meeting, so it doesn't quietly drift.",
        "I've kept the {topic} short here on purpose. The full background is in the project wiki for anyone who wants it.",
        "The {topic} is also where the team has learned the most this quarter, which will make the next phase smoother.",
    ),
)
