"""Phrase bank of vendor communication: its cast, openings, asides, details and subjects (topics, paragraphs,
figures, decision, tasks).

Body paragraphs may use the shared variables, the item's picks and figures, {topic}, and the first names
{sender} and {to1}; a paragraph starting with "?" is optional. Task owners: sender, to1, to2, cc1."""

from __future__ import annotations

from gaia_eval.generation.specs import ActionSpec as Act
from gaia_eval.generation.specs import EmailItem as Item
from gaia_eval.generation.specs import EmailType
from gaia_eval.generation.specs import FigureSpec as Fig

SPEC = EmailType(
    subjects=("{vendor} renewal and service review", "Follow-up on our {vendor} account", "{company} / {vendor}: open items"),
    label="vendor communication",
    sender_roles=("Procurement Manager", "Operations Manager", "IT Manager", "Facilities Manager"),
    to_roles=("Account Manager", "Sales Representative", "Customer Success Manager", "Project Coordinator"),
    to_count=(1, 2),
    cc_roles=("Finance Manager", "Legal Counsel", "Office Manager"),
    cc_count=(0, 1),
    openings=(
        "Thanks for the call last week. I wanted to follow up in writing on the open items between {company} and "
        "{vendor}: {topics}.",
        "I'm writing about a few things on our account that need attention, namely {topics}.",
        "Ahead of our quarterly review, here's where we stand on {topics}.",
    ),
    closings=(
        "We value the relationship and want to keep working together, so I'm hopeful we can resolve these quickly.",
        "Please let me know if you need anything else from our side to move these forward.",
        "Thanks in advance. Happy to get on a call if that's faster for any of these.",
    ),
    items=(
        Item(
            topic="contract renewal terms",
            request="We've sent the contract renewal terms for next year. Please let us know your thoughts. We'd like to have everything signed before the current agreement runs out.",
            figures=(Fig("proposed", "amount", "", 70000, 95000, 1000, planted=False),
                     Fig("counter", "amount", "annual fee offered for the renewal", 52000, 66000, 500)),
            body=(
                "On the contract renewal terms: the proposed annual fee of {proposed} is a significant increase over "
                "what we pay today. We can commit to a two-year term at {counter} per year.",
                "?We've been happy with the service overall, but an increase of that size needs a strong "
                "justification on our side, especially in a year when we're cutting costs elsewhere.",
                "?To be clear, we'd like to continue working together. This is about finding terms that make sense for both sides, not about looking for an exit.",
                "?We'd also like the renewal to include the reporting improvements you mentioned during our last review, at no extra cost.",
                "?If the two-year term isn't workable for you, we'd consider other structures, but the total cost needs to stay in the same range.",
            ),
            decision="offer a two-year renewal at {counter} per year",
            decision_line="After discussing it internally, we've decided to {decision}.",
            actions=(Act("to1", "send revised renewal terms", (3, 8)),
                     Act("cc1", "review the revised contract language", (5, 12))),
        ),
        Item(
            topic="delivery delays",
            request="We've noticed some questions from your team about delivery delays. Could you share the details? Our logistics team mentioned there have been some scheduling challenges on both sides.",
            figures=(Fig("late", "count", "number of late shipments last quarter", 6, 15, unit="shipments"),
                     Fig("delay", "duration", "average delivery delay last quarter", 3, 9, unit="days")),
            body=(
                "I need to raise the delivery delays: {late} shipments arrived late last quarter, by an average "
                "of {delay}.",
                "?Each late shipment meant our team had to reshuffle work at short notice, and in two cases we had to "
                "buy locally at a higher price to cover the gap.",
                "?I've attached the list of affected orders with the promised and actual delivery dates, so your team doesn't have to reconstruct it.",
                "?We've always found your team responsive once an issue is raised. The problem is that we find out about delays when the delivery doesn't arrive, rather than in advance.",
                "?Advance notice alone would make a big difference. Even a day's warning lets us adjust schedules instead of scrambling.",
            ),
            decision="add a late-delivery credit to the service agreement",
            decision_line="Going forward, we'd like to {decision}.",
            actions=(Act("to1", "send a root-cause analysis for the late shipments", (3, 10)),),
        ),
        Item(
            topic="invoice discrepancy",
            request="We haven't received payment for the last invoice yet. Is there an invoice discrepancy we should know about? Our accounts team shows it as still outstanding.",
            figures=(Fig("over", "amount", "amount overbilled on the last invoice", 800, 4000, 50),),
            body=(
                "Our finance team found an invoice discrepancy: the last invoice billed {over} more than the agreed "
                "rate.",
                "?It looks like the old rate card was applied to part of the order. I've attached the relevant "
                "section of our agreement for reference.",
                "?Our accounts payable team has flagged the invoice on their side, so it won't be escalated as overdue while this is being resolved.",
                "?This is the second time the old rates have appeared on an invoice, so it would help to understand what's causing it on your side.",
                "?Once the corrected invoice arrives, we'll process it in our next payment run, which happens twice a month.",
            ),
            decision="pay the undisputed part of the invoice now and hold the rest",
            decision_line="In the meantime, we'll {decision}.",
            actions=(Act("to1", "issue a corrected invoice", (3, 8)),
                     Act("cc1", "pay the undisputed part of the invoice", (2, 5))),
        ),
        Item(
            topic="service level review",
            request="Could we schedule the service level review for this quarter? We'd like to share our side of the numbers. We've pulled together our own figures for the quarter.",
            figures=(Fig("uptime", "percent", "uptime last quarter", 95, 98),),
            body=(
                "For the service level review: uptime last quarter was {uptime}, below the level in our agreement, "
                "and we didn't receive the monthly reports we're entitled to.",
                "?I don't think anyone is hiding anything. It looks more like the reporting fell through the cracks "
                "when our account changed hands on your side.",
                "?We'd also find it helpful to have a named contact for service issues, rather than opening general tickets that take a while to reach the right person.",
                "?The dips seem to cluster around your maintenance windows, which suggests planned work is running longer than scheduled.",
                "?We'd like the reports to include incident summaries as well as the headline figures, so we can explain any issues to our own stakeholders.",
            ),
            decision="require a monthly service level report from now on",
            decision_line="We'd like to {decision}.",
            actions=(Act("to1", "send the monthly service level report", (10, 20)),),
        ),
        Item(
            topic="{city} site installation",
            request="We heard you're opening a new site. Are you planning to use us for the {city} site installation? We'd be glad to put together a proposal if you share the details.",
            figures=(Fig("devices", "count", "number of devices to install at the new {city} site", 30, 150, 5, unit="devices"),
                     Fig("site_open", "date", "opening date of the new {city} site", 30, 60)),
            body=(
                "On a more positive note, the {city} site installation: we're opening the new site on {site_open}, "
                "and we'd like {vendor} to handle the setup of {devices} devices.",
                "?The layout is similar to our existing offices, so we expect the configuration to be familiar. The "
                "main difference is a larger warehouse area with its own network.",
                "?Our facilities team can give your technicians access to the site ahead of time, so nothing waits on badges or keys on the day itself.",
                "?We'd like the same team that did our last installation, if possible. They know our setup well, and it went very smoothly.",
                "?Our IT team will need a short handover at the end, covering the configuration and any differences from our standard setup.",
            ),
            decision="use {vendor} for the {city} site installation",
            decision_line="We've decided to {decision}.",
            actions=(Act("to1", "send a quote for the {city} installation", (3, 8)),
                     Act("sender", "share the floor plans for the {city} site", (1, 4))),
        ),
        Item(
            topic="price list update",
            request="Have you had a chance to review our price list update? We'd like to confirm it's been received. The changes were announced to all customers last month.",
            figures=(Fig("increase", "percent", "price increase in the new price list", 3, 8),
                     Fig("effective", "date", "date the new price list takes effect", 20, 45)),
            body=(
                "We received the price list update announcing an increase of {increase} from {effective}.",
                "?We understand costs have gone up across the industry. Even so, we'd like the increase to apply to "
                "new orders only, not to the ones already agreed.",
                "?We'd also appreciate more notice for future changes. A few weeks is tight for us to adjust internal budgets.",
                "?For standing orders, we'd like to review the quantities before the new prices apply, in case it makes sense to adjust them.",
                "?We'd also appreciate a breakdown of which product lines are affected most, since the impact on us depends heavily on the mix.",
            ),
            decision="lock in current prices with a purchase order before {effective}",
            decision_line="To manage the impact, we'll {decision}.",
            actions=(Act("cc1", "raise the purchase order before the price change", (2, 6)),),
        ),
    ),
    external="vendor",
    sign_offs=("Best regards,", "Kind regards,", "Thanks,", "Regards,"),
    asides=(
        "Overall, the people we work with at {vendor} have been excellent, and that's a big part of why we want "
        "to get these issues sorted rather than look elsewhere.",
        "Our finance team closes the books at the end of the month, so anything involving invoices is easier to "
        "handle before then.",
        "For reference, our procurement policy requires any change in terms to be confirmed in writing, so please "
        "reply on this thread rather than by phone where you can.",
        "We've worked together for a long time, and we'd like that to continue. That's the spirit in which all of this is written.",
        "Our own customers have been asking more questions about our suppliers lately, which is part of why we're paying closer attention to these details.",
        "If it would help, we're happy to host your team at our office for a working session on any of these points.",
        "Please pass our thanks to the delivery crew as well. Whatever the scheduling issues, they've always been courteous and careful on site.",
        "I know some of this is outside your direct control, and I appreciate you carrying it back to the right people internally.",
        "For context, we're reviewing all our major suppliers this year, not just {vendor}, so none of this should be read as singling you out.",
        "Our accounts team has also updated our billing contact details, which are in the signature below, in case your records need refreshing.",
        "We're planning our volumes for next year at the moment, so clarity on these points will also help us give you a better forecast.",
        "Please treat the figures in this email as provisional until we've both confirmed them in writing.",
    ),
    details=(
        "On the {topic}, our finance and legal teams have both reviewed this email, so it reflects our official position.",
        "We'd appreciate a written response on the {topic}, as our procurement policy requires changes to be documented.",
        "The {topic} is on the agenda for our internal supplier meeting next month, so an answer before then would be ideal.",
        "For the {topic}, the supporting documents are attached, to save your team a round of back and forth.",
        "The {topic} matters to us mainly because of its knock-on effects on our own customers, which is why I'm being direct about it.",
        "If the {topic} needs input from someone more senior on your side, please loop them in. We're happy to meet at whatever level helps.",
        "We'd like to settle the {topic} before our next quarterly review, so it doesn't carry over.",
        "We've tried to keep our requests on the {topic} reasonable, and we're open to a counter-proposal.",
        "On the {topic}, clarity matters more to us than speed, though ideally we'd have both.",
        "For the {topic}, a short call between the two operations teams might be quicker than email. We're flexible on timing.",
        "The {topic} has been discussed with our leadership, and they're supportive of resolving it in a way that keeps the relationship strong.",
        "For the {topic}, please use this thread for any follow-up, so the whole history stays in one place.",
        "We'd like a single point of contact on your side for the {topic}, to avoid messages getting lost between departments.",
        "Your team's help on the {topic} so far has been appreciated, and I want to acknowledge that.",
        "For the {topic}, a response within the next two weeks would help us keep our own planning on track.",
        "For the {topic}, anyone copied on this email can also answer questions if I'm unavailable.",
        "The {topic} has been logged in our supplier review, which is standard practice for anything that affects service.",
        "If the {topic} involves a third party on your side, we'd appreciate knowing who, so we understand the full picture.",
        "On the {topic}, I've tried to stick to facts rather than impressions, and the supporting records are attached.",
        "For the {topic}, our operations team is available for a site visit if seeing the setup in person would help.",
    ),
)
