"""Third review of 00–05: a small count, a position with few moves or a set of cards fished one
card a try, reached by trying, is told so; a move typed without its card count is told how to
write it; a base exercise names no base; a goal exercise never says «no tiene solución»."""

from __future__ import annotations

import pytest

from solitaire_nb.lessons.card_exercises import cartas_bajo_base
from solitaire_nb.lessons.exercises import es_correcta, olvidar_intentos, verdict_of_text


@pytest.fixture(autouse=True)
def _fresh():
    olvidar_intentos()
    yield
    olvidar_intentos()


def _right_number(name: str) -> int:
    return next(n for n in range(20) if verdict_of_text(name, str(n))[0])


@pytest.mark.parametrize("name", ["citadel-2", "moving_left-2", "estudio-1"])
def test_a_small_count_after_two_misses_is_reached_by_trying(name):
    right = _right_number(name)
    olvidar_intentos()
    assert right <= 5
    misses = [n for n in range(6) if n != right][:2]
    for n in misses:
        assert not verdict_of_text(name, str(n))[0]
    ok, message = verdict_of_text(name, str(right))
    assert ok and message.startswith("Ese es el número, pero has llegado a él probando.")


@pytest.mark.parametrize(("name", "tries"), [("estudio-4", ("5", "7")), ("estudio-2", ("4", "6"))])
def test_a_count_bisected_to_its_value_is_told_it_was_tried(name, tries):
    # A fresh reader halved 5, 7, 6 in 06's Ejercicio 1b and got «¡Correcto!».
    right = _right_number(name)
    olvidar_intentos()
    assert right <= 10 and all(str(right) != t for t in tries)
    for t in tries:
        assert not verdict_of_text(name, t)[0]
    ok, message = verdict_of_text(name, str(right))
    assert ok and "probando" in message and not message.startswith("¡Correcto!"), message


@pytest.mark.parametrize("name", ["citadel-2", "moving_left-2"])
def test_a_negative_count_is_refused_without_the_direction(name):
    ok, message = verdict_of_text(name, "-1")
    assert not ok and "negativa" in message and "más de" not in message
    first_real = verdict_of_text(name, "19")[1]
    assert "son menos de 19" in first_real  # the «más / menos» was not used up


def test_citadel_3_counts_refused_tries_and_tells_why():
    assert not verdict_of_text("citadel-3", "T1 T2")[0]  # the 9♥ on the J♦: refused
    assert not verdict_of_text("citadel-3", "T1 T8")[0]
    ok, message = verdict_of_text("citadel-3", "B1 T2, T1 T2")
    assert ok and message.startswith("Esos son los movimientos, pero has llegado a ellos probando.")
    assert "10 de picas" in message


def test_a_run_typed_without_its_count_is_told_to_write_it():
    ok, message = verdict_of_text("moving_left-3", "T1 T2, T3 T1")
    assert not ok and "escribe cuántas detrás del movimiento" in message
    ok, message = verdict_of_text("moving_left-3", "T1 T2, T3 T1 2")
    assert not ok and "escribe cuántas" not in message  # a count was written: the rule alone


def test_a_base_exercise_names_no_base():
    assert cartas_bajo_base("scotch", "JC") == ["TH", "TD"]
    for typed in ("10♠", "K♦", "Q♥"):
        message = verdict_of_text("scotch-1", typed)[1]
        assert "Base 1" not in message and "Base" not in message.replace("base", ""), message


def test_a_goal_exercise_lost_is_not_told_no_solution():
    ok, message = verdict_of_text("chequers-3", "T1 T3")
    assert not ok and message == "Con ese movimiento ya no se puede conseguir lo que se pide: deshazlo y prueba otro."


def test_atlas_4_reads_a_card_with_its_reason_and_a_card_found_by_trying_is_told_so():
    """Issue 44: «5♠, porque sube sola» is the card and its reason, not «"porque" no es una carta»;
    after two wrong cards the right one was reached by trying, as in the number exercises."""
    ok, message = verdict_of_text("atlas-4", "5♠, porque sube sola")
    assert ok and message.startswith("¡Correcto!"), message
    assert verdict_of_text("atlas-4", "carta: 5 de pica")[0]  # «carta:» is no card with a reason
    ok, message = verdict_of_text("atlas-4", "7♣ porque sube")
    assert not ok and "no sube sola" in message and "no es una carta" not in message
    olvidar_intentos()
    assert not verdict_of_text("atlas-4", "hola")[0]  # not a card: no try counted
    for wrong in ("7♣", "4♦"):
        assert not verdict_of_text("atlas-4", wrong)[0]
    ok, message = verdict_of_text("atlas-4", "5♠")
    assert ok and message.startswith("Esa es la carta, pero has llegado a ella probando.") and "juego automático" in message
    olvidar_intentos()
    assert verdict_of_text("atlas-4", "5♠")[1].startswith("¡Correcto!")


def test_an_empty_reason_is_refused_in_every_lab_exercise():
    """«porque sí» or «porque obvio» are no reasons, here or anywhere."""
    from solitaire_nb.lessons.reasoned import is_a_reason

    olvidar_intentos()
    for empty in ("más, porque sí", "más, porque obvio", "más, porque es obvio"):
        ok, message = verdict_of_text("lab-3", empty)
        assert not ok and "no es una razón" in message, message
    olvidar_intentos()
    assert not is_a_reason("bajan")  # a reason takes two words
    assert not is_a_reason("es lógico")


@pytest.mark.parametrize("reason", ["x", "c", "qwerty", "asdf", "zzzz", "jajaja", "x c", "ab"])
def test_lab_3_refuses_a_reason_without_a_real_word_and_cycling_the_words_does_not_pass(reason):
    """Issue 44: a reason needs a real word, not a letter or keys at random; trying the three
    words with such reasons is refused every time, each a counted try."""
    from solitaire_nb.lessons.reasoned import TOO_SHORT

    olvidar_intentos()
    try:
        for word in ("más", "menos", "las mismas"):
            ok, message = verdict_of_text("lab-3", f"{word}, porque {reason}")
            assert not ok and message.startswith(TOO_SHORT.format(word=word)), message
        assert "Llevas 3 intentos" in message
        for other, word in (("lab-1", "más"), ("lab-2", "como mucho"), ("lab-4", "menos")):
            assert not verdict_of_text(other, f"{word}, porque {reason}")[0]
    finally:
        olvidar_intentos()
    assert verdict_of_text("lab-3", "más, porque tapan cartas")[0]
    olvidar_intentos()


def test_a_real_word_is_told_from_keys_at_random():
    from solitaire_nb.lessons.reasoned import looks_like_a_word

    for word in ("bajan", "suben", "cambia", "construyen", "instrucciones", "reparto", "fondo"):
        assert looks_like_a_word(word), word
    for word in ("x", "es", "qwerty", "asdf", "asdasd", "jajaja", "zzzz", "hjkl", "sdfg"):
        assert not looks_like_a_word(word), word


def test_a_share_refined_from_the_measure_is_told_it_was_tried_but_a_fraction_is_the_count():
    # A fresh reader typed the simulation's «6,3 %» (shown under the box), got «Cerca», then «6,25 %».
    assert verdict_of_text("estudio-3", "6,3 %")[1].startswith("Cerca")
    ok, message = verdict_of_text("estudio-3", "6,25 %")
    assert ok and message.startswith("Ese es el número, pero has llegado a él probando."), message
    olvidar_intentos()
    verdict_of_text("estudio-3", "6,3 %")
    ok, message = verdict_of_text("estudio-3", "1/16")  # the count, palo a palo
    assert ok and message.startswith("¡Correcto!"), message


@pytest.mark.parametrize("reason", ["la tabla de arriba dice más", "lo dice la gráfica", "se ve arriba", "mi compi lo sabe",
                                    "me da la gana", "lo pone el corrector", "he quitado la marca y sale 5,79",
                                    "se me ocurrió", "lo pone en ver lo medido"])
def test_reasons_a_fresh_reader_passed_off_are_refused(reason):
    """A reader of 08 had these accepted as reasons: the screen, a classmate, a whim, the checker."""
    olvidar_intentos()
    try:
        ok, message = verdict_of_text("lab-3", f"más, porque {reason}")
        assert not ok and "razón" in message, message
    finally:
        olvidar_intentos()


def test_a_card_set_fished_one_card_a_try_is_told_so():
    # A fresh reader of 00–05: the number checkers notice a value walked to with «más / menos»,
    # the card sets never noticed cards tried one by one until «¡Correcto!».
    for card in ("5H", "QC", "2S"):  # a wrong card, a right one that is not all, a wrong one
        ok, message = verdict_of_text("chequers-1", card)
        assert not ok and ("no vale" in message or "no es la única" in message), message
    ok, message = verdict_of_text("chequers-1", "QC y AC")
    assert ok and message.startswith("Esas son las cartas, pero has llegado a ellas probando una a una."), message
    assert "regla" in message


def test_a_card_set_after_a_few_single_cards_or_corrected_lists_is_right():
    olvidar_intentos()
    for card in ("5H", "QC"):  # two cards tried: checking a thought, not fishing
        assert not verdict_of_text("chequers-1", card)[0]
    assert verdict_of_text("chequers-1", "QC, AC") == (True, "¡Correcto!")
    olvidar_intentos()
    for answer in ("QC, KC, 5H", "QC, KC", "QC, 2C, 3C", "QC, KH"):  # lists corrected: not counted
        assert not verdict_of_text("chequers-1", answer)[0]
    assert verdict_of_text("chequers-1", ["QC", "AC"]) == (True, "¡Correcto!")


def test_the_same_card_typed_again_is_one_try():
    for card in ("5H", "5H", "5H", "2S"):  # two different cards tried
        assert not verdict_of_text("chequers-1", card)[0]
    assert verdict_of_text("chequers-1", "QC y AC") == (True, "¡Correcto!")


def test_a_silent_check_does_not_count_as_a_try():
    for card in ("5H", "QC", "2S", "3D"):
        assert not es_correcta("chequers-1", card)  # the widgets' and tests' silent check
    assert verdict_of_text("chequers-1", "QC y AC") == (True, "¡Correcto!")


@pytest.mark.parametrize(("name", "tries"), [
    ("citadel-2", ("3", "1", "2 (el 2 y el 3)")),
    ("citadel-2", ("4", "3", "2 (el 2 y el 3 de tréboles)")),
    ("moving_left-2", ("5", "4", "3 (el 10♥, el 9♣ y el 8♥)")),
])
def test_a_right_count_with_its_cards_named_as_the_hint_asks_is_right(name, tries):
    """A fresh reader (issue 44) followed the hint after two misses, named the counted cards with
    the number and was told «probando»: the cards named are the reason, so it is «¡Correcto!»."""
    *misses, last = tries
    for n in misses:
        assert not verdict_of_text(name, n)[0]
    ok, message = verdict_of_text(name, last)
    assert ok and message.startswith("¡Correcto! ") and "probando" not in message, message
    olvidar_intentos()
    for n in misses:
        assert not verdict_of_text(name, n)[0]
    ok, message = verdict_of_text(name, last.split()[0])  # the bare number: still reached by trying
    assert ok and message.startswith("Ese es el número, pero has llegado a él probando."), message


def test_a_right_count_with_wrong_cards_named_is_still_refused_after_misses():
    for n in ("3", "1"):
        assert not verdict_of_text("citadel-2", n)[0]
    ok, message = verdict_of_text("citadel-2", "2 (el 2 y el 4)")
    assert not ok and "no son las que cuentan" in message, message


def test_one_right_card_of_several_is_told_so_without_how_many_are_missing():
    """A fresh reader (issue 44): «faltan 3 cartas» after one right card tells the answer's size."""
    for name, card in (("scotch-2", "9S"), ("bakers_dozen-2", "6S"), ("chequers-2", "7H")):
        ok, message = verdict_of_text(name, card)
        assert not ok and "no es la única" in message and "falta" not in message, message
    ok, message = verdict_of_text("citadel-1", ["KS", "QS"])  # several cards named: the counts
    assert not ok and message.startswith("Sobra 1 carta y faltan 3 cartas."), message


def test_a_count_in_words_with_its_cards_is_read_and_its_cards_checked():
    """A reader of 05: «dos (el 2♣ y el 3♣)» was asked for figures while «2 (…)» and «dos» were read."""
    olvidar_intentos()
    assert verdict_of_text("citadel-2", "dos (el 2♣ y el 3♣)")[1].startswith("¡Correcto!")
    olvidar_intentos()
    ok, message = verdict_of_text("citadel-2", "Dos: el 4 y el 5")
    assert not ok and "no son las que cuentan" in message
    olvidar_intentos()


def test_two_bare_pile_numbers_are_told_to_take_their_letters():
    """A reader of 05 typed «3 4» for «T3 T4» and read «hay más de un número de cartas»."""
    ok, message = verdict_of_text("citadel-4", "3 4")
    assert not ok and "escribe cada pila con su letra" in message and "«T4 B1»" in message
    olvidar_intentos()
