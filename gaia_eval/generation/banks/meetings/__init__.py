"""The eight meeting types' phrase banks, by type name in the order of `MEETING_TYPES`."""

from __future__ import annotations

from gaia_eval.generation.banks.meetings import (
    all_hands,
    budget_planning,
    client_call,
    design_review,
    performance_review,
    planning,
    product_roadmap,
    standup,
)
from gaia_eval.generation.specs import MeetingType

MEETING_SPECS: dict[str, MeetingType] = {
    "standup": standup.SPEC,
    "planning": planning.SPEC,
    "client_call": client_call.SPEC,
    "design_review": design_review.SPEC,
    "performance_review": performance_review.SPEC,
    "all_hands": all_hands.SPEC,
    "budget_planning": budget_planning.SPEC,
    "product_roadmap": product_roadmap.SPEC,
}
