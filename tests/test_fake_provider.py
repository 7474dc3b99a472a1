"""The `fake` provider users test their extensions with: echo and scripted replies, valid JSON for a schema, and
one-line errors for a missing or bad replies file."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from gaia_eval.artifacts.groundtruth import Summaries
from gaia_eval.errors import ConfigError, InputError
from gaia_eval.providers.base import ChatRequest, Message
from gaia_eval.providers.fake_api import FakeProvider


def ask(fake: FakeProvider, text: str, schema: dict | None = None):
    return asyncio.run(fake.complete(ChatRequest(messages=(Message("user", text),), json_schema=schema)))


def test_echo_replies_with_the_prompt_and_fills_a_schema_with_it():
    fake = FakeProvider("echo")
    assert ask(fake, "hello there").text == "hello there"
    reply = ask(fake, "the meeting", Summaries.model_json_schema())
    summaries = Summaries.model_validate(reply.data)  # a valid object, as a stage asking for JSON needs
    assert summaries.executive_summary == "the meeting" and summaries.action_items == ["the meeting"]
    assert json.loads(reply.text) == reply.data and len(fake.calls) == 2


def test_scripted_replies_by_prompt_piece_or_in_call_order():
    by_piece = FakeProvider("scripted", replies={"France": "Paris", "": "no idea"})
    assert [ask(by_piece, q).text for q in ("capital of France?", "capital of Peru?")] == ["Paris", "no idea"]
    in_order = FakeProvider("scripted", replies=["one", {"a": 1}])
    assert [ask(in_order, "x").text for _ in range(3)] == ["one", '{"a": 1}', '{"a": 1}']  # the last repeats


def test_scripted_reads_its_replies_file_and_says_what_is_wrong_in_one_line(tmp_path: Path, monkeypatch):
    monkeypatch.delenv("GAIA_EVAL_FAKE_REPLIES", raising=False)
    with pytest.raises(ConfigError, match="GAIA_EVAL_FAKE_REPLIES is not set"):
        FakeProvider("scripted")
    (tmp_path / "r.json").write_text('{"": "ok"}')
    monkeypatch.setenv("GAIA_EVAL_FAKE_REPLIES", str(tmp_path / "r.json"))
    assert ask(FakeProvider("scripted"), "anything").text == "ok"
    (tmp_path / "r.json").write_text('"just a string"')
    with pytest.raises(ConfigError, match="holds a str"):
        FakeProvider("scripted")
    (tmp_path / "r.json").write_text("{not json")
    with pytest.raises(InputError):
        FakeProvider("scripted")
