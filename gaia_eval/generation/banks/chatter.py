"""Meeting talk that carries no planted fact: greetings, small talk, hiccups, tangents, deliberation, and the
shared shapes in which decisions are made and tasks are handed out.

Slots: `lead` is the chair; `p`, `q`, `r` are any other participants (in a one-on-one, `q` may be the lead);
`a`, `b` are the people on the current agenda item; `owner` takes a task. Pools named GROUP_* only make
sense with three or more people. Nothing here may contain a digit, a person's name or a summary heading, so
filler never collides with a planted fact.
"""

from __future__ import annotations

from gaia_eval.generation.specs import Exchange

CALL_OPENINGS: tuple[Exchange, ...] = (
    (("lead", "Hi everyone, can you all hear me okay?"), ("p", "Loud and clear."), ("q", "Yep, all good here.")),
    (("lead", "Morning! Let's give people another minute to join."), ("p", "I think {q} is just getting off another call."),
     ("q", "I'm here, I'm here. Sorry, back-to-back today.")),
    (("p", "Hello? Is this the right link?"), ("lead", "It is, welcome. We're just getting started."),
     ("p", "Great. For a second I thought I was in the wrong meeting again.")),
    (("lead", "Hey all. {p}, your audio is a little echoey."), ("p", "Is that better? I switched to my headset."),
     ("lead", "Much better, thanks.")),
    (("lead", "Hi, hi. Give me one second, I'm just closing about forty tabs."), ("q", "Take your time."),
     ("lead", "Okay. Done. Let's go.")),
    (("q", "Good morning, or afternoon, depending on where you are."), ("lead", "Ha, yes. Thanks for joining, everyone.")),
)  # fmt: skip

ROOM_OPENINGS: tuple[Exchange, ...] = (
    (("lead", "Okay, let's get started. Is everyone here?"), ("p", "{q} is grabbing a coffee, should be right back."),
     ("q", "Back. Sorry, the queue at the machine was ridiculous.")),
    (("lead", "Morning, everyone. Grab a seat wherever."), ("p", "Who booked this room? It's freezing."),
     ("lead", "Facilities says they're fixing the thermostat. Again.")),
    (("p", "Is the screen working today?"), ("lead", "Let's find out. Yes, we have a picture. Small victories."),
     ("q", "Miracles do happen.")),
    (("lead", "Right, I think we're all here. Door's closed, let's start."), ("q", "Thanks for bringing snacks, by the way."),
     ("lead", "Don't thank me, they were left over from yesterday.")),
)  # fmt: skip

PAIR_OPENINGS: tuple[Exchange, ...] = (
    (("lead", "Hi, thanks for making the time."), ("p", "Of course. How's your week going?"),
     ("lead", "Busy, but good. Yours?"), ("p", "Same, honestly.")),
    (("p", "Hi! Sorry, I'm a minute late, my last meeting ran over."),
     ("lead", "No worries at all. Grab a coffee if you need one, I'll wait."), ("p", "I'm good, thanks. Let's do it.")),
    (("lead", "Hey. Can you hear me alright?"), ("p", "Yep, all good. You're a bit quiet, but fine."),
     ("lead", "Let me move closer to the mic. Better?"), ("p", "Perfect.")),
)  # fmt: skip

AGENDA_LINES: tuple[str, ...] = (
    "On the agenda today: {agenda}.",
    "Here's what I'd like to get through: {agenda}. Let's try to keep it tight.",
    "So I've got {agenda} on the list. If there's anything else, shout now.",
    "Quick plan for the time we have: {agenda}.",
    "Today we need to cover {agenda}, and I'd like actual decisions, not just discussion.",
)

# The lead's line that opens the first agenda item: placeholders {topic} and {a}.
FIRST_INTROS: tuple[str, ...] = (
    "Let's start with the {topic}. {a}, do you want to kick us off?",
    "First up, the {topic}.",
    "Let's kick off with the {topic}. {a}?",
    "So, first thing: the {topic}.",
)

# Small talk between two people (q may be the lead): fine in any meeting.
SMALL_TALK: tuple[Exchange, ...] = (
    (("q", "How's the new puppy, {p}?"), ("p", "Chewing everything. He ate a charger cable yesterday."),
     ("q", "Oh no. Is he okay?"), ("p", "He's fine. The charger is not.")),
    (("p", "Is it raining where you are too?"), ("q", "Pouring. I got soaked on the way in."),
     ("p", "Same. I keep telling myself I'll buy a proper umbrella.")),
    (("q", "Did you end up running that race, {p}?"), ("p", "I did! Slowly, but I finished."),
     ("q", "That's great, congratulations."), ("p", "Thanks. My legs are still filing complaints.")),
    (("p", "Sorry if you hear drilling. The neighbors are renovating their kitchen."),
     ("q", "I can't hear anything, you're fine."), ("p", "Give it a minute. It comes in waves.")),
    (("p", "I'm on my third coffee and it's not even lunchtime."), ("q", "Only third? Rookie numbers."),
     ("p", "I'm pacing myself.")),
    (("q", "{p}, how was the trip?"), ("p", "Really good, actually. The jet lag was brutal for a few days, but worth it."),
     ("q", "I want to see pictures."), ("p", "They're in the team channel already. Scroll up.")),
    (("p", "I tried that ramen place you recommended, {q}."), ("q", "And?"),
     ("p", "You were right. I've been back twice already."), ("q", "Told you.")),
    (("q", "Are you feeling better, {p}? You sounded rough last week."),
     ("p", "Much better, thanks. My whole house had that cold, so it was a long week."), ("q", "Glad you're through it.")),
    (("p", "My kid's school play is tonight, so I might drop right at the end."), ("q", "Of course. What's the play?"),
     ("p", "Something about vegetables. She's a carrot. Very proud.")),
    (("q", "I started that book you mentioned, {p}."), ("p", "The one about the shipping container? What do you think?"),
     ("q", "I didn't expect to find it so gripping, honestly.")),
    (("p", "Did you survive the clocks changing?"), ("q", "Barely. My body still thinks it's an hour earlier."),
     ("p", "Same. I showed up to my dentist appointment an hour late.")),
    (("p", "Sorry, my cat just walked across the keyboard."), ("q", "Say hi to the cat."), ("p", "She's not taking questions.")),
    (("q", "How's the house hunting going, {p}?"), ("p", "Slowly. Everything we like gets snapped up in a day."),
     ("q", "That market is wild right now."), ("p", "Tell me about it.")),
    (("q", "How was your weekend, {p}?"), ("p", "Quiet, in a good way. We mostly stayed in and cooked."),
     ("q", "That sounds perfect."), ("p", "It was. I made bread for the first time. It was a brick, but a tasty brick.")),
)  # fmt: skip

GROUP_SMALL_TALK: tuple[Exchange, ...] = (
    (("p", "Did anyone do anything fun over the weekend?"), ("q", "I finally cleaned out the garage. Thrilling stuff."),
     ("r", "Honestly, that sounds satisfying."), ("q", "It was, until I found three boxes of cables I'm apparently keeping forever.")),
    (("q", "Anyone watch the match last night?"), ("p", "I fell asleep at halftime."),
     ("q", "You missed the best part. Total comeback."), ("r", "I saw it. Unbelievable finish.")),
    (("q", "Is anyone going to the hiking thing on Saturday?"), ("p", "I'm in, if the weather holds."),
     ("r", "Count me in too."), ("q", "Great, I'll bring extra snacks.")),
)  # fmt: skip

CALL_HICCUPS: tuple[Exchange, ...] = (
    (("p", "Sorry, you cut out for a second there. Can you repeat the last bit?"),
     ("q", "Sure, I was just saying I agree with where this is going.")),
    (("p", "Hang on, my video froze. Am I back?"), ("q", "You're back."), ("p", "Thank you. The Wi-Fi here is a coin toss.")),
    (("q", "{p}, you're on mute."), ("p", "Sorry! I was talking to myself for a good while there."), ("q", "Happens to all of us.")),
    (("p", "I'm going to turn my camera off for a bit, my connection is struggling."), ("q", "No problem.")),
)  # fmt: skip

GROUP_CALL_HICCUPS: tuple[Exchange, ...] = (
    (("q", "Can everyone see my screen?"), ("p", "We see your inbox, I think."), ("q", "Oops. Okay, how about now?"),
     ("p", "Now we see the doc.")),
    (("q", "Someone has a lot of background noise."), ("p", "That's me, sorry. Leaf blower outside. Muting when I'm not talking.")),
)  # fmt: skip

ROOM_HICCUPS: tuple[Exchange, ...] = (
    (("p", "Can someone dim the lights? I can't read the screen."), ("q", "Got it."), ("p", "Perfect, thanks.")),
    (("q", "Is the remote person still on the speakerphone?"), ("lead", "I think they dropped. Let me dial them back in."),
     ("q", "Classic.")),
    (("p", "Sorry, someone's knocking. I think they booked the room after us."),
     ("lead", "We've got a bit more time. I'll let them know.")),
    (("q", "The marker's dead. Does anyone have one that works?"), ("p", "Here, try this one."), ("q", "Thanks. Much better.")),
)  # fmt: skip

# Work-adjacent tangents between two people (q may be the lead).
TANGENTS: tuple[Exchange, ...] = (
    (("p", "Totally unrelated, but have you figured out the new expense tool?"), ("q", "I submitted a receipt and it vanished."),
     ("p", "Same. Let's not get started on that now.")),
    (("q", "Side note: the wiki search is basically broken. I couldn't find the onboarding page this morning."),
     ("p", "It's under the old space. Nobody moved it."), ("q", "Of course it is.")),
    (("p", "Is the team offsite still happening?"), ("q", "As far as I know. The details are still being settled."),
     ("p", "Cool, just checking before I book anything.")),
    (("q", "Random, but the parking garage is closing early this week. Heads up if you drive in."),
     ("p", "Good to know, thanks.")),
    (("p", "Did the laptop refresh ever go out? Mine's wheezing."), ("q", "I got mine last week. Ask IT, they've got a queue."),
     ("p", "Good tip, thanks.")),
    (("q", "Before I forget, please fill in the engagement survey if you haven't. It actually gets read."),
     ("p", "Doing it right after this, promise.")),
    (("p", "Welcome back, {q}! How was the time off?"), ("q", "Thanks! Relaxing. Then I opened my inbox."),
     ("p", "Brave of you to open it at all.")),
    (("q", "Have you been up to the new office floor yet?"), ("p", "Briefly. Nice light, terrible chairs."),
     ("q", "Chairs are apparently on order.")),
    (("p", "Quick plug: the lunch-and-learn this week is on accessibility, and it's really good."),
     ("q", "Is it recorded?"), ("p", "Yes, but come live, there's free lunch.")),
    (("q", "Did someone change the shared calendar permissions? I can't see anyone's availability."),
     ("p", "I think that's an IT change. It broke for everyone."), ("q", "Great.")),
)  # fmt: skip

GROUP_TANGENTS: tuple[Exchange, ...] = (
    (("p", "Is anyone else getting a thousand notifications from the new channel?"), ("q", "I muted it on day one."),
     ("r", "Smart. Doing that now.")),
    (("p", "Sorry, totally off topic, but who keeps ordering oat milk? It's fantastic."), ("q", "Guilty."),
     ("r", "Keep doing it.")),
)  # fmt: skip

CROSSTALK: tuple[Exchange, ...] = (
    (("p", "So I think the real question is whether—"), ("q", "Sorry, go ahead."), ("p", "No, you go."),
     ("q", "I was just going to say let's not rabbit-hole on this right now.")),
    (("q", "Can I just jump in—"), ("p", "—sorry, yes, please."), ("q", "I think we're agreeing, we're just using different words.")),
    (("p", "We're talking over each other. {q}, go first."), ("q", "Thanks. Mine's quick: I'm fine either way.")),
    (("q", "Wait, sorry, I lost the thread. Where are we?"), ("lead", "Still on the same item, just weighing the options."),
     ("q", "Got it, thanks.")),
)  # fmt: skip

# Deliberation about the current item before it is decided: slots lead, a, b; placeholder {topic}.
DELIBERATION: tuple[Exchange, ...] = (
    (("b", "Before we lock anything in on the {topic}, is there anything we're missing?"),
     ("a", "I don't think so. The open questions are small ones.")),
    (("lead", "{b}, you've been quiet. Any concerns about the {topic}?"),
     ("b", "Not really. I just want whatever we agree written down, so we don't relitigate it in a month."),
     ("lead", "Fair point.")),
    (("a", "One thing I'd flag on the {topic}: the people affected should hear it from us first, not through the grapevine."),
     ("b", "Agreed. Rumors travel fast around here.")),
    (("b", "Has anyone talked to the people who'd actually be affected by the {topic}?"),
     ("a", "I had a few informal conversations. Mostly positive, with some worry about timing.")),
    (("a", "Sorry, can I go back to something? On the {topic}, I'm not sure we've thought about how this lands with other teams."),
     ("lead", "Good catch. Let's keep that in mind.")),
    (("b", "I'm mostly on board. I just want to see the numbers on the {topic} again before we lock anything."),
     ("a", "They're in the doc I shared. Happy to walk through them afterwards."), ("b", "That'd help, thanks.")),
    (("lead", "Gut check: how confident are we on the {topic}?"), ("a", "Fairly. There are a few unknowns, but nothing scary."),
     ("b", "I'm a bit less sure, but I don't have a better alternative.")),
    (("a", "Some context on the {topic} for anyone who missed the last discussion: this has come up a few times and we keep punting it."),
     ("b", "Which is why I'd like us to actually land it today.")),
    (("b", "What would a good outcome on the {topic} look like?"),
     ("a", "Honestly, that nobody has to bring it up again next month."), ("lead", "I'd take that.")),
    (("lead", "Are there dependencies on other teams for the {topic}?"),
     ("a", "A couple. Nothing that should block us, and they already know it's coming."), ("b", "The earlier the better with those folks.")),
    (("b", "Do we have what we need to move on the {topic}, or are we waiting on something?"),
     ("a", "We have enough to start. The rest we'll figure out as we go.")),
    (("b", "Have we looked at how other teams handled something like the {topic}?"),
     ("a", "I read through one team's retro. Their main lesson was to communicate early and often."),
     ("b", "Good lesson. Cheap, too.")),
    (("a", "Playing it back to make sure I've got the {topic} right: nobody's against it, the debate is about details."),
     ("lead", "That's how I read the room too.")),
    (("b", "Can I ask a basic question about the {topic}? Who owns this once we've decided?"),
     ("lead", "Good question. We'll sort out owners before we leave today.")),
    (("a", "For what it's worth, I've changed my mind on the {topic} since we last talked."), ("b", "Oh? Which way?"),
     ("a", "I'm more comfortable now. Seeing the details helped.")),
    (("lead", "Let's time-box the {topic}. Five more minutes, then we decide."), ("b", "Deal.")),
    (("a", "I wrote up a few notes on the {topic} in the doc, if anyone wants the detail."),
     ("b", "I read them this morning. Helpful, thanks.")),
    (("b", "Is the {topic} something we should check with legal or finance first?"),
     ("a", "I asked already. They don't need to be involved at this stage.")),
)  # fmt: skip

# Right after a decision, before tasks are handed out: slots lead, a, b; placeholder {topic}.
AFTER_DECISION: tuple[Exchange, ...] = (
    (("b", "Do people outside this group need to hear about the {topic}?"), ("lead", "It'll be in the notes. That should cover it.")),
    (("b", "Just to double-check, does any of this change what we're doing this week?"), ("lead", "Not this week, no.")),
    (("a", "I'll be honest, I expected that one to take longer."), ("b", "Me too. Nice to be wrong.")),
    (("lead", "Good. Thanks for pushing on that one, {b}."), ("b", "Happy to. It needed pushing.")),
    (("b", "Can we look at the {topic} again in a month to see how it's going?"), ("lead", "Yes, that's reasonable.")),
    (("a", "For the record, I'm glad we landed that."), ("lead", "Same. That was a good discussion.")),
    (("b", "That's a relief, honestly. The {topic} has been hanging over us for a while."), ("a", "Tell me about it.")),
    (("lead", "I know not everyone got exactly what they wanted on that one."),
     ("b", "That's fine. I'd rather have a decision than a perfect one.")),
    (("a", "Does that decision need sign-off from anyone else?"), ("lead", "No, it's within what this group can decide.")),
    (("b", "Nice. That's the first thing we've closed this week."), ("a", "Don't jinx it.")),
)  # fmt: skip

ACKS: tuple[str, ...] = (
    "Sounds good.", "Works for me.", "Agreed.", "Yeah, makes sense.", "No objection from me.", "Fine by me.",
    "Let's do it.", "That's fair.", "I'm good with that.", "Yep, that's the right call.", "Okay, I can live with that.",
)  # fmt: skip

OKS: tuple[str, ...] = (
    "Will do.", "Yep, on it.", "Sure, no problem.", "Can do.", "Yes, I'll get that done.", "Okay, that's doable.",
    "Sure thing.", "Got it.",
)  # fmt: skip

# Slots lead, a, b; placeholders {decision} (imperative, lowercase) and {ack}.
DECISION_SHAPES: tuple[Exchange, ...] = (
    (("lead", "Okay, I think we've heard enough. Let's {decision}."), ("a", "{ack}")),
    (("a", "Can I propose we {decision}?"), ("lead", "Yes. I think that's the right call."), ("b", "{ack}")),
    (("lead", "So where are we landing? It sounds like we {decision}."), ("b", "That's how I heard it too.")),
    (("lead", "Then we'll {decision}. Any objections?"), ("b", "None from me."), ("a", "{ack}")),
    (("b", "My vote is that we {decision}."), ("lead", "Agreed, let's go with that."), ("a", "{ack}")),
    (("lead", "Decision, then: we {decision}."), ("a", "{ack}")),
    (("a", "I'd say we {decision} and revisit if it doesn't work."), ("lead", "Okay. Let's do that."), ("b", "{ack}")),
    (("lead", "I'm going to make the call: we {decision}."), ("b", "{ack}")),
    (("lead", "Let's lock it in. We {decision}."), ("a", "{ack}")),
    # Decisions that are only implied, as they often are in real meetings: no cue word carries them, so an
    # extractor must follow who proposed what and who settled it.
    (("a", "What if we {decision}?"), ("b", "I could get behind that."), ("lead", "Alright, done."), ("a", "{ack}")),
    (("b", "Honestly the simplest option is to {decision}."), ("lead", "Yeah. Let's not overthink it.")),
    (("lead", "Unless someone feels strongly otherwise, we {decision}."), ("a", "No, that's fine."), ("b", "{ack}")),
    (("a", "Should we just {decision}?"), ("lead", "Yes. Go."), ("b", "{ack}")),
)  # fmt: skip

# Slots lead, owner (never the lead); placeholders {task}, {due}, {owner} (first name), {ok}.
ASSIGN_SHAPES: tuple[Exchange, ...] = (
    (("lead", "{owner}, can you {task} by {due}?"), ("owner", "{ok}")),
    (("owner", "I can {task}. I'll have it done by {due}."), ("lead", "Perfect, thank you.")),
    (("lead", "Who wants to {task}?"), ("owner", "I'll do it. Give me until {due}."), ("lead", "That works.")),
    (("lead", "{owner}, you're the natural person to {task}. Is {due} realistic?"), ("owner", "{due} is fine, yes.")),
    (("owner", "I'll take the action to {task}."), ("lead", "Thanks. By {due}?"), ("owner", "Yep, by {due}.")),
    (("lead", "And {owner}, please {task} by {due} so we're not blocked."), ("owner", "{ok}")),
    (("owner", "Let me {task}. Is {due} okay?"), ("lead", "{due} is great.")),
)  # fmt: skip

# The lead takes the task: slot lead only.
SELF_ASSIGN_SHAPES: tuple[str, ...] = (
    "I'll {task} by {due}.",
    "On my side, I'll {task}. Expect it by {due}.",
    "Leave that with me. I'll {task} by {due}.",
    "That one's mine: I'll {task} by {due}.",
)

CLOSINGS: tuple[Exchange, ...] = (
    (("lead", "Okay, I think that's everything. Thanks, all."), ("p", "Thanks, bye!"), ("q", "Bye, everyone.")),
    (("lead", "We're at time. Thanks for the good discussion."), ("p", "Thanks, talk soon.")),
    (("lead", "Great, let's wrap there. I'll let you all get back to your day."), ("q", "Thanks!"), ("p", "Cheers.")),
    (("lead", "That's it from me. Anything else before we drop?"), ("p", "Nope, all good."), ("lead", "Thanks, everyone.")),
    (("lead", "Alright, we finished early for once. Enjoy the extra minutes."), ("q", "A rare gift. Thanks!")),
)  # fmt: skip
