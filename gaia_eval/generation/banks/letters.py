"""E-mail prose shared by every e-mail type: pleasantries, asides, and the sentence shapes that state a
decision or hand out a task. Asides carry no digits, names or summary headings, so they never collide with
a planted fact."""

from __future__ import annotations

PLEASANTRIES: tuple[str, ...] = (
    "I hope your week is off to a good start.",
    "I hope you're doing well.",
    "Thanks for your patience while I pulled this together.",
    "I hope the end of the quarter isn't treating you too badly.",
    "Apologies for the long email; there's a fair amount to cover.",
    "Thanks again for the quick reply last time.",
)

# Placeholders {name} and {role} of the first person copied.
CC_NOTES: tuple[str, ...] = (
    "I've copied {name} ({role}) so they're in the loop.",
    "I've added {name}, our {role}, to this thread.",
    "Copying {name} ({role}), who has been following this closely.",
)

# Paragraphs that fit any business e-mail; placeholders are the document's shared variables only.
ASIDES: tuple[str, ...] = (
    "If anything here doesn't match your understanding, please say so. I'd rather correct it now than find "
    "out later that we were working from different assumptions.",
    "None of this is set in stone beyond what's marked as agreed. Where something is still open, I've tried "
    "to say so plainly.",
    "I've kept the supporting material out of this email to keep it readable. It's all in the shared folder "
    "if you want to dig into the detail.",
    "To be transparent about where this comes from: most of it is based on the numbers we have today, and "
    "anything that changes materially will be flagged as soon as we know.",
)

# Paragraphs for e-mails between colleagues only.
TEAM_ASIDES: tuple[str, ...] = (
    "I also want to say thank you for the patience over the last few weeks. I know some of this has been "
    "frustrating, and I appreciate how constructive everyone has been.",
    "For context, some of this came up in conversations that not everyone was part of, so I've tried to "
    "write it down in one place rather than have it scattered across chat threads.",
    "I realize this is a lot of detail. I'd rather over-communicate on this one, given how many people it touches.",
    "A small process note: replies on this thread are fine, but if a point needs real discussion, let's take "
    "it to a call rather than let the thread grow forever.",
    "One thing I've learned from the last few months is that small misunderstandings get expensive when "
    "they surface late, which is part of why I'm writing this up properly.",
    "I know everyone's calendar is full at the moment, so I've tried to keep the asks in this email small and specific.",
    "Some of you have asked for more written updates and fewer meetings. This is my attempt at that, so let "
    "me know whether the format works.",
    "Thanks also to everyone who contributed input, whether in meetings, in comments, or in passing. Most "
    "of what's here is better for it.",
)

# Placeholder {decision}: an imperative phrase, lowercase.
DECISION_LINES: tuple[str, ...] = (
    "We've agreed to {decision}.",
    "After some back and forth, we decided to {decision}.",
    "The decision is to {decision}.",
    "So we're going to {decision}.",
    "Where we landed: we will {decision}.",
    "Given all that, we'll {decision}.",
    "We've made the call to {decision}.",
)

# Placeholders {owner} (first name), {task} (imperative, lowercase), {due}.
ASK_TASK_LINES: tuple[str, ...] = (
    "{owner}, could you {task} by {due}?",
    "{owner}, can you please {task} by {due}?",
    "Could I ask you, {owner}, to {task} by {due}?",
    "{owner}, would you be able to {task} by {due}?",
)
THIRD_PARTY_TASK_LINES: tuple[str, ...] = (
    "{owner} has offered to {task} by {due}.",
    "{owner} will {task} by {due}.",
    "{owner} is going to {task} by {due}.",
)
SELF_TASK_LINES: tuple[str, ...] = (
    "On my side, I'll {task} by {due}.",
    "I'll {task} by {due}.",
    "I will {task} by {due}.",
    "For my part, I'll {task} by {due}.",
)

# More on the current subject, safe for any topic: placeholder {topic} (a noun phrase that takes "the").
DETAILS: tuple[str, ...] = (
    "One question I expect about the {topic} is how it affects everything else. The short answer is: very "
    "little. The details are in the shared notes for anyone who wants them.",
    "Nothing about the {topic} needs action beyond what's listed here. I mention that because these things "
    "have a habit of growing.",
    "To avoid confusion about the {topic}: what's written here replaces anything said earlier in separate "
    "conversations.",
    "If the {topic} raises questions I haven't covered, please ask them. An unasked question tends to turn into "
    "an assumption.",
)

# The earlier message this e-mail replies to is built from the items' `request`s plus one or two of these.
EARLIER_NOTES: tuple[str, ...] = (
    "No need for anything polished. A plain answer on where things stand is exactly what I'm after.",
    "I know you're busy, so feel free to keep it short where there's nothing new.",
    "If it's easier to talk some of this through, I'm happy to set up a call. Otherwise a written reply is fine.",
    "Thanks in advance for looking into all of this. I know it's a lot of questions at once.",
)
EARLIER_SIGN_OFFS: tuple[str, ...] = ("Thanks,", "Thanks in advance,", "Best,", "Cheers,")

# The sender's short message that started the thread, quoted deepest in long threads.
THREAD_STARTERS: tuple[str, ...] = (
    "Ahead of our next review, is there anything on your side you'd like me to cover? I'm happy to collect "
    "everything in one place.",
    "Just checking in. Are there any open questions I should be aware of before the end of the month?",
    "I'm putting together an update for the wider group. Let me know if there's anything you'd like included.",
    "Quick check-in before things get busy: is there anything you need from me at the moment?",
)

# Footers of e-mails sent outside the company.
FOOTERS: tuple[str, ...] = (
    "This email and any attachments are confidential and intended solely for the addressee. If you have received it in error, please notify the sender and delete it. Any views expressed are those of the sender unless stated otherwise.",
    "CONFIDENTIALITY NOTICE: This message may contain confidential or privileged information. If you are not the intended recipient, please do not read, copy or forward it; notify the sender and delete it from your system.",
    "The information in this email is confidential and may be legally privileged. It is intended only for the people it is addressed to. If you received it by mistake, please let us know and delete it.",
)

# A postscript after the signature.
POSTSCRIPTS: tuple[str, ...] = (
    "P.S. Apologies if this arrives twice; our mail system had a hiccup this morning and I'm not sure the first "
    "attempt went out.",
    "P.S. I'm travelling for part of next week, so replies may be a little slower than usual, but I will see them.",
    "P.S. If a shorter version of this would be useful for anyone else, feel free to forward it with your own notes.",
    "P.S. Thanks for the quick turnaround on everything lately. It hasn't gone unnoticed.",
)
