"""JUnit XML from the report's data: one test case per item and model, so CI systems show results natively.

An item fails when the model errored on it, or (qa) when its answer did not pass, or when its item score is
below the Fair band's floor (34 of 100).
"""

from __future__ import annotations

from typing import Any
from xml.etree import ElementTree as ET

PASS_FLOOR = 34.0


def junit_xml(data: dict[str, Any]) -> str:
    suites = ET.Element("testsuites", name="gaia-eval")
    for section in data["sections"]:
        for m_index, model in enumerate(section["models"]):
            suite = ET.SubElement(suites, "testsuite", name=f"{section['use_case']}.{model['experiment_name']}")
            failures = errors = 0
            for row in section["per_item"]:
                cell = row["cells"][m_index]
                if cell == "—":
                    continue
                case = ET.SubElement(suite, "testcase", classname=f"{section['use_case']}.{model['experiment_name']}", name=row["item_id"])
                if cell == "error":
                    errors += 1
                    ET.SubElement(case, "error", message="the model failed this item")
                elif cell == "fail":
                    failures += 1
                    ET.SubElement(case, "failure", message="answer does not match the ground truth")
                elif cell not in ("pass",) and _score(cell) is not None and _score(cell) < PASS_FLOOR:
                    failures += 1
                    ET.SubElement(case, "failure", message=f"item score {cell} below {PASS_FLOOR:.0f}")
            suite.set("tests", str(len(suite)))
            suite.set("failures", str(failures))
            suite.set("errors", str(errors))
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


def _score(cell: str) -> float | None:
    try:
        return float(cell)
    except ValueError:
        return None
