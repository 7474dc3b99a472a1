"""The report's extra files: chart SVGs in a folder beside report.md (referenced from it) and report.junit.xml."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gaia_eval.artifacts.store import atomic_write_text


def chart_dir(output_file: Path) -> Path:
    return Path(output_file).with_name(Path(output_file).stem + "_charts")


def write_charts(data: dict[str, Any], output_file: Path) -> list[tuple[Path, bool]]:
    """Write every section's charts and record them in the section as `charts` ([{kind, title, file}], `file`
    relative to the report), so the markdown can reference them."""
    from gaia_eval.reporting.charts import TITLES, section_charts

    folder = chart_dir(output_file)
    results = []
    for section in data["sections"]:
        section["charts"] = []
        slug = section["use_case"] + ("-standalone" if section["standalone"] else "")
        for kind, svg in section_charts(section).items():
            path = folder / f"{slug}-{kind}.svg"
            results.append((path, atomic_write_text(path, svg)))
            section["charts"].append({"kind": kind, "title": TITLES[kind], "file": f"{folder.name}/{path.name}"})
    return results


def write_junit(data: dict[str, Any], output_file: Path) -> tuple[Path, bool]:
    from gaia_eval.reporting.junit import junit_xml

    path = Path(output_file).with_suffix(".junit.xml")
    return path, atomic_write_text(path, junit_xml(data))
