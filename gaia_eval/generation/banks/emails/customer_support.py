"""Phrase bank of the customer support reply: its cast, openings, asides, details and subjects (topics, paragraphs,
figures, decision, tasks).

Body paragraphs may use the shared variables, the item's picks and figures, {topic}, and the first names
{sender} and {to1}; a paragraph starting with "?" is optional. Task owners: sender, to1, to2, cc1."""

from __future__ import annotations

from gaia_eval.generation.specs import ActionSpec as Act
from gaia_eval.generation.specs import EmailItem as Item
from gaia_eval.generation.specs import EmailType
from gaia_eval.generation.specs import FigureSpec as Fig

SPEC = EmailType(
    subjects=("Re: Your support request", "Update on your support case", "Re: Problems with your {company} account",
              "Following up on your ticket"),
    label="customer support reply",
    sender_roles=("Customer Support Specialist", "Support Team Lead", "Technical Support Engineer"),
    to_roles=("Operations Manager", "Office Manager", "IT Administrator", "Finance Manager", "Store Manager"),
    to_count=(1, 2),
    cc_roles=("Account Manager", "Billing Specialist", "Customer Success Manager"),
    cc_count=(0, 1),
    openings=(
        "Thank you for getting in touch, and for the detailed description. It made this much easier to look into. "
        "I've gone through each point you raised: {topics}.",
        "Thanks for your patience while we investigated. Here's where things stand on {topics}.",
        "I'm following up on the issues you reported with your {company} account, namely {topics}.",
    ),
    closings=(
        "If anything here doesn't solve the problem, just reply to this email and it will come straight back to me.",
        "Thanks again for your patience, and sorry for the trouble. We appreciate your business.",
        "I'll keep this case open until you confirm everything is working as expected.",
    ),
    items=(
        Item(
            topic="duplicate charge",
            request="We were charged twice on our last invoice. Can you look into the duplicate charge? Our finance team noticed it during the month-end reconciliation and asked me to chase it.",
            figures=(Fig("charge", "amount", "amount of the duplicate charge", 240, 1800, 10),),
            body=(
                "About the duplicate charge: I can confirm you were billed twice for the same invoice, for {charge} "
                "extra. That's our mistake, and I'm sorry for the hassle.",
                "?Our billing team traced it to a retry in the payment system that should have been caught. They've "
                "since fixed the underlying problem, so it shouldn't happen again.",
                "?You don't need to do anything for the refund to go through. Depending on your bank, it can take a few business days to show on your statement.",
                "?You'll see the refund as a separate line on your next statement rather than an adjustment to the original charge. That's just how our payment provider processes refunds.",
                "?I've also checked your other invoices from the last six months, and they're all correct. This was a one-off.",
            ),
            decision="refund the full duplicate charge of {charge} to the original card",
            decision_line="We're going to {decision}.",
            actions=(Act("sender", "email the refund confirmation", (2, 5)),
                     Act("cc1", "add a note to the account so the refund is tracked", (2, 5))),
        ),
        Item(
            topic="sync errors",
            request="We keep seeing sync errors overnight, and our morning reports are incomplete as a result. It means someone on our team has to redo the reports by hand every morning before anyone else starts.",
            figures=(Fig("errors", "count", "number of failed syncs logged on the account last week", 50, 300, unit="failed syncs"),),
            body=(
                "On the sync errors you reported: our logs show {errors} failed syncs on your account last week, "
                "almost all of them between midnight and early morning.",
                "?That pattern points to a scheduled job on your side colliding with our nightly maintenance window. "
                "It isn't anything you did wrong; the timing just happens to overlap.",
                "?If you'd like, our engineers can join a short call with your IT team to walk through the logs together. Sometimes that's faster than going back and forth by email.",
                "?In the meantime, running the sync manually in the morning will fill any gaps from the night before. It takes a couple of minutes from the settings page.",
                "?Once the change is in place, the sync status page will show a green check for each night, so your team can confirm it's working without contacting us.",
            ),
            decision="move the account's nightly sync to run after the maintenance window",
            decision_line="To fix it, we'll {decision}.",
            actions=(Act("to1", "check whether any scheduled jobs run overnight at {client}", (2, 5)),
                     Act("sender", "monitor the sync logs for a week after the change", (5, 10))),
        ),
        Item(
            topic="account lockouts",
            request="Several of our users can't log in since last week. What's going on with these account lockouts? Most of them are warehouse staff who can't do their jobs without logging in, so this is urgent for us.",
            figures=(Fig("users", "count", "number of users locked out after the password policy change", 5, 40, unit="users"),),
            body=(
                "Regarding the account lockouts: {users} of your users were locked out after the password policy "
                "change last week. The new policy applied to existing passwords immediately, which it shouldn't have.",
                "?Nobody's data was affected, and there's no sign of unauthorized access. It was purely a policy "
                "rollout problem.",
                "?We've also changed the rollout process so future policy changes apply only at each user's next password change, not immediately.",
                "?If any users don't receive their link, they can use the password reset option on the login page. It works for all affected accounts.",
                "?I'd recommend letting your users know the login links are genuine. Unexpected login emails sometimes get treated as phishing, which is a healthy instinct.",
            ),
            decision="reset the affected accounts and send each user a new login link",
            decision_line="We're going to {decision}.",
            actions=(Act("sender", "send the new login links", (1, 3)),
                     Act("to1", "tell the affected users to expect a login link", (1, 3))),
        ),
        Item(
            topic="full data export",
            request="We'd like a full data export of our account for our records. Is that possible? Our auditors have asked for a complete copy of our records, and we need to provide it before the end of the quarter.",
            figures=(Fig("export", "duration", "processing time for the full data export", 3, 5, unit="business days"),),
            body=(
                "On the full data export you asked about: that's possible, and for an account of your size it "
                "usually takes {export} to prepare.",
                "?The export includes all records, attachments and the change history, packaged as compressed files. "
                "It can be large, so a direct download works better than email.",
                "?The export format is documented in our help center, so your team can prepare their import scripts while the export is being generated.",
                "?We'll send a notification when the export is ready, and the download link stays valid for a week, so there's no rush to grab it immediately.",
                "?The export doesn't affect your account in any way. Your team can keep working normally while it's being prepared.",
            ),
            decision="prepare a full data export of the account in CSV format",
            decision_line="I've asked the data team to {decision}.",
            actions=(Act("to1", "confirm the secure download address for the export", (2, 5)),),
        ),
        Item(
            topic="service outage",
            request="The service outage last week hit us right in the middle of our busiest period. What happened? We had to delay several customer deliveries because our team couldn't see their schedules.",
            figures=(Fig("outage", "duration", "length of the service outage", 40, 120, 5, unit="minutes"),
                     Fig("credit", "percent", "service credit offered for the outage", 10, 25, 5)),
            body=(
                "About the service outage: your account was unavailable for {outage}, which is well outside what we "
                "promise. As an apology, we're offering a {credit} credit on your next invoice.",
                "?The cause was a failed database upgrade in our region. We rolled it back, and we've changed the "
                "upgrade process so the same failure can't take the service down again.",
                "?I know an outage at the wrong moment can disrupt a whole day's work, and a credit doesn't give that time back. I'm sorry it happened.",
                "?The status page was updated during the outage, but I know it wasn't obvious where to find it. We're adding a banner in the product itself for future incidents.",
                "?The full incident report includes a timeline and the changes we've made. It's written for a technical audience, but the opening section is a plain-language overview.",
            ),
            decision="apply a {credit} service credit to the next invoice",
            decision_line="I've arranged to {decision}.",
            actions=(Act("cc1", "send the incident report for the outage", (3, 8)),),
        ),
        Item(
            topic="plan upgrade",
            request="We're considering a plan upgrade, mostly for single sign-on. What would it cost? Our IT team wants everyone logging in through our identity provider by the end of the year.",
            figures=(Fig("price", "amount", "monthly price of the upgraded plan", 120, 480, 10),),
            body=(
                "On the plan upgrade: moving to the Business plan would be {price} per month, and it includes the "
                "single sign-on feature you asked about.",
                "?There's no downtime involved, and your data and settings carry over as they are. Most customers "
                "don't notice the switch apart from the new features.",
                "?If you'd like to try the single sign-on setup first, we can enable it on a test workspace so your IT team can check it against your identity provider.",
                "?The Business plan also includes priority support and a higher storage limit, which may be useful given how your usage has grown this year.",
                "?If you decide to upgrade, your account manager can walk your team through the new features on a short call.",
            ),
            decision="switch the account to the Business plan at the start of the next billing cycle",
            decision_line="If you're happy with that, we'll {decision}.",
            actions=(Act("to1", "confirm the plan upgrade in writing", (3, 8)),),
        ),
    ),
    external="client",
    sign_offs=("Best regards,", "Kind regards,", "Thanks,", "All the best,"),
    asides=(
        "I also want to apologize more generally. Several of these issues should have been caught on our side "
        "before they ever reached you.",
        "For your records, everything in this email is also logged on your support case, so anyone on our team "
        "can pick it up if I'm unavailable.",
        "If it's easier to talk any of this through, I'm happy to set up a short call at a time that suits you.",
        "As a small thank-you for your patience, I've also made sure your account is flagged for priority handling for the next few months.",
        "We genuinely value feedback like yours. Several improvements to our product started as a customer report very much like this one.",
        "You may receive a short satisfaction survey after this case is closed. It's entirely optional, but we do read every response.",
        "If you ever need help outside your usual hours, the help center has guides for the most common questions, and our chat support runs around the clock for urgent issues.",
        "Thank you for being so clear and patient throughout. It made a real difference on our side.",
        "I know you have a lot on your plate, so I've tried to make this the only email you need to read on these issues.",
    ),
    details=(
        "I've added a note about the {topic} to your account, so anyone on our team who picks up a future request will have the full history.",
        "I'm sorry it took longer than it should have to get you a clear answer on the {topic}.",
        "If you have further questions about the {topic}, reply to this email rather than opening a new ticket. That way it comes straight back to me with all the context.",
        "To be transparent about the {topic}: the delay in our reply was on our side, not because anything was missing from your report.",
        "Our engineering team has reviewed the {topic} as well, so what's described here reflects their findings, not just mine.",
        "For your records, the {topic} is logged under your support case along with everything we checked.",
        "For the {topic}, I've double-checked the details with a colleague, so you shouldn't need to chase anything further.",
        "Please tell me if anything about the {topic} doesn't match your understanding. Your team's observations are often the fastest route to the right answer.",
        "On the {topic}, I've kept the explanation as plain as possible. If your IT team wants the technical detail, I can share that separately.",
        "The {topic} has been reviewed by my team lead as well, so everything here has a second pair of eyes on it.",
        "We've also updated our internal guide for cases like the {topic}, so the next person who reports something similar gets an answer faster.",
        "For the {topic}, there's nothing your team needs to change on your side unless I've said so explicitly here.",
        "I appreciate how clearly your team described what you needed regarding the {topic}. It made our work much faster.",
        "If the {topic} affects anything else on your side that I haven't covered, please tell me and we'll see what we can do.",
        "Everything about the {topic} in this email is also recorded in your account history.",
        "For the {topic}, I've included everything I know today. If anything changes, you'll hear from me without having to ask.",
        "On the {topic}, our help center also has a short article that covers the basics, if your team finds that useful.",
        "If the {topic} needs to be escalated further on your side, this email should give your management everything they need.",
        "I know the {topic} isn't what you want to be spending your time on, so I've tried to keep what's needed from you to a minimum.",
        "On the {topic}, our product team has also been informed, since some of what you described is worth improving in the product itself.",
    ),
    recipient_starts_thread=True,
)
