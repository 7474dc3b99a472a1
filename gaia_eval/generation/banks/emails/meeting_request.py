"""Phrase bank of the meeting request: its cast, openings, asides, details and subjects (topics, paragraphs,
figures, decision, tasks).

Body paragraphs may use the shared variables, the item's picks and figures, {topic}, and the first names
{sender} and {to1}; a paragraph starting with "?" is optional. Task owners: sender, to1, to2, cc1."""

from __future__ import annotations

from gaia_eval.generation.specs import ActionSpec as Act
from gaia_eval.generation.specs import EmailItem as Item
from gaia_eval.generation.specs import EmailType
from gaia_eval.generation.specs import FigureSpec as Fig

SPEC = EmailType(
    subjects=("Meeting request: {project} kickoff", "Can we find time for the {first_topic}?",
              "Scheduling: {first_topic}", "Time for a {project} planning session?"),
    label="meeting request",
    sender_roles=("Program Manager", "Chief of Staff", "Director of Operations", "Product Manager", "Engineering Manager"),
    to_roles=("Engineering Manager", "Design Lead", "Head of Sales", "Marketing Manager", "Operations Lead",
              "Customer Success Lead"),
    to_count=(1, 3),
    cc_roles=("Executive Assistant", "Office Manager", "Project Coordinator"),
    cc_count=(0, 1),
    openings=(
        "I'd like to get a few things on the calendar, and it's easier to explain them together: {topics}.",
        "Writing to line up time for {topics}. I've tried to make the asks concrete so we can settle this over email.",
        "A scheduling email, I'm afraid, but an important one. It covers {topics}.",
    ),
    closings=(
        "If any of this clashes with something I don't know about, tell me and I'll rework it.",
        "Thanks for bearing with the logistics. Reply here with any conflicts.",
        "Looking forward to getting these on the calendar. Let me know if anything doesn't work.",
    ),
    items=(
        Item(
            topic="{project} kickoff",
            request="When are we doing the {project} kickoff? My team is keen to get started.",
            figures=(Fig("kickoff", "date", "date of the {project} kickoff", 7, 21),
                     Fig("length", "duration", "planned length of the {project} kickoff", 90, 180, 30, unit="minutes")),
            body=(
                "For the {project} kickoff, I'm proposing {kickoff}, for {length}, with the core team plus one "
                "person from each stakeholder group.",
                "?The aim is to agree on scope, owners, and how we'll make decisions, so that the first few weeks "
                "aren't spent rediscovering the same questions in different meetings.",
                "?I know calendars are packed. I picked the date after checking availability, and it's the only day "
                "in the next few weeks that works for almost everyone.",
                "?I'll keep the session practical: a short framing at the start, then most of the time on the open questions, and we'll finish with owners for each workstream.",
                "?Lunch will be provided, and I've kept the afternoon free so people can stay on for smaller follow-up conversations if they're useful.",
                "?If you'd like someone else from your team to attend instead of you, that's fine, as long as they can make decisions on your team's behalf.",
            ),
            decision="hold the {project} kickoff in person at the {city} office",
            actions=(Act("to1", "confirm who from the team will attend the kickoff", (2, 6)),
                     Act("sender", "send the calendar invite for the {project} kickoff", (1, 3))),
        ),
        Item(
            topic="design sprint",
            request="Are we still planning a design sprint? The team would like to know when to block time.",
            figures=(Fig("sprint_start", "date", "start date of the design sprint", 10, 30),
                     Fig("sprinters", "count", "number of people taking part in the design sprint", 5, 8, unit="people")),
            body=(
                "I'd like to lock in the design sprint for the {project} onboarding flow, starting on "
                "{sprint_start} with {sprinters} people from product, design and engineering.",
                "?The format is the usual one: understand the problem, sketch, decide, prototype and test with real "
                "users by the end of the week. It's intense, but it compresses months of debate into days.",
                "?The people taking part need to be fully available for the week. A sprint where half the room is "
                "answering messages produces half a result.",
                "?We'll recruit test users in advance through the customer success team, so the last day isn't "
                "spent scrambling for people to talk to.",
            ),
            decision="run the design sprint in person for the whole week",
            actions=(Act("to1", "nominate an engineer for the design sprint", (2, 6)),
                     Act("cc1", "book a room for the design sprint", (2, 5))),
        ),
        Item(
            topic="quarterly business review with {client}",
            request="{client} asked about the quarterly business review. Do we have a date yet?",
            figures=(Fig("qbr", "date", "date requested for the quarterly business review with {client}", 14, 35),
                     Fig("attendees", "count", "number of expected attendees at the quarterly business review", 8, 15,
                         unit="attendees")),
            body=(
                "The quarterly business review with {client} needs a date. They've asked for "
                "{qbr}, and we're expecting {attendees} people across both sides.",
                "?Last quarter's review ran long and we never got to the roadmap discussion, which is the part they "
                "care about most. I'd like to fix that this time.",
                "?Their new operations lead will join for the first time, so it's a good chance to reset the relationship and make sure the metrics we show are the ones they actually track.",
                "?I'd like to open with their goals for the next quarter rather than our slides. The best reviews we've had started with their priorities and worked back to ours.",
                "?We should also prepare a short, honest view of what didn't go well last quarter. They know about it anyway, and addressing it first builds a lot of trust.",
            ),
            decision="run the quarterly business review as a half-day session",
            actions=(Act("to1", "prepare the account metrics for the quarterly business review", (5, 12)),),
        ),
        Item(
            topic="planning workshop",
            request="What's the plan for the planning workshop? Last time it felt rushed.",
            figures=(Fig("block", "duration", "time reserved for open discussion in the planning workshop", 30, 75, 15,
                         unit="minutes"),),
            body=(
                "For the planning workshop, I'd like to keep presentations short and reserve {block} for open "
                "discussion. The last workshop ran out of time right when the useful conversation started.",
                "?If you're presenting, please aim for the decisions you need rather than a full tour of the work. "
                "Everyone in the room can read the details later.",
                "?I'd also like to end with a short round where everyone names one thing they'll do differently. It sounds a little corny, but it's the part people remember.",
                "?I'd also like a short slot at the start to agree on what a good outcome looks like. It sounds obvious, but it keeps the discussion from wandering.",
                "?If there's a topic you think is missing, suggest it. I'd rather have a slightly longer list to choose from than discover the important topic afterwards.",
            ),
            decision="cap each workshop presentation at ten minutes",
            actions=(Act("to1", "send the topics for the planning workshop agenda", (2, 6)),),
        ),
        Item(
            topic="team offsite",
            request="Have you found a venue for the team offsite yet? The good ones book up quickly.",
            figures=(Fig("capacity", "count", "number of people the offsite venue holds", 30, 80, 5, unit="people"),
                     Fig("cost", "amount", "day rate of the offsite venue including catering", 4000, 12000, 250)),
            body=(
                "I've been looking at venues for the team offsite. The best one so far holds {capacity} people and "
                "costs {cost} for the day, including catering.",
                "?It's a bit outside the city, which I think is a feature: people are less tempted to slip back to "
                "the office for one quick thing.",
                "?The venue also has a couple of breakout rooms, which we didn't have last year. That should make the small-group sessions much easier to run.",
                "?Transport is straightforward: there's a direct train, and the venue can arrange a shuttle from the station for anyone carrying equipment.",
                "?I've also checked that the venue has decent Wi-Fi and enough screens, which was a problem last year and cost us most of a morning.",
            ),
            decision="book the offsite venue for the full day",
            actions=(Act("to1", "approve the offsite venue budget", (2, 5)),
                     Act("cc1", "reserve the offsite venue", (3, 7))),
        ),
        Item(
            topic="recurring sync with {client}",
            request="Should we set up something regular with {client}? Issues keep landing on us at random times.",
            figures=(Fig("sync", "duration", "length of the recurring sync with {client}", 30, 60, 15, unit="minutes"),),
            body=(
                "I'd like to set up a recurring sync with {client}, {sync} every other week, so issues stop "
                "piling up between the quarterly reviews.",
                "?Their team asked for this directly, which is a good sign. They want to be more involved, not less.",
                "?A regular slot also means fewer ad hoc escalations. When people know there's a place to raise something next week, they're less likely to send an urgent email today.",
                "?I'd keep the format light: a shared list of open items that both sides can add to, and the sync only covers what's on the list.",
                "?If a sync has nothing on the list, we cancel it. The point is to create a reliable place for issues, not another meeting for its own sake.",
            ),
            decision="start a biweekly sync with the {client} team",
            actions=(Act("to2", "share the team's preferred time slots for the sync", (2, 5)),),
        ),
    ),
    asides=(
        "I looked at everyone's calendars before proposing anything, so hopefully there are no big clashes. If "
        "there are, it's because your calendar is private, not because I ignored it.",
        "I'd like these sessions to be working sessions rather than presentations. Laptops open, decisions made, "
        "people leaving with fewer open questions than they came in with.",
        "If you can't make it in person, there will be a video link, but I'd really encourage coming in. These go "
        "much better when people are in the same room.",
        "I'm also trying to cut down on recurring meetings that have outlived their purpose, so this isn't only adding to calendars.",
        "If you've got feedback on how we ran similar sessions last time, I'd love to hear it before we plan this one.",
        "Please forward this to anyone I've missed who should be involved. I'd rather have one person too many than one too few.",
    ),
    details=(
        "On the {topic}, I'm flexible on the details as long as the core group can be there.",
        "For the {topic}, please let me know about any accessibility or dietary needs, so we can plan around them rather than improvise on the day.",
        "I know the {topic} is one more thing in a busy month. I've tried to make it worth everyone's time.",
        "If the {topic} clashes with something important on your side, tell me early and we'll find an alternative.",
        "We'll need a note-taker for the {topic} as well. Volunteers are very welcome.",
        "I've kept the {topic} deliberately small. Bigger groups make for longer meetings and fewer decisions.",
        "There will be a video link for the {topic} for anyone who can't travel, but the conversation works best in person.",
        "Please treat the {topic} as a priority. Moving it would push back several other things.",
        "For the {topic}, I'd ask people to keep laptops closed except for note-taking. The sessions are short, and full attention makes them shorter.",
        "If anyone new to the group is joining the {topic}, I'm happy to give them a short briefing beforehand so they're not catching up in the room.",
        "The {topic} is also a good moment to meet people you usually only see on video. Please come if you possibly can.",
        "Everything related to the {topic} will live in one shared folder, so nobody has to hunt through email threads for the latest version.",
        "For the {topic}, I've avoided the end of the month, because that's when finance and sales are busiest.",
        "I'd like the {topic} to finish on time, so we'll keep to the agenda and park anything that needs a longer discussion.",
        "I'll share the final details of the {topic} a few days ahead, once numbers are confirmed.",
        "The {topic} will also have a short slot for questions from people who can't attend, collected in advance.",
        "If the {topic} needs anything special, like equipment or a particular room layout, please mention it early.",
        "For the {topic}, I'd like at least one person from each team, so nobody hears about the outcome second-hand.",
        "I've checked the {topic} against public holidays in all our offices, so nobody should be caught out.",
        "The {topic} is meant to save time overall. If it ends up costing more than it saves, tell me and we'll rethink it.",
    ),
)
