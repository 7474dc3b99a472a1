"""The report as JUnit XML, so CI systems show results natively: one test suite per evaluated experiment, one test
case per item. An item fails when the model errored on it, when its answer to a question did not pass, or when its
rubric points fall in the Poor band (rubric.rating_band, as everywhere an item is banded); the failure message says
which, with the criterion results."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from gaia_eval.artifacts.evaluation import Evaluation
from gaia_eval.safe_text import scrub_xml_tree
from gaia_eval.scoring import rubric


def _failure(item, points: float) -> str | None:
    if item.status == "error":
        return f"the model failed this item: {item.error}"
    if item.passed is False:
        return "the answer does not match the expected answer"
    if item.passed is None and rubric.rating_band(points) == "Poor":
        return f"rubric points {points:.0f} of 100 (Poor)"
    return None


def junit_xml(evaluations: list[tuple[Path, Evaluation]], eval_dir: Path) -> bytes:
    suites = ET.Element("testsuites", name="gaia-eval")
    for path, ev in evaluations:
        names = [c.criterion for c in ev.criteria]
        suite = ET.SubElement(suites, "testsuite", name=f"{ev.use_case}.{ev.experiment_name}",
                              file=path.relative_to(eval_dir).as_posix())
        failures = 0
        for item in ev.items:
            points = rubric.item_points(item, names)
            case = ET.SubElement(suite, "testcase", classname=f"{ev.use_case}.{ev.experiment_name}", name=item.item_id)
            why = _failure(item, points)
            if why is not None:
                failures += 1
                details = "; ".join(f"{c.criterion}: {c.rating}" for c in item.criteria)
                failure = ET.SubElement(case, "failure", message=why)
                failure.text = details or why
        suite.set("tests", str(len(ev.items)))
        suite.set("failures", str(failures))
        suite.set("errors", "0")
    ET.indent(scrub_xml_tree(suites))  # an id or a reply holding a control character still makes valid XML
    return ET.tostring(suites, encoding="utf-8", xml_declaration=True) + b"\n"
