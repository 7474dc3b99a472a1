"""Phrase bank of the internal announcement: its cast, openings, asides, details and subjects (topics, paragraphs,
figures, decision, tasks).

Body paragraphs may use the shared variables, the item's picks and figures, {topic}, and the first names
{sender} and {to1}; a paragraph starting with "?" is optional. Task owners: sender, to1, to2, cc1."""

from __future__ import annotations

from gaia_eval.generation.specs import ActionSpec as Act
from gaia_eval.generation.specs import EmailItem as Item
from gaia_eval.generation.specs import EmailType
from gaia_eval.generation.specs import FigureSpec as Fig

SPEC = EmailType(
    subjects=("A few updates from the leadership team", "Changes coming in {next_month}",
              "Please share with your teams: {first_topic}", "Announcement: {first_topic} and more"),
    label="internal announcement",
    sender_roles=("CEO", "COO", "VP of People", "Head of Operations", "Chief of Staff"),
    to_roles=("Engineering Manager", "Sales Manager", "Support Manager", "Office Manager", "Marketing Lead",
              "Finance Lead"),
    to_count=(2, 4),
    cc_roles=("People Partner", "Internal Communications Manager"),
    cc_count=(0, 1),
    openings=(
        "I'm writing to you as team leads first, so you can answer questions before this goes out more widely. "
        "It covers {topics}.",
        "Ahead of the all-hands, here's a heads-up on {topics}. Please share with your teams.",
        "A few announcements this month, covering {topics}. I'd appreciate your help explaining them to your teams.",
    ),
    closings=(
        "Thank you for helping your teams through these changes. Questions are welcome, as always.",
        "If your team has questions you can't answer, send them my way and we'll add them to the FAQ.",
        "Thanks, all. I know announcements like this create questions, and I'd rather hear them than not.",
    ),
    items=(
        Item(
            topic="new expense policy",
            request="People are asking about the new expense policy. Is there a date and a summary I can share?",
            figures=(Fig("start", "date", "start date of the new expense policy", 10, 30),
                     Fig("limit", "amount", "daily meal allowance under the new expense policy", 50, 150, 5)),
            body=(
                "Starting {start}, the new expense policy takes effect. The biggest change is a simpler daily meal "
                "allowance of {limit} when traveling.",
                "?The old rules had so many exceptions that almost every claim needed a manual review. Finance spent "
                "more time checking lunch receipts than on anything that mattered.",
                "?The policy document itself is much shorter than the old one, which I count as a win on its own. It should take five minutes to read rather than an afternoon.",
                "?Approvals also get simpler. Anything under the standard limits no longer needs a manager's sign-off, which should save everyone a few clicks and a few days.",
                "?The old policy stays in effect for expenses incurred before the start date, so nobody needs to resubmit anything.",
            ),
            decision="replace meal receipts under the allowance with a simple declaration",
            actions=(Act("to1", "brief the team on the new expense policy", (3, 10)),),
        ),
        Item(
            topic="{city} office closure",
            request="I heard something about an {city} office closure. Can you confirm the details?",
            figures=(Fig("closure", "date", "date the {city} office closes for maintenance", 10, 40),),
            body=(
                "Because of the {city} office closure for electrical maintenance on {closure}, the building will be "
                "shut for the whole day.",
                "?The work can't be done with people in the building, and the landlord only had weekdays available. "
                "We pushed for a weekend and lost that argument.",
                "?Facilities will make sure the building is ready for everyone the following morning, including the coffee machines, which I'm told is the detail people care about most.",
                "?If anyone on your team can't work from home that day, for example because of equipment or their home situation, the nearest other office has desks reserved for them.",
                "?Deliveries scheduled for that day will be redirected, so please don't arrange for anything to be sent to the office.",
            ),
            decision="make the day of the {city} office closure a work-from-home day",
            actions=(Act("cc1", "send a closure reminder to everyone in the {city} office", (3, 8)),),
        ),
        Item(
            topic="benefits enrollment",
            request="When does benefits enrollment open, and is anything changing this year?",
            figures=(Fig("deadline", "date", "deadline for benefits enrollment", 14, 30),
                     Fig("match", "percent", "retirement match under the new benefits plan", 4, 6)),
            body=(
                "Benefits enrollment opens next week and closes on {deadline}. The headline change this year is the "
                "retirement match, which goes up to {match}.",
                "?Nothing else changes unless people want it to. If someone misses the deadline, they keep last "
                "year's choices, but they won't be able to change them until next year.",
                "?There will be two drop-in sessions with the benefits provider for anyone who wants to ask questions in person. Details will be on the intranet.",
                "?The enrollment system has also been updated, and it's noticeably easier to use than last year. Most people should be able to finish in a few minutes.",
                "?If anyone's circumstances have changed this year, for example a new child or a change in marital status, enrollment is the right moment to update their choices.",
            ),
            decision="increase the retirement match to {match} from this enrollment",
            actions=(Act("to1", "remind the team about the enrollment deadline", (3, 10)),),
        ),
        Item(
            topic="support team reorganization",
            request="There are rumors about a support team reorganization. Can we get the facts before the rumors spread further?",
            figures=(Fig("affected", "count", "number of people affected by the support team reorganization", 12, 40,
                         unit="people"),),
            body=(
                "The support team reorganization is the bigger change. The team will be organized into regional "
                "pods, so customers deal with the same people every time. It affects {affected} people.",
                "?Nobody's role is going away, and nobody's pay changes. What changes is who you work with most "
                "days, and which customers you get to know well.",
                "?We tested this with one region for two months. Customer satisfaction went up, and so did the "
                "team's own survey scores, which matters just as much to me.",
                "?Team leads in support have been involved from the start, and they'll be the first point of contact for questions. Please route questions through them rather than around them.",
                "?Customers will be told about the change in a simple note, focusing on the benefit to them: a consistent team that knows their account.",
                "?Managers in support will spend the first few weeks checking in with their pods frequently, so any early problems get caught quickly.",
            ),
            decision="organize the support team into regional pods",
            actions=(Act("to2", "hold one-on-ones with everyone affected by the reorganization", (5, 14)),),
        ),
        Item(
            topic="security training",
            request="How are we doing on security training? I don't want my team to be the one holding up the audit.",
            figures=(Fig("completion", "percent", "share of employees who have completed security training", 50, 80),),
            body=(
                "A reminder about security training: only {completion} of employees have completed it so far, and "
                "we need everyone done for the certification audit.",
                "?It takes well under an hour, and most people say it's less painful than they expected. The "
                "phishing section is actually useful.",
                "?If someone on your team has a genuine reason they can't complete it in time, let the people team know. We'd rather arrange something than have anyone stressed about it.",
                "?The audit checks completion records, not quiz scores, so nobody needs to worry about passing with flying colors. Finishing is what counts.",
                "?New joiners will complete the training as part of onboarding from now on, so we shouldn't end up in this position again.",
            ),
            decision="make security training mandatory before the certification audit",
            actions=(Act("to1", "follow up with everyone on the team who hasn't finished the security training",
                         (5, 12)),),
        ),
        Item(
            topic="company volunteer day",
            request="Is the company volunteer day actually happening? My team has been asking.",
            figures=(Fig("volday", "date", "date of the company volunteer day", 20, 50),),
            body=(
                "Some good news: the first company volunteer day is on {volday}. Everyone gets the day off "
                "to volunteer with a cause of their choice.",
                "?We'll have a list of partner charities for anyone who wants a suggestion, but people are free to "
                "choose their own.",
                "?Several people asked whether teams can volunteer together. They can, and a few teams are already planning to.",
                "?Volunteering isn't mandatory, of course. Anyone who'd rather not take part can work as normal, with no questions asked.",
                "?We'd love photos and stories afterwards, for anyone happy to share. Last year's charity drive stories were some of the most read posts on the intranet.",
            ),
            decision="give every employee one paid volunteer day per year",
            actions=(Act("cc1", "publish the list of partner charities", (3, 10)),),
        ),
    ),
    asides=(
        "I know change fatigue is real, and this is one more email in a busy month. I've tried to keep it to "
        "what actually affects people's day-to-day work.",
        "We'll repeat all of this at the all-hands, with time for questions. This email is so you're not "
        "hearing it for the first time on stage.",
        "If anyone on your team is on leave, please make sure they get this when they're back rather than "
        "finding out from a chat thread.",
        "We'll also publish a recording of the all-hands for anyone in a time zone where it falls outside working hours.",
        "Please remind your teams that questions can be anonymous. The form is linked on the intranet home page.",
        "I'd like to thank everyone who helped prepare these changes behind the scenes. It was a lot of careful work.",
        "For anyone joining the company in the next few weeks, onboarding materials will already reflect these changes.",
        "Please keep an eye on the intranet news page, where any follow-up details will be posted first.",
    ),
    details=(
        "On the {topic}, the intranet page has the full details and a short FAQ, which will keep growing as questions come in.",
        "Please make sure your team hears about the {topic} from you first. It lands better coming from someone they work with every day.",
        "The {topic} was discussed with the leadership team and the people team before this email, so you can speak about it with confidence.",
        "If anyone has concerns about the {topic} they'd rather not raise in a group, they can contact the people team directly and in confidence.",
        "The {topic} will come up at the all-hands as well, but this email is the reference version.",
        "For the {topic}, there are no changes to anyone's contract or pay unless this email says so explicitly.",
        "Feedback on the {topic} is welcome. Some of the details came directly from suggestions made by people across the company.",
        "Don't worry if your team asks questions about the {topic} that you can't answer yet. Saying you'll find out is a perfectly good answer.",
        "We considered several options for the {topic} before settling on this one. The details of the alternatives are on the intranet for anyone who's curious.",
        "The {topic} applies equally to full-time and part-time colleagues.",
        "If your team has practical questions about the {topic}, like how it affects a specific situation, the people team would rather hear them than have people guess.",
        "Timing for the {topic} was chosen to avoid the busiest weeks of the quarter where possible.",
        "The {topic} is final, but the way we roll it out isn't set in stone. If something isn't working in practice, say so.",
        "Thank you in advance for helping with the {topic}. Announcements like this go much better when team leads are involved.",
        "The {topic} has been shared with the works council and the relevant committees, as required.",
        "We've prepared a short slide on the {topic} that you can use in your team meetings if it helps.",
        "The {topic} has no effect on anyone's holiday plans already approved.",
        "If the {topic} raises questions from customers, please point them to their account manager rather than answering directly.",
        "Managers have already been briefed on the {topic}, so people can also take individual questions to their own manager.",
        "We'll check in on how the {topic} is landing after a month or so, and share what we learn.",
    ),
)
