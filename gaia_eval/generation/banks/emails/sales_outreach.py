"""Phrase bank of sales outreach: its cast, openings, asides, details and subjects (topics, paragraphs,
figures, decision, tasks).

Body paragraphs may use the shared variables, the item's picks and figures, {topic}, and the first names
{sender} and {to1}; a paragraph starting with "?" is optional. Task owners: sender, to1, to2, cc1."""

from __future__ import annotations

from gaia_eval.generation.specs import ActionSpec as Act
from gaia_eval.generation.specs import EmailItem as Item
from gaia_eval.generation.specs import EmailType
from gaia_eval.generation.specs import FigureSpec as Fig

SPEC = EmailType(
    subjects=("Following up on our conversation", "{company} and {client}: pilot proposal", "Quick follow-up from {company}",
              "Proposal for {client}"),
    label="sales outreach",
    sender_roles=("Account Executive", "Sales Director", "Business Development Manager"),
    to_roles=("Head of Operations", "VP of Sales", "Chief Technology Officer", "Director of IT", "Procurement Lead"),
    to_count=(1, 2),
    cc_roles=("Solutions Engineer", "Customer Success Manager"),
    cc_count=(0, 1),
    openings=(
        "Thank you for the time on our call. It was great to learn more about how {client} works, and I've pulled "
        "together what we discussed: {topics}.",
        "Following up on our conversation with a concrete proposal. It covers {topics}.",
        "It was good to speak with you. As promised, here's more detail on {topics}.",
    ),
    closings=(
        "I'm excited about what we could do together. Let me know what questions come up on your side.",
        "Thanks again for your time. I'll keep an eye out for your reply.",
        "Happy to adjust any of this to fit how {client} works. Let me know what you think.",
    ),
    items=(
        Item(
            topic="pilot program",
            request="Could you share what a pilot program would look like for a team our size? We'd want to see it working on our own data before making any commitment.",
            figures=(Fig("pilot", "duration", "length of the proposed pilot", 30, 90, 15, unit="days"),
                     Fig("seats", "count", "number of users included in the pilot", 20, 100, 5, unit="users")),
            body=(
                "What I'd propose is a pilot program: {pilot} with up to {seats} users, so your team can judge the results on "
                "real work rather than on a demo.",
                "?We'd agree on success criteria up front, so at the end of the pilot the decision is easy either way. "
                "If it doesn't deliver, you walk away with nothing owed.",
                "?We'd also assign a named contact for the pilot, so your team always knows who to ask rather than going through a general support queue.",
                "?At the end of the pilot, we'd put together a short report with the results against the success criteria, so you have something concrete to share internally.",
                "?The pilot would run on the same version every customer uses, not a special demo build, so what you see is what you'd get.",
            ),
            decision="offer the pilot at no cost",
            actions=(Act("to1", "share which team would take part in the pilot", (3, 8)),
                     Act("cc1", "prepare the pilot environment", (5, 12))),
        ),
        Item(
            topic="pricing",
            request="Can you send pricing for the setup we discussed? Our budget cycle starts soon. We need to put a number in next year's budget soon, even if it's only an estimate.",
            figures=(Fig("annual", "amount", "annual price quoted for {client}", 18000, 60000, 500),
                     Fig("discount", "percent", "discount offered for a two-year commitment", 10, 20)),
            body=(
                "On pricing: for the setup we discussed, the annual price would be {annual}. With a two-year "
                "commitment, we can take {discount} off both years.",
                "?That includes onboarding, training and standard support. There are no per-feature add-ons hiding "
                "in the contract, which I know was a concern with your current provider.",
                "?I've also included volume pricing for the case where other departments join later, so you're not surprised by the numbers if the rollout grows.",
                "?Payment terms are flexible. Most customers pay annually, but quarterly billing is available if it fits your budget cycle better.",
                "?The price is fixed for the length of the contract, so there are no surprises at the first renewal.",
            ),
            decision="hold this pricing until the end of {next_month}",
            actions=(Act("sender", "send a formal quote", (2, 5)),),
        ),
        Item(
            topic="customer case study",
            request="Do you have a customer case study from a company like ours? Our leadership will want evidence from someone who has actually done this, not just a demo.",
            figures=(Fig("reduction", "percent", "reduction in processing time at a similar customer", 20, 45),),
            body=(
                "You asked for evidence from a similar company, so here's a customer case study: one of our logistics "
                "customers cut their processing time by {reduction} in the first quarter after rollout.",
                "?They started in a similar place to you, with a lot of manual steps and a small operations team. The "
                "biggest gains came from the approvals workflow, not the reporting.",
                "?Their operations lead has offered to speak with you directly, which I'd recommend. A customer's view is more useful than anything I can tell you.",
                "?What they say most often is that the time savings showed up faster than they expected, mostly because their team adopted the tool without much persuasion.",
                "?They also started with a single department and expanded later, which is the path I'd suggest for {client} as well.",
            ),
            decision="set up a reference call with that customer",
            actions=(Act("sender", "send the full case study", (1, 4)),
                     Act("to1", "suggest two times for the reference call", (3, 8))),
        ),
        Item(
            topic="security questionnaire",
            request="Our IT team will need a security questionnaire completed before any pilot. Is that a problem? It's a standard requirement for any new supplier that handles our data.",
            figures=(Fig("questions", "count", "number of questions in the usual security questionnaire", 80, 200, 10,
                         unit="questions"),),
            body=(
                "Your IT team mentioned a security questionnaire. We see these often; the usual one runs to about "
                "{questions} questions, and we have most of the answers ready.",
                "?We're certified under the common standards and can share our latest audit report under a standard "
                "confidentiality agreement.",
                "?Our security team is also happy to join a call with yours if some answers need more context than a questionnaire allows.",
                "?We can also provide our data processing agreement and a summary of our infrastructure, which usually answers the questions before they're asked.",
                "?Our platform is hosted in data centers in your region, which tends to simplify the data residency questions considerably.",
            ),
            decision="complete the security questionnaire before the pilot starts",
            actions=(Act("to1", "send over the security questionnaire", (2, 5)),
                     Act("cc1", "complete the security questionnaire", (5, 12))),
        ),
        Item(
            topic="implementation timeline",
            request="What does a realistic implementation timeline look like for us? We have a busy season coming up and can't afford a long disruption.",
            figures=(Fig("impl", "duration", "typical implementation time", 4, 8, unit="weeks"),),
            body=(
                "On the implementation timeline: most customers of your size are live within {impl}, including data "
                "import and training.",
                "?The main thing that slows implementations down is access to the right people on the customer side, "
                "so it helps to name a project lead early.",
                "?We'd also run a short planning workshop at the start, so both teams agree on milestones before any configuration begins.",
                "?Training is usually split into short sessions by role, so nobody has to sit through material that doesn't apply to them.",
                "?We'd also schedule a review a month after go-live to catch anything that isn't working the way your team expected.",
            ),
            decision="assign a dedicated implementation manager to {client}",
            actions=(Act("to1", "introduce us to the project lead at {client}", (3, 8)),),
        ),
        Item(
            topic="finance team demo",
            request="Our finance team missed the first session. Could they get a finance team demo of their own? They're the ones who would use it most, so their opinion will carry a lot of weight.",
            figures=(Fig("demo", "date", "date proposed for the finance team demo", 7, 20),),
            body=(
                "Several people on your finance team couldn't make the first session, so I'd suggest a finance team "
                "demo on {demo}, tailored to the workflows you mentioned.",
                "?We'd use anonymized data shaped like yours, so it's recognizable without exposing anything sensitive.",
                "?If there are specific reports your finance team builds by hand today, send them over beforehand and we'll show how they'd look in the product.",
                "?The session would be interactive rather than a presentation, with time for your team to try the workflows themselves.",
                "?If it's useful, we can record the session for anyone who can't attend, though live questions tend to be the most valuable part.",
            ),
            decision="run a second demo focused on finance workflows",
            actions=(Act("to1", "confirm the attendee list for the demo", (2, 6)),),
        ),
    ),
    external="client",
    sign_offs=("Best regards,", "Best,", "Thanks,", "Looking forward,"),
    decision_lines=("On our side, we've agreed internally to {decision}.", "I've gotten approval to {decision}.",
                    "My team has agreed to {decision}."),
    asides=(
        "I know you're talking to other vendors, and you should. All I'd ask is that you compare on outcomes, "
        "not just on the feature list.",
        "One thing I heard clearly on our call was that your team is stretched. Everything here is designed to "
        "take work off their plate, not add to it.",
        "No pressure on timing from our side. If now isn't right, I'd rather wait than push you into something "
        "that doesn't fit.",
        "Separately, we're hosting a small customer roundtable next quarter, and I'd be glad to invite someone from {client} if that's of interest.",
        "I've also attached a short overview of our roadmap, since you asked where the product is heading.",
        "If there's anyone else at {client} I should be talking to, I'd appreciate an introduction. I don't want to go around you.",
        "Whatever you decide, I've enjoyed the conversations so far, and I've learned a lot about how your team works.",
        "Our customer success team would be your main contact after signing, and I'd stay involved as your account lead.",
        "I'm conscious of your time, so I've tried to answer everything you asked in one place.",
        "Our team has been growing in your region, so you'd have local support in your time zone rather than a help desk on the other side of the world.",
        "I've kept the attachments to a minimum. If anything else would help your internal case, just ask.",
        "You mentioned your team is evaluating several tools at once. If a side-by-side comparison template would help, we have one that's vendor-neutral.",
    ),
    details=(
        "On the {topic}, I've tried to reflect what you told me about how your team works, rather than sending our standard material.",
        "If the {topic} needs approval from other people at {client}, I'm happy to join a call to answer their questions directly.",
        "Other customers have found the {topic} to be the part that gives them the most confidence, which is why I'm spending time on it here.",
        "There's no obligation attached to the {topic}. The aim is to help you make a well-informed decision, whichever way it goes.",
        "Our solutions team reviewed the {topic} with your requirements in mind, so the details here are specific to {client}, not generic.",
        "Tell me if anything is missing on the {topic}. I'd rather fill a gap now than have it come up in your internal review.",
        "I realize the {topic} is only one part of your evaluation, and I'm glad to provide whatever you need to compare options fairly.",
        "Timing on the {topic} is flexible on our side. We'll work around your internal calendar rather than the other way round.",
        "We've done the {topic} with a number of companies your size, so the process is well tested and unlikely to surprise anyone.",
        "On the {topic}, I'd also be glad to connect your team with our product manager if you'd like to talk about where the product is heading.",
        "Nothing in the {topic} locks you in. If it turns out not to be the right fit, you can walk away without penalty.",
        "The {topic} is designed to fit around your team's existing work rather than interrupt it.",
        "If you'd like to see the {topic} in writing before sharing it internally, I can put together a short document for your leadership team.",
        "A few of your competitors have been through the {topic} with us, though of course I can't say which. The feedback has been consistently positive.",
        "For the {topic}, I'd suggest we agree on a simple timeline together, so neither side is waiting on the other.",
        "The {topic} reflects what we heard on the call, but I'd welcome corrections if we misunderstood anything.",
        "If the {topic} would be easier to review with your colleagues on a call, I can present it in half an hour.",
        "On the {topic}, I've tried to be realistic rather than optimistic. I'd rather under-promise and deliver.",
        "The {topic} is where most of our customers see the first real value, so it's worth getting right.",
        "For the {topic}, our legal team can work from your standard terms if that's simpler for your procurement process.",
    ),
)
