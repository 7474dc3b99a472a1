"""eval --match-mode judge --answer-judge (issue 27 item 2): the qa use case's short answers graded by the
answer-equivalence judge through a real local OpenAI-compatible server (tests/fakeserver.py on 127.0.0.1) and the
real SDK, behind the response cache and through the batch API; long-form answers keep their free-text criteria."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner

from gaia_eval.cli import cli
from tests.fakeserver import last_user_text
from tests.test_answers_judge import grader

DATA = Path(__file__).parent / "data" / "own_questions"


@pytest.fixture
def own(tmp_path: Path) -> Path:
    """The own-questions set imported with the good system's answers (the bad system's left out: fewer calls)."""
    for name in ("story.txt", "questions.jsonl"):
        shutil.copy(DATA / name, tmp_path / name)
    good = [line for line in (DATA / "outputs.jsonl").read_text(encoding="utf-8").splitlines() if '"good"' in line]
    (tmp_path / "outputs.jsonl").write_text("\n".join(good) + "\n", encoding="utf-8")
    for args in (["import-groundtruth", str(tmp_path / "questions.jsonl"), "-o", str(tmp_path / "gt")],
                 ["import-outputs", str(tmp_path / "outputs.jsonl"), "-g", str(tmp_path / "gt" / GT), "-o",
                  str(tmp_path / "exp")]):
        result = CliRunner().invoke(cli, args)
        assert result.exit_code == 0, result.output
    return tmp_path


GT = "consolidated_qa_groundtruth.json"


def _eval(root: Path, server, *more: str, model: str = "gpt-4o-mini"):
    return CliRunner().invoke(cli, ["eval", "-d", str(root / "exp"), "-g", str(root / "gt" / GT), "-o",
                                    str(root / "eval"), "--match-mode", "judge", "--answer-judge",
                                    f"openai:{model}", "--judge-base-url", server.openai_base_url, *more])


def _items(root: Path) -> dict[str, dict]:
    evaluation = json.loads((root / "eval" / "good.experiment.eval.json").read_text(encoding="utf-8"))
    return {item["item_id"]: item for item in evaluation["items"]}


def _explanation(item: dict) -> str:
    return " ".join(c["explanation"] for c in item.get("criteria", []))


def test_short_answers_are_graded_by_the_judge_once_and_a_rerun_pays_nothing(own, fake_llm, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    fake_llm.responder = grader
    first = _eval(own, fake_llm)
    assert first.exit_code == 0, first.output
    items = _items(own)
    judged = [i for i in items.values() if "judge openai:gpt-4o-mini: the model grades" in _explanation(i)]
    long_form = [i for i in items.values() if i not in judged]
    assert judged and long_form  # the set mixes short answers (asked about) and prose (free-text criteria)
    assert fake_llm.request_count == len(judged)  # one call per short answer, none for a long-form one
    assert all({c["criterion"] for c in i["criteria"]} != {"correctness"} for i in long_form)
    assert all(i["passed"] == ("correct: judge" in _explanation(i)) for i in judged)
    asked = [last_user_text(r["body"]) for r in fake_llm.requests]
    assert all("Reference answer(s):" in p and "Question: " in p for p in asked)
    again = _eval(own, fake_llm)
    assert again.exit_code == 0 and "skipped 1" in again.output, again.output
    forced = _eval(own, fake_llm, "--force")  # scored again: every verdict comes from the response cache
    assert forced.exit_code == 0 and fake_llm.request_count == len(judged), forced.output
    other = _eval(own, fake_llm, model="gpt-4o")  # another judge is another input: re-scored, asked again
    assert other.exit_code == 0 and "redone 1" in other.output, other.output
    assert fake_llm.request_count == 2 * len(judged)
    assert any("judge openai:gpt-4o: the model grades" in _explanation(i) for i in _items(own).values())
    report = CliRunner().invoke(cli, ["report", "-d", str(own / "eval"), "-o", str(own / "report.md")])
    assert report.exit_code == 0, report.output


def test_an_unreadable_reply_is_asked_again_once_then_that_item_is_an_error_and_a_rerun_redoes_only_it(
        own, fake_llm, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")

    def flaky(req):
        if "Wren Street" in json.dumps(req["body"]) and not fixed:
            return {"json": {"verdict": "maybe"}}
        if "could not be read" in last_user_text(req["body"]):  # the repair request, on the re-run
            return {"json": {"correct": True}}
        return grader(req)

    fixed = False
    fake_llm.responder = flaky
    failed = _eval(own, fake_llm)
    assert failed.exit_code == 1 and "no usable verdict" in failed.output, failed.output
    items = _items(own)
    errors = [i for i in items.values() if i["status"] == "error"]
    assert "attic#q04" in {i["item_id"] for i in errors} and len(errors) < len(items) // 2
    assert all("no usable verdict" in i["error"] for i in errors)
    paid = fake_llm.request_count
    repairs = [r for r in fake_llm.requests if "could not be read" in last_user_text(r["body"])]
    assert len(repairs) == len(errors)  # one repair request per unreadable reply, no more
    fixed = True
    rerun = _eval(own, fake_llm)
    assert rerun.exit_code == 0, rerun.output
    assert fake_llm.request_count == paid + len(errors)  # only the failed items are asked again (the rest: cache)
    assert all(i["status"] == "scored" for i in _items(own).values())


def test_match_mode_judge_without_its_model_is_one_line_and_exit_2(own):
    result = CliRunner().invoke(cli, ["eval", "-d", str(own / "exp"), "-o", str(own / "eval"), "--match-mode",
                                      "judge"])
    assert result.exit_code == 2 and "--answer-judge" in result.output, result.output
    assert len(result.output.strip().splitlines()) == 1 and not (own / "eval").exists()
    stray = CliRunner().invoke(cli, ["eval", "-d", str(own / "exp"), "-o", str(own / "eval"), "--answer-judge",
                                     "openai:gpt-4o-mini"])
    assert stray.exit_code == 2 and "--match-mode judge" in stray.output, stray.output


def test_the_answer_judge_answers_through_the_batch_api(own, batch_server):
    batch_server.responder = grader
    result = _eval(own, batch_server, "--batch", "--no-cache")
    assert result.exit_code == 0, result.output
    items = _items(own)
    judged = [i for i in items.values() if "judge openai:gpt-4o-mini: the model grades" in _explanation(i)]
    assert judged and batch_server.batches and batch_server.request_count == 0  # only the batch API was used
    assert not list((own / "eval").glob("*.answer-judge.batches.jsonl"))  # every batch answered: journal removed


def test_answer_judge_shards_through_the_batch_api_pay_each_answer_once_and_consolidate(own, batch_server):
    batch_server.responder = grader
    for k in (1, 2):
        shard = _eval(own, batch_server, "--batch", "--no-cache", "--shard", f"{k}/2")
        assert shard.exit_code == 0, shard.output
        assert not (own / "eval" / "good.experiment.eval.json").exists()
    asked = Counter(cid.split("_")[1] for b in batch_server.batches.values() for cid, _ in b["requests"])
    assert set(asked.values()) == {1} and len(batch_server.batches) == 2  # each answer once, one batch per shard
    assert len({cid.split("_")[0] for b in batch_server.batches.values() for cid, _ in b["requests"]}) == 2
    before = dict(batch_server.batches)
    done = _eval(own, batch_server, "--batch", "--no-cache")
    assert done.exit_code == 0, done.output
    assert batch_server.batches == before and batch_server.request_count == 0  # the consolidation asked nothing
    sharded = _items(own)
    shutil.rmtree(own / "eval")
    single = _eval(own, batch_server, "--batch", "--no-cache")
    assert single.exit_code == 0, single.output
    assert sharded == _items(own)
