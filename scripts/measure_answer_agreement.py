"""Measure the answer matcher (every match mode that runs offline) against people's correct/incorrect judgments
of real answers, per shape of answer (short, sentence, paragraph), and write the packaged figures the report
quotes under each question-answering table (gaia_eval/data/answer_agreement.json) with their provenance: the
dataset, the matcher's fingerprint (the report says when the matcher has changed since), the date.

Run it again after any change to the matcher (development aid, not part of the product; needs the shared data):
    python scripts/measure_answer_agreement.py --datasets ../shared/datasets
`--check` only says whether the packaged file matches the current matcher (exit 1 when it does not).
"""

from __future__ import annotations

import argparse
import datetime
import sys
from pathlib import Path

import orjson

from gaia_eval.artifacts.answer_agreement import AnswerShapeFigures, PackagedAnswerAgreement
from gaia_eval.artifacts.store import fingerprint_file, read_artifact, write_artifact
from gaia_eval.metaeval.answer_trust import REGENERATE, SHAPES, answer_shape, matcher_fingerprint, packaged_file
from gaia_eval.metaeval.label_agreement import baseline_verdict, figures, item_indices, try_mode_verdicts
from gaia_eval.metaeval.labels import LabelledAnswer
from gaia_eval.stages.meta_eval_labels import CALLS_A_MODEL, DEFAULT_MODE

DATASET = "evouna_tq"
SOURCE = ("EVOUNA, TriviaQA part (wangcunxiang/QA-Eval, EVOUNA/TQ.json; Wang et al., Evaluating Open-QA "
          "Evaluation, NeurIPS 2023): answers of FiD, GPT-3.5, ChatGPT-3.5, GPT-4 and Bing Chat judged by people")


def load(datasets: Path) -> list[LabelledAnswer]:
    path = datasets / DATASET / "answers.jsonl"
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
        if line.strip():
            data = orjson.loads(line)
            rows.append(LabelledAnswer(line=number, item=data["id"].rsplit("-", 1)[0], question=data["question"],
                                       expected=tuple(data["expected"]), output=data["answer"], system=data["model"],
                                       correct=data["human"]))
    return rows


def measure(rows: list[LabelledAnswer], today: str, dataset_fingerprint: str) -> PackagedAnswerAgreement:
    """Every match mode that runs offline (the default first), per shape of answer, beside the substring
    baseline; a mode that cannot run on this data (an optional extra missing, gold answers that are no regular
    expressions) is recorded as not measured."""
    import numpy as np

    from gaia_eval.registry import MATCH_MODES

    substring = np.array([baseline_verdict("substring", r.expected, r.output) for r in rows], dtype=bool)
    human = np.array([r.correct for r in rows], dtype=bool)
    items = item_indices(rows)
    shape = np.array([answer_shape(r.output) for r in rows])
    shapes, modes, not_measured = [], [], {}
    for mode in [DEFAULT_MODE, *(m for m in MATCH_MODES.names() if m != DEFAULT_MODE and m not in CALLS_A_MODEL)]:
        found, why = try_mode_verdicts(rows, mode)
        if found is None:
            not_measured[mode] = why
            continue
        verdicts = np.array(found, dtype=bool)
        modes.append(mode)
        for name in SHAPES:
            keep = shape == name
            shapes.append(AnswerShapeFigures(
                mode=mode, shape=name, figures=figures(verdicts[keep], human[keep], items[keep]),
                substring=figures(substring[keep], human[keep], items[keep], intervals=False)))
    return PackagedAnswerAgreement(
        inputs={"dataset": dataset_fingerprint}, dataset=DATASET, source=SOURCE, licence="Apache-2.0", modes=modes,
        not_measured=not_measured, matcher_fingerprint=matcher_fingerprint(), measured=today, command=REGENERATE,
        n_answers=len(rows), shapes=shapes,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--datasets", type=Path, default=Path("../shared/datasets"))
    parser.add_argument("--output", type=Path, default=packaged_file())
    parser.add_argument("--check", action="store_true", help="only say whether the packaged figures are current")
    args = parser.parse_args()
    if args.check:
        current = read_artifact(args.output, PackagedAnswerAgreement).matcher_fingerprint == matcher_fingerprint()
        print("current" if current else f"stale: the matcher has changed since; run {REGENERATE}")
        return 0 if current else 1
    result = measure(load(args.datasets), datetime.date.today().isoformat(),
                     fingerprint_file(args.datasets / DATASET / "answers.jsonl"))
    write_artifact(args.output, result)
    for s in result.shapes:
        f = s.figures
        print(f"{s.mode:14} {s.shape:9} n={f.n:5}  {f.agreement:.1%} (false accepts {f.false_accepts}, false "
              f"rejects {f.false_rejects})  substring {s.substring.agreement:.1%}")
    for mode, why in result.not_measured.items():
        print(f"{mode}: not measured ({why})")
    print(f"wrote {args.output} (matcher {result.matcher_fingerprint})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
