"""The real OpenAI and Anthropic providers, driven through the official SDKs against the local fake server:
replies, structured output, tool calling, error mapping and key hygiene."""

from __future__ import annotations

import asyncio
import email.utils
import json
import socket
import subprocess
import sys
import time
import traceback
from typing import Any

import pytest

from gaia_eval.artifacts.base import Usage
from gaia_eval.concurrency import ProviderGate, RetryPolicy, call_with_retries
from gaia_eval.errors import (
    AuthError,
    BadRequestError,
    ConnectionFailedError,
    MalformedResponseError,
    MissingCredentialsError,
    ProviderError,
    ProviderTimeoutError,
    RateLimitError,
    ServerError,
)
from gaia_eval.providers import ProviderSettings, anthropic_api, create_provider, openai_api
from gaia_eval.providers.anthropic_api import AnthropicProvider, messages_to_anthropic
from gaia_eval.providers.base import ChatRequest, ChatResponse, Message, ToolCall, ToolSpec
from gaia_eval.providers.openai_api import NO_KEY_PLACEHOLDER, OpenAIProvider
from gaia_eval.providers.sdk_errors import retry_after_seconds
from tests.fakeserver import REFUSAL_TEXT, FakeLLMServer

KEY = "sk-test-FAKEKEY-0123456789abcdef"
PROTOCOLS = ["openai", "anthropic"]
ANSWER_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "answer": {"type": "string"},
        "confidence": {"type": "number"},
        "source": {"$ref": "#/$defs/Source"},
    },
    "required": ["answer", "confidence", "source"],
    "$defs": {"Source": {"type": "object", "properties": {"page": {"type": "integer"}}, "required": ["page"]}},
}
CALCULATOR = ToolSpec(
    name="calculator",
    description="Evaluate an arithmetic expression.",
    parameters={"type": "object", "properties": {"expression": {"type": "string"}}, "required": ["expression"]},
)


@pytest.fixture(params=["aiohttp", "httpx2"])
def transport(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run a test over both SDK transports: aiohttp (used when installed) and the SDKs' default httpx2."""
    if request.param == "httpx2":
        monkeypatch.setattr(openai_api, "_http_client", lambda: None)
        monkeypatch.setattr(anthropic_api, "_http_client", lambda: None)
    return request.param


def make_provider(server: FakeLLMServer, protocol: str, **settings: Any) -> OpenAIProvider | AnthropicProvider:
    if protocol == "openai":
        return OpenAIProvider(ProviderSettings("openai", "gpt-4o", base_url=server.openai_base_url, **settings), KEY)
    return AnthropicProvider(
        ProviderSettings("anthropic", "claude-test", base_url=server.anthropic_base_url, **settings), KEY
    )


def ask_all(provider: Any, *requests: ChatRequest) -> list[ChatResponse]:
    async def go() -> list[ChatResponse]:
        try:
            return [await provider.complete(r) for r in requests]
        finally:
            await provider.aclose()

    return asyncio.run(go())


def ask(provider: Any, request: ChatRequest) -> ChatResponse:
    return ask_all(provider, request)[0]


def failure(provider: Any, request: ChatRequest) -> ProviderError:
    with pytest.raises(ProviderError) as info:
        ask(provider, request)
    return info.value


def user(text: str, **kwargs: Any) -> ChatRequest:
    return ChatRequest(messages=(Message("user", text),), **kwargs)


# -- plain replies ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_plain_completion_returns_text_usage_finish_reason_and_latency(fake_llm, protocol, transport) -> None:
    fake_llm.latency_s = 0.05
    reply = ask(make_provider(fake_llm, protocol), user("What is the capital of France?", system="Be brief."))

    assert reply.text == "echo: What is the capital of France?"
    assert reply.usage == Usage(input_tokens=8, output_tokens=7)  # the server counts words
    assert reply.finish_reason == "stop"
    assert reply.latency_s >= 0.05
    assert reply.model == ("gpt-4o" if protocol == "openai" else "claude-test")
    assert reply.data is None and reply.tool_calls == []


def test_openai_request_carries_system_prompt_sampling_and_stop(fake_llm) -> None:
    request = user("hi", system="sys", max_tokens=77, temperature=0.3, top_p=0.9, seed=5, stop=("END",))
    ask(make_provider(fake_llm, "openai"), request)
    body = fake_llm.requests[0]["body"]

    assert body["messages"] == [{"role": "system", "content": "sys"}, {"role": "user", "content": "hi"}]
    # A compatible server at a custom URL gets max_tokens; api.openai.com gets max_completion_tokens.
    assert body["max_tokens"] == 77 and "max_completion_tokens" not in body
    assert (body["temperature"], body["top_p"], body["seed"], body["stop"]) == (0.3, 0.9, 5, ["END"])


def test_openai_cloud_uses_max_completion_tokens(monkeypatch) -> None:
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    provider = OpenAIProvider(ProviderSettings("openai", "gpt-5"), KEY)
    params = provider.build_params(user("hi", max_tokens=50))
    asyncio.run(provider.aclose())
    assert params["max_completion_tokens"] == 50 and "max_tokens" not in params


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_base_url_can_come_from_the_environment(fake_llm, monkeypatch, protocol) -> None:
    if protocol == "openai":
        monkeypatch.setenv("OPENAI_BASE_URL", fake_llm.openai_base_url)
        monkeypatch.delenv("OPENAI_API_KEY", raising=False)  # a custom OpenAI-compatible URL may need no key
    else:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", fake_llm.anthropic_base_url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    reply = ask(create_provider(ProviderSettings(protocol, "some-model")), user("hi", max_tokens=9))
    assert reply.text == "echo: hi"
    assert fake_llm.requests[0]["body"]["max_tokens"] == 9


def test_anthropic_request_has_top_level_system_and_no_sampling_params(fake_llm) -> None:
    ask(make_provider(fake_llm, "anthropic"), user("hi", system="sys", max_tokens=64, temperature=0.7, stop=("END",)))
    body = fake_llm.requests[0]["body"]

    assert body["system"] == "sys"
    assert body["messages"] == [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]
    assert body["max_tokens"] == 64 and body["stop_sequences"] == ["END"]
    # The Messages API version spoken by anthropic SDK 2.x rejects sampling parameters outright.
    assert not {"temperature", "top_p", "top_k"} & body.keys()


# -- structured output -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_json_schema_request_returns_parsed_data(fake_llm, protocol) -> None:
    reply = ask(make_provider(fake_llm, protocol), user("Who won?", json_schema=ANSWER_SCHEMA, schema_name="qa"))

    assert reply.data == {"answer": "echo: Who won?", "confidence": 0.0, "source": {"page": 0}}
    assert reply.finish_reason == "stop"
    body = fake_llm.requests[0]["body"]
    if protocol == "openai":
        assert body["response_format"] == {
            "type": "json_schema",
            "json_schema": {"name": "qa", "schema": ANSWER_SCHEMA, "strict": False},
        }
    else:
        assert body["tool_choice"] == {"type": "tool", "name": "qa"}
        assert body["tools"][-1]["name"] == "qa" and body["tools"][-1]["input_schema"] == ANSWER_SCHEMA


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_scripted_json_reply_is_returned_as_data(fake_llm, protocol) -> None:
    fake_llm.script([{"json": {"answer": "Paris", "confidence": 0.9, "source": {"page": 3}}}])
    reply = ask(make_provider(fake_llm, protocol), user("Capital?", json_schema=ANSWER_SCHEMA))
    assert reply.data == {"answer": "Paris", "confidence": 0.9, "source": {"page": 3}}


def test_openai_json_reply_wrapped_in_a_markdown_fence_still_parses(fake_llm) -> None:
    fake_llm.script([{"text": '```json\n{"answer": "Paris"}\n```'}])
    reply = ask(make_provider(fake_llm, "openai"), user("Capital?", json_schema=ANSWER_SCHEMA))
    assert reply.data == {"answer": "Paris"}


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_json_reply_that_is_not_json_is_malformed(fake_llm, protocol) -> None:
    fake_llm.script([{"text": "Sure! The answer is Paris."}])  # Anthropic: prose instead of the forced tool
    err = failure(make_provider(fake_llm, protocol), user("Capital?", json_schema=ANSWER_SCHEMA))
    assert isinstance(err, MalformedResponseError) and err.retryable
    assert "Sure! The answer is Paris." in str(err)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_json_reply_cut_off_at_max_tokens_says_so(fake_llm, protocol) -> None:
    fake_llm.script([{"fault": "truncated"}])
    err = failure(make_provider(fake_llm, protocol), user("Capital?", json_schema=ANSWER_SCHEMA))
    assert isinstance(err, MalformedResponseError)
    assert "max_tokens" in str(err)


BILLED = {"input_tokens": 1000, "output_tokens": 500}


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize(
    "reply",
    [{"text": "Sure! The answer is Paris."}, {"fault": "truncated"}, {"json": ["Paris"]}],
    ids=["prose", "cut-off", "wrong-shape"],
)
def test_an_unusable_reply_still_reports_the_tokens_it_was_billed(fake_llm, protocol, reply) -> None:
    if protocol == "openai" and "json" in reply:
        reply = {"tool_calls": [{"name": "lookup", "arguments": "{not json"}]}  # OpenAI: unreadable tool call
    fake_llm.script([{**reply, "usage": BILLED}])
    err = failure(make_provider(fake_llm, protocol), user("Capital?", json_schema=ANSWER_SCHEMA))
    assert isinstance(err, MalformedResponseError)
    assert err.usage == Usage(input_tokens=1000, output_tokens=500)


def test_a_reply_body_that_is_not_json_has_no_usage(fake_llm) -> None:
    fake_llm.script([{"fault": "malformed"}])
    err = failure(make_provider(fake_llm, "openai"), user("Capital?", json_schema=ANSWER_SCHEMA))
    assert isinstance(err, MalformedResponseError) and err.usage is None


def test_call_with_retries_adds_up_the_usage_of_every_unusable_attempt(fake_llm) -> None:
    fake_llm.script([{"text": "not json", "usage": BILLED}, {"fault": "500"}, {"text": "still not", "usage": BILLED}])
    provider = make_provider(fake_llm, "openai")
    policy = RetryPolicy(max_retries=2, base_delay_s=0.01, timeout_s=5)

    async def run() -> Any:
        try:
            return await call_with_retries(
                lambda: provider.complete(user("hi", json_schema=ANSWER_SCHEMA)), ProviderGate(4), policy
            )
        finally:
            await provider.aclose()

    outcome = asyncio.run(run())
    assert not outcome.ok and outcome.attempts == 3
    assert outcome.spent_usage == Usage(input_tokens=2000, output_tokens=1000)  # the 500 carried no usage


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_truncated_text_reply_reports_length(fake_llm, protocol) -> None:
    fake_llm.script([{"text": "one two three four five six", "fault": "truncated"}])
    reply = ask(make_provider(fake_llm, protocol), user("Count."))
    assert reply.finish_reason == "length"
    assert reply.text == "one two three"  # the server cuts the reply in half


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_refusal_is_a_reply_with_finish_reason_refusal_and_no_data(fake_llm, protocol) -> None:
    fake_llm.script([{"fault": "refusal"}])
    reply = ask(make_provider(fake_llm, protocol), user("Something bad", json_schema=ANSWER_SCHEMA))
    assert (reply.finish_reason, reply.text, reply.data) == ("refusal", REFUSAL_TEXT, None)


def test_local_preset_needs_no_key_and_puts_the_schema_in_the_system_prompt(fake_llm, monkeypatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    provider = create_provider(ProviderSettings("ollama", "llama3.2", base_url=fake_llm.openai_base_url))
    assert (provider.name, provider.model, provider.is_local) == ("ollama", "llama3.2", True)

    reply = ask(provider, user("Who won?", system="You answer questions.", json_schema=ANSWER_SCHEMA))

    assert reply.data["answer"] == "echo: Who won?"
    body = fake_llm.requests[0]["body"]
    system = body["messages"][0]
    assert system["role"] == "system" and system["content"].startswith("You answer questions.")
    assert json.dumps(ANSWER_SCHEMA, separators=(",", ":"), sort_keys=True) in system["content"]
    assert body["response_format"]["type"] == "json_schema"


def test_local_preset_never_sends_the_cloud_key_from_the_environment(fake_llm, monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    fake_llm.expected_key = NO_KEY_PLACEHOLDER  # any other key, e.g. the real one, gets a 401
    provider = create_provider(ProviderSettings("vllm", "qwen", base_url=fake_llm.openai_base_url))
    assert ask(provider, user("hi")).text == "echo: hi"


@pytest.mark.parametrize(
    ("provider", "env"), [("anthropic", "ANTHROPIC_API_KEY"), ("openai", "OPENAI_API_KEY")]
)
def test_missing_cloud_key_fails_before_any_request(fake_llm, monkeypatch, provider, env) -> None:
    monkeypatch.delenv(env, raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    base_url = fake_llm.anthropic_base_url if provider == "anthropic" else None
    with pytest.raises(MissingCredentialsError, match=env):
        create_provider(ProviderSettings(provider, "some-model", base_url=base_url))
    assert fake_llm.request_count == 0


# -- tool calling ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_tool_calling_round_trip(fake_llm, protocol) -> None:
    fake_llm.script(
        [{"tool_calls": [{"name": "calculator", "arguments": {"expression": "6*7"}}]}, {"text": "The answer is 42."}]
    )
    provider = make_provider(fake_llm, protocol)
    question = Message("user", "What is 6 times 7?")

    async def conversation() -> tuple[ChatResponse, ChatResponse]:
        try:
            first = await provider.complete(ChatRequest(messages=(question,), tools=(CALCULATOR,)))
            call = first.tool_calls[0]
            history = (
                question,
                Message("assistant", first.text, tool_calls=tuple(first.tool_calls)),
                Message("tool", "42", tool_call_id=call.id),
            )
            second = await provider.complete(ChatRequest(messages=history, tools=(CALCULATOR,)))
            return first, second
        finally:
            await provider.aclose()

    first, second = asyncio.run(conversation())

    assert first.finish_reason == "tool_calls"
    [call] = first.tool_calls
    assert (call.name, call.arguments) == ("calculator", {"expression": "6*7"}) and call.id
    assert second.text == "The answer is 42." and second.tool_calls == []

    sent_tools, follow_up = fake_llm.requests[0]["body"]["tools"], fake_llm.requests[1]["body"]["messages"]
    if protocol == "openai":
        assert sent_tools == [
            {"type": "function", "function": {"name": "calculator", "description": CALCULATOR.description,
                                              "parameters": CALCULATOR.parameters}}
        ]
        assert follow_up[1] == {
            "role": "assistant",
            "content": None,
            "tool_calls": [{"id": call.id, "type": "function",
                            "function": {"name": "calculator", "arguments": '{"expression": "6*7"}'}}],
        }
        assert follow_up[2] == {"role": "tool", "tool_call_id": call.id, "content": "42"}
    else:
        assert sent_tools == [
            {"name": "calculator", "description": CALCULATOR.description, "input_schema": CALCULATOR.parameters}
        ]
        assert follow_up[1] == {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": call.id, "name": "calculator", "input": {"expression": "6*7"}}],
        }
        result = {"type": "tool_result", "tool_use_id": call.id, "content": "42"}
        assert follow_up[2] == {"role": "user", "content": [result]}


def test_anthropic_parallel_tool_results_and_a_follow_up_share_one_user_turn() -> None:
    calls = (ToolCall("t1", "calculator", {"expression": "1+1"}), ToolCall("t2", "calculator", {"expression": "2+2"}))
    turns = messages_to_anthropic(
        (
            Message("user", "Add both."),
            Message("assistant", "Let me compute.", tool_calls=calls),
            Message("tool", "2", tool_call_id="t1"),
            Message("tool", "4", tool_call_id="t2"),
            Message("user", "Now sum them."),
        )
    )
    assert [t["role"] for t in turns] == ["user", "assistant", "user"]
    assert [b["type"] for b in turns[1]["content"]] == ["text", "tool_use", "tool_use"]
    assert turns[2]["content"] == [
        {"type": "tool_result", "tool_use_id": "t1", "content": "2"},
        {"type": "tool_result", "tool_use_id": "t2", "content": "4"},
        {"type": "text", "text": "Now sum them."},
    ]


def test_openai_tool_call_with_unparseable_arguments_is_malformed(fake_llm) -> None:
    fake_llm.script([{"tool_calls": [{"name": "calculator", "arguments": '{"expression": "1+'}]}])
    request = ChatRequest(messages=(Message("user", "1+"),), tools=(CALCULATOR,))
    err = failure(make_provider(fake_llm, "openai"), request)
    assert isinstance(err, MalformedResponseError) and "calculator" in str(err)


# -- errors ----------------------------------------------------------------------------------------------------
ERROR_CASES = [
    ("500", ServerError, True),
    ("502", ServerError, True),
    ("503", ServerError, True),
    ("529", ServerError, True),
    ("429", RateLimitError, True),
    ("401", AuthError, False),
    ("403", AuthError, False),
    ("400", BadRequestError, False),
    ("404", BadRequestError, False),
    ("422", BadRequestError, False),
    ("malformed", MalformedResponseError, True),
    ("no_choices", MalformedResponseError, True),
]


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize(("fault", "error", "retryable"), ERROR_CASES)
def test_http_faults_map_to_gaia_errors(fake_llm, protocol, fault, error, retryable) -> None:
    fake_llm.script([{"fault": fault}])
    err = failure(make_provider(fake_llm, protocol), user("hi"))
    assert type(err) is error
    assert err.retryable is retryable
    assert str(err).startswith(protocol)
    if fault.isdigit():
        assert f"HTTP {fault}" in str(err)
    assert fake_llm.request_count == 1  # the SDK's own retries are off: concurrency.py owns retrying


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize(("fault", "error"), [("429", RateLimitError), ("503", ServerError), ("529", ServerError)])
def test_retry_after_header_is_parsed(fake_llm, protocol, fault, error) -> None:
    fake_llm.script([{"fault": fault, "retry_after": 2}])
    err = failure(make_provider(fake_llm, protocol), user("hi"))
    assert isinstance(err, error) and err.retry_after == 2.0


@pytest.mark.parametrize("protocol", PROTOCOLS)
@pytest.mark.parametrize(("fault", "error"), [("429", RateLimitError), ("malformed", MalformedResponseError)])
def test_both_transports_map_faults_alike(fake_llm, protocol, transport, fault, error) -> None:
    fake_llm.script([{"fault": fault, "retry_after": 2}])
    err = failure(make_provider(fake_llm, protocol), user("hi"))
    assert type(err) is error
    assert err.retry_after == (2.0 if fault == "429" else None)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_retry_after_ms_header_wins_over_retry_after(fake_llm, protocol) -> None:
    fake_llm.script([{"fault": "429", "retry_after": 5, "retry_after_ms": 1500}])
    err = failure(make_provider(fake_llm, protocol), user("hi"))
    assert err.retry_after == 1.5


def test_retry_after_values() -> None:
    now = 1_700_000_000.0
    in_ten_seconds = email.utils.formatdate(now + 10, usegmt=True)
    assert retry_after_seconds({"retry-after": "2"}) == 2.0
    assert retry_after_seconds({"retry-after": "0.25"}) == 0.25
    assert retry_after_seconds({"retry-after": in_ten_seconds}, now=now) == 10.0
    assert retry_after_seconds({"retry-after": email.utils.formatdate(now - 60, usegmt=True)}, now=now) == 0.0
    assert retry_after_seconds({"retry-after-ms": "250", "retry-after": "9"}) == 0.25
    assert retry_after_seconds({"retry-after": "soon"}) is None
    assert retry_after_seconds({}) is None


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_a_server_that_hangs_is_a_timeout(fake_llm, protocol, transport) -> None:
    fake_llm.script([{"fault": "hang"}])
    started = time.monotonic()
    err = failure(make_provider(fake_llm, protocol), user("hi", timeout_s=0.2))
    assert isinstance(err, ProviderTimeoutError) and err.retryable
    assert time.monotonic() - started >= 0.2  # not before the timeout (no upper bound: a busy machine is slow)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_settings_timeout_applies_when_the_request_has_none(fake_llm, protocol) -> None:
    fake_llm.script([{"fault": "hang"}])
    err = failure(make_provider(fake_llm, protocol, timeout_s=0.2), user("hi"))
    assert isinstance(err, ProviderTimeoutError)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_nothing_listening_is_a_connection_failure(protocol, transport) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    if protocol == "openai":
        provider: Any = OpenAIProvider(ProviderSettings("lmstudio", "m", base_url=url + "/v1"), None)
    else:
        provider = AnthropicProvider(ProviderSettings("anthropic", "m", base_url=url), KEY)
    err = failure(provider, user("hi", timeout_s=5))
    assert isinstance(err, ConnectionFailedError) and err.retryable
    assert "base_url" in str(err)


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_api_key_never_appears_in_errors_even_when_the_server_echoes_it(fake_llm, protocol) -> None:
    fake_llm.expected_key = "sk-the-right-key"  # the 401 body quotes the presented key back
    auth = failure(make_provider(fake_llm, protocol), user("hi"))
    fake_llm.expected_key = None
    fake_llm.script([{"fault": "500", "message": f"upstream rejected {KEY}"}])
    server = failure(make_provider(fake_llm, protocol), user("hi"))

    assert isinstance(auth, AuthError) and isinstance(server, ServerError)
    assert "[REDACTED]" in str(auth) and "[REDACTED]" in str(server)
    for err in (auth, server):
        rendered = [str(err), repr(err), err.message, "".join(traceback.format_exception(err)), *map(str, err.args)]
        assert not any(KEY in text for text in rendered)
        assert err.__cause__ is None and err.__suppress_context__  # the SDK error (holding the request) is hidden


def test_retry_after_is_a_floor_for_call_with_retries(fake_llm) -> None:
    """The one slow test: a 429 asking for 2 s is not retried sooner, although backoff alone would be 10 ms."""
    fake_llm.script([{"fault": "429", "retry_after": 2}])
    provider = make_provider(fake_llm, "openai")
    policy = RetryPolicy(max_retries=2, base_delay_s=0.01, timeout_s=5)

    async def run() -> Any:
        try:
            return await call_with_retries(lambda: provider.complete(user("hi")), ProviderGate(4), policy)
        finally:
            await provider.aclose()

    started = time.monotonic()
    outcome = asyncio.run(run())
    elapsed = time.monotonic() - started

    assert outcome.ok and outcome.value.text == "echo: hi"
    assert outcome.attempts == 2 and "rate_limit" in outcome.retries[0]
    assert elapsed >= 2.0
    first, second = (r["arrived_at"] for r in fake_llm.requests)
    assert second - first >= 2.0


def test_importing_the_cli_does_not_import_the_sdks() -> None:
    code = (
        "import sys, gaia_eval.cli, gaia_eval.providers.pricing; "
        "print(sorted(m for m in ('openai', 'anthropic', 'aiohttp', 'httpx2') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
