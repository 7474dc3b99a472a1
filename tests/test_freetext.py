"""Free-text summaries against human references and the source: N/A when an input is missing, ROUGE via
rouge-score, consistency with the source, and length/copying not buying score."""

from __future__ import annotations

from gaia_eval.scoring.rubric.freetext import rouge_scores, score_summary_output

SOURCE = (
    "Amanda: I baked cookies. Do you want some?\n"
    "Jerry: Sure! How many did you make?\n"
    "Amanda: About 30. I will bring you some tomorrow :-)\n"
    "Jerry: Great, see you at the office then."
)
REFERENCE = "Amanda baked about 30 cookies and will bring Jerry some tomorrow at the office."


def test_missing_inputs_are_not_applicable_and_left_out_of_the_grade() -> None:
    score = score_summary_output("Amanda baked cookies for Jerry.", SOURCE, [])
    assert score.values["reference_overlap"] is None and score.values["content_coverage"] is None
    ratings = {r.criterion: r.rating for r in score.results}
    assert ratings["reference_overlap"] == "N/A" and ratings["source_consistency"] != "N/A"
    no_source = score_summary_output(REFERENCE, None, [REFERENCE])
    assert no_source.values["source_consistency"] is None and no_source.grade == 100.0


def test_invented_names_and_numbers_lower_consistency() -> None:
    faithful = score_summary_output("Amanda baked about 30 cookies for Jerry.", SOURCE)
    invented = score_summary_output("Amanda baked 45 cookies for Peter.", SOURCE)
    assert faithful.values["source_consistency"] == 1.0
    assert invented.values["source_consistency"] < 0.5
    explanation = {r.criterion: r.explanation for r in invented.results}["source_consistency"]
    assert "45" in explanation and "peter" in explanation


def test_rouge_uses_stemming_and_best_of_several_references() -> None:
    scores = rouge_scores("Amanda bakes cookie", ["Amanda baked cookies", "Something else entirely"])
    assert scores["rouge1"] == 1.0
    mean = rouge_scores("Amanda bakes cookie", ["Amanda baked cookies", "Something else entirely"], "mean")
    assert mean["rouge1"] == 0.5


def test_length_and_copying_do_not_buy_score() -> None:
    concise = score_summary_output(REFERENCE, SOURCE, [REFERENCE])
    padded = score_summary_output(REFERENCE + " " + SOURCE.replace("\n", " ") * 2, SOURCE, [REFERENCE])
    assert concise.values["conciseness"] == 1.0
    assert padded.values["conciseness"] < 0.5
    assert padded.grade < concise.grade


def test_a_copy_of_a_short_chat_loses_conciseness() -> None:
    # The grade of a copy of a chat under 60 words is NOT lowered (conciseness weighs 0 and the copy rule starts at
    # 60 words): DialSummEval's annotators rated such copies 4.9 of 5 (README "Where the grade's weights come
    # from"); a copy of a longer source grades Poor (test_freetext_weights.py).
    copy = score_summary_output(SOURCE, SOURCE)
    assert copy.values["conciseness"] == 0.0


def test_padding_beyond_the_budget_earns_no_recall() -> None:
    padded = score_summary_output("Unrelated words here. " * 20 + REFERENCE, SOURCE, [REFERENCE])
    assert padded.values["reference_overlap"] < 0.2 and padded.values["content_coverage"] < 0.3


def test_numbers_spelled_out_in_the_source_support_digits_in_the_summary() -> None:
    source = "Marketing: three quarters of people under thirty five want it.\nPM: keep it at twelve point five euros."
    score = score_summary_output("People under 35 want it; the cost stays at 12.5 euros.", source)
    explanation = {r.criterion: r.explanation for r in score.results}["source_consistency"]
    assert "'35'" not in explanation and "'12.5'" not in explanation


def test_prices_and_years_said_as_two_numbers_support_their_digits() -> None:
    from gaia_eval.number_words import spelled_numbers

    assert {"12.5", "1250"} <= spelled_numbers("our twelve fifty Euro goal")
    assert "1980" in spelled_numbers("back in nineteen eighty")
    # must still read compounds and separate numbers as before
    assert spelled_numbers("fifty five") == {"55"}
    assert spelled_numbers("two hundred and fifty") == {"250"}
    assert spelled_numbers("one two three") == {"1", "2", "3"}
    source = "Marketing: can we still meet our twelve fifty Euro goal for selling these?"
    score = score_summary_output("They want to sell it at 12.50 euros.", source)
    assert "'12.5'" not in {r.criterion: r.explanation for r in score.results}["source_consistency"]
    invented = score_summary_output("They want to sell it at 13.50 euros.", source)
    assert "'13.5'" in {r.criterion: r.explanation for r in invented.results}["source_consistency"]


def test_narrating_a_conversation_is_not_an_unsupported_claim() -> None:
    narrated = score_summary_output(
        "The speakers began with a conversation, then shared views and talked about cookies.", SOURCE
    )
    assert narrated.values["source_consistency"] == 1.0
    # narration words are left out of the check, the claim's own words still need the source
    invented = score_summary_output(
        "The speakers began with a conversation, then talked about the kitchen walls.", SOURCE
    )
    assert invented.values["source_consistency"] == 0.0


def test_speaker_labels_and_contraction_fragments_are_not_what_a_source_is_about() -> None:
    from gaia_eval.scoring.rubric.freetext import salient_words

    transcript = "\n".join(
        f"Project Manager: I don't think the {w} matters.\nMarketing: Okay, the {w} is cheap." for w in
        ("battery", "screen", "plastic", "button", "colour", "slogan")
    )
    salient = salient_words(transcript, n=8)  # each label once: below every word said twice
    assert not {"project", "manager", "market", "don", "m"} & set(salient)
    assert {"battery", "screen", "plastic"} <= set(salient)
    # a chat participant named in the turns stays salient
    assert "amanda" in salient_words(SOURCE)


def test_a_short_text_may_take_a_summary_of_some_words_but_not_a_copy() -> None:
    chat = "\n".join(f"{who}: {line}" for who, line in [
        ("Ana", "Can we move the product demo from Thursday to Friday morning?"),
        ("Ben", "Sure, Friday works for me, I will book the big meeting room."),
        ("Ana", "Great. Also the client wants the pricing slides updated before then."),
        ("Ben", "I can do the slides tomorrow and send them to you for review."),
        ("Ana", "Perfect, thanks Ben, see you Friday at ten."),
    ])
    summary = ("Ana and Ben move the product demo to Friday at ten; Ben books the big meeting room, updates the "
               "client's pricing slides tomorrow and sends them to Ana for review.")
    assert len(summary.split()) / len(chat.split()) > 0.35  # over the share a long source would allow
    assert score_summary_output(summary, chat).values["conciseness"] == 1.0
    assert score_summary_output(chat, chat).values["conciseness"] == 0.0
