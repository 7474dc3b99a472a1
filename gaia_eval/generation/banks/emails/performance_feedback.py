"""Phrase bank of performance feedback: its cast, openings, asides, details and subjects (topics, paragraphs,
figures, decision, tasks).

Body paragraphs may use the shared variables, the item's picks and figures, {topic}, and the first names
{sender} and {to1}; a paragraph starting with "?" is optional. Task owners: sender, to1, to2, cc1."""

from __future__ import annotations

from gaia_eval.generation.specs import ActionSpec as Act
from gaia_eval.generation.specs import EmailItem as Item
from gaia_eval.generation.specs import EmailType
from gaia_eval.generation.specs import FigureSpec as Fig

SPEC = EmailType(
    subjects=("Feedback from our review conversation", "Following up on your mid-year review",
              "Notes from our one-on-one", "Your review: what we agreed"),
    label="performance feedback",
    sender_roles=("Engineering Manager", "Senior Engineering Manager"),
    to_roles=("Software Engineer", "Senior Software Engineer", "QA Engineer", "Data Engineer",
              "Site Reliability Engineer"),
    to_count=(1, 1),
    cc_roles=("HR Business Partner",),
    cc_count=(0, 1),
    openings=(
        "Thanks for the open conversation earlier. As promised, here's what we covered, in writing: {topics}.",
        "I wanted to follow up on our review with a written version, so we both have the same picture. We "
        "talked about {topics}.",
        "Following up on our chat. Overall I'm really happy with how this half went, and I want to capture the "
        "specifics on {topics}.",
    ),
    closings=(
        "Thanks again for a great half. I'm looking forward to the next one.",
        "As always, my door is open if anything here doesn't sit right or needs more discussion.",
        "Let me know if I've missed or misremembered anything from our conversation.",
    ),
    items=(
        Item(
            topic="incident response work",
            request="Could you send me a written version of what we discussed about my incident response work?",
            figures=(Fig("incidents", "count", "number of incidents led to resolution this quarter", 4, 9, unit="incidents"),),
            body=(
                "On the positive side, there is your incident response work. You led {incidents} incidents to resolution this quarter, and "
                "the write-ups were some of the clearest I've read.",
                "?What stood out to me wasn't just the fixes; it was how calm the channel stayed while you were "
                "leading. People noticed, including people outside the team.",
                "?I'd also encourage you to share how you run an incident channel with the rest of the team. Those habits are worth spreading.",
                "?You also did something I don't see often: after each incident you followed up on the fixes yourself, instead of leaving them as tickets for someone else to pick up.",
                "?If you're interested, I'd like you to help shape how we train new people for on-call. Your approach would be a good model.",
                "?Several people from other teams mentioned your calm, clear updates during the incidents without being asked. That kind of unprompted feedback is rare, and it carries weight.",
            ),
            decision="nominate {you} for the quarterly engineering award",
            decision_line="Because of that, I've decided to {decision}.",
            actions=(Act("sender", "submit the award nomination", (3, 8)),),
        ),
        Item(
            topic="code review turnaround",
            request="I'd like to understand the feedback on code review turnaround better. Can you put it in writing?",
            figures=(Fig("turnaround", "duration", "average code review turnaround", 20, 48, unit="hours"),),
            body=(
                "One area to work on is code review turnaround. Your reviews are thorough, but they've averaged "
                "{turnaround}, and that blocks others more than it might seem.",
                "?I don't want you to become less thorough. The goal is a first pass sooner, even if the deeper "
                "comments come in a second round.",
                "?One practical idea is to do a quick pass when a review first lands, just to unblock the author, and save the deeper read for later that day.",
                "?I know part of the delay comes from how many reviews land on you. That's partly my fault for not spreading them more evenly, and I'll fix the rotation.",
                "?This isn't about speed for its own sake. A review that sits for a day stalls someone's work, and that adds up across the team.",
                "?To be clear, the quality of your reviews is a strength. People learn from your comments, and I'd hate for that to get lost in the push for speed.",
            ),
            decision="aim for a first review within one working day",
            decision_line="We agreed to {decision}.",
            actions=(Act("to1", "block out a daily slot for code reviews", (1, 5)),),
        ),
        Item(
            topic="conference budget",
            request="You mentioned a conference budget. Is that confirmed?",
            figures=(Fig("conf", "amount", "conference budget approved for this year", 1500, 3000, 250),),
            body=(
                "As part of your growth plan, I've confirmed a conference budget of {conf} for this year, for an "
                "event of your choice.",
                "?I'd pick something slightly outside your comfort zone. The most useful conferences are often the "
                "ones where you don't already know the speakers.",
                "?If you'd like to speak rather than just attend, I'm happy to help with the proposal. Speaking is a great way to make the trip more useful.",
                "?When you're back, a short write-up or a brown-bag session for the team would be a great way to share what you learned.",
                "?The budget covers travel and accommodation as well as the ticket, so don't let the location put you off if the right event is further away.",
                "?Conferences are also a good place to meet people doing similar work at other companies. Some of the most useful ideas I've picked up came from hallway conversations.",
            ),
            decision="attend one external conference this year",
            decision_line="We agreed that you'll {decision}.",
            actions=(Act("to1", "pick a conference and share the details", (5, 14)),),
        ),
        Item(
            topic="mentoring",
            request="Can we make my mentoring more official? It takes real time and nobody sees it.",
            figures=(Fig("mentees", "count", "number of junior engineers mentored informally", 2, 4, unit="engineers"),),
            body=(
                "On mentoring: you've been mentoring {mentees} junior engineers informally. People have noticed, and "
                "it's made a real difference to how quickly they've found their feet.",
                "?I'd like that to count for something. Right now it's invisible in your goals, which isn't fair to "
                "you.",
                "?Mentoring is also one of the clearest signals the promotion committee looks for at the next level, so making it visible helps you in more ways than one.",
                "?It would help to keep a short log of the mentoring: who, roughly how often, and what you worked on. It doesn't need to be formal, just enough to show the impact.",
                "?If it ever starts to crowd out your own work, tell me. Mentoring should be part of your job, not something squeezed in on top of it.",
                "?The engineers you've been helping have said, unprompted, that your guidance made their first months much easier. That's exactly the kind of impact I want to recognize.",
            ),
            decision="make mentoring a formal part of {your} goals",
            decision_line="So we agreed to {decision}.",
            actions=(Act("to1", "write down the mentoring goals for the next half", (7, 14)),),
        ),
        Item(
            topic="{project} ownership",
            request="I'd like to understand what {project} ownership would mean in practice before I commit.",
            figures=(Fig("share", "percent", "share of time on {project} at first", 20, 40, 5),),
            body=(
                "On {project} ownership: I'd like you to take it over. It would be about {share} of your time at "
                "first, growing as the current owner steps back.",
                "?This is a stretch, on purpose. You'll be making calls that used to be mine, and I'll back them "
                "even when I'd have done it differently.",
                "?The current owner is supportive, by the way. They asked for this change themselves, so you won't be stepping on anyone's toes.",
                "?Ownership means setting priorities and making trade-off calls, not doing all the work yourself. You'll have the team's time to plan with.",
                "?We'll review how it's going after the first couple of months. If it isn't working for you, we can adjust without it being a big deal.",
                "?I'll stay close to it for the first few weeks, mostly to help with stakeholder conversations. After that, it's yours to run.",
            ),
            decision="hand ownership of {project} to {you}",
            decision_line="We agreed to {decision}.",
            actions=(Act("sender", "announce the {project} ownership change to the team", (3, 8)),
                     Act("to1", "set up a handover session with the current owner", (2, 6))),
        ),
        Item(
            topic="monthly check-ins",
            request="How often should we meet between now and the next review?",
            figures=(Fig("review", "date", "date of the next formal review", 40, 90),),
            body=(
                "About monthly check-ins: your next formal review is on {review}, and I don't want anything in it "
                "to be a surprise.",
                "?These don't need to be long. Half an hour to look at the goals, what's moving, and what's stuck.",
                "?We can use part of each check-in for anything on your mind, not just the goals. I'd rather hear about small frustrations early than big ones late.",
                "?I'll bring any feedback I've heard since the last check-in, and I'd like you to bring anything that's getting in your way.",
                "?If a month is particularly busy, we can keep the check-in short, but I'd rather not skip them. Consistency is the whole point.",
                "?We can keep them informal, over coffee if we're both in the office, or on a quick call if not. The format matters much less than the habit.",
            ),
            decision="hold monthly check-ins until the next formal review",
            decision_line="So we'll {decision}.",
            actions=(Act("sender", "send a calendar invite for the monthly check-ins", (1, 4)),),
        ),
    ),
    sign_offs=("Best,", "Thanks,", "Cheers,", "Talk soon,"),
    asides=(
        "I want to say clearly that the overall picture is very positive. The areas to work on are about growth, "
        "not about problems.",
        "I've kept this email to what we discussed. The formal write-up in the HR system will say the same things, "
        "in more formal language.",
        "Please take some time with this before replying. There's no rush, and I'd rather have your considered "
        "reaction than a quick one.",
        "I also want to acknowledge that this half had more change than usual: new priorities, new people, and a reorganization. You handled it well.",
        "If you'd like to discuss any of this with someone other than me, the HR partner for our team is always available.",
        "It's been a pleasure working with you this half, and I don't say that as a formality.",
        "One more general note: you've been generous with your time for other teams this half. That kind of collaboration is noticed more than you might think.",
        "I'd encourage you to keep a running list of your wins between reviews. It makes these conversations easier and fairer for both of us.",
        "If your goals change over the coming months, that's fine. Tell me, and we'll adjust rather than stick to something that no longer fits.",
    ),
    details=(
        "On the {topic}, I want to be specific rather than general, because specific feedback is the only kind that's useful.",
        "The {topic} will appear in your written review in the same words, so nothing there should come as a surprise.",
        "If my read on the {topic} doesn't match yours, please tell me. I'd rather have that conversation now than at the next review.",
        "I've talked about the {topic} with a couple of your peers as well, and their view lines up with mine.",
        "On the {topic}, I've tried to write down what we agreed rather than everything we discussed, to keep this readable.",
        "Take whatever time you need to think the {topic} over. There's no deadline for your reaction.",
        "I'm confident about the {topic}. You've shown the judgment it needs, and I'm here to help where I can.",
        "The {topic} connects to the career conversation we've been having, so it isn't a standalone point.",
        "The {topic} is also something I'd like to hear your perspective on. You may see things from where you sit that I don't.",
        "On the {topic}, I'd rather we focus on the next few months than on what's already happened.",
        "The {topic} is the kind of thing that makes a difference to the team, not just to you, which is why I think it matters.",
        "If anything about the {topic} feels unfair or off, please say so. You won't hurt my feelings.",
        "The {topic} is something I'll support you on actively, not just note in a review.",
        "The {topic} is also something we can revisit at any check-in, not just at review time.",
        "For the {topic}, I've tried to describe what I've seen rather than what I assume, so please correct me if I've got the context wrong.",
        "The {topic} came up in the calibration discussion as well, and the view there was consistent with mine.",
        "None of the {topic} needs to happen overnight. Steady progress is what I'm looking for.",
        "On the {topic}, let me know if there's anything I can take off your plate to make room.",
        "On the {topic}, let's agree on how we'll both know it's going well, so it doesn't come down to impressions.",
        "The {topic} will be one of the things we look back on at the next review, alongside your own goals.",
    ),
)
