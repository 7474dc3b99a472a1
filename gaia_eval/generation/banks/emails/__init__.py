"""The eight e-mail types' phrase banks, by type name in the order of `EMAIL_TYPES`."""

from __future__ import annotations

from gaia_eval.generation.banks.emails import (
    customer_support,
    internal_announcement,
    meeting_request,
    performance_feedback,
    project_update,
    sales_outreach,
    technical_discussion,
    vendor_communication,
)
from gaia_eval.generation.specs import EmailType

EMAIL_SPECS: dict[str, EmailType] = {
    "project_update": project_update.SPEC,
    "meeting_request": meeting_request.SPEC,
    "customer_support": customer_support.SPEC,
    "sales_outreach": sales_outreach.SPEC,
    "internal_announcement": internal_announcement.SPEC,
    "technical_discussion": technical_discussion.SPEC,
    "vendor_communication": vendor_communication.SPEC,
    "performance_feedback": performance_feedback.SPEC,
}
