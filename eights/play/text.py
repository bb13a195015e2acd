"""Plain-text sentences about a seat's view, for people and screen readers.

Everything here reads the seat's :class:`~eights.engines.base.PlayerView`
and the engine's own text notation, so it can say nothing the seat may not
know. Fields that only some variants have (a top card, a suit to follow, a
stock) are read when the view has them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ..actions import SUIT_VERBS
from ..cards import CardError, cards_count
from ..engines import engine_class
from ..engines.base import Event, PlayerView
from ..engines.cardset import STANDARD, CardSet

#: what ``pass`` means in the phases where it declines something rather than ends a turn
PASS_BY_PHASE = {"last card": "don't call last card", "challenge": "don't challenge",
                 "knock": "don't knock"}
#: what ``draw`` means where it is more than drawing one card
DRAW_BY_PHASE = {"answer": "take the penalty cards",
                 "follow": "draw until a card that fits comes, and play it"}
#: actions that are one word, in words
WORDS = {"draw": "draw a card", "last card": "call last card", "knock": "knock (one card left)",
         "stop": "stop the hand (two Jokers)", "reverse": "reverse the direction",
         "keep": "keep the direction", "end": "end your main phase", "yes": "yes, do it",
         "no": "no"}
#: what a verb followed by a card does, for the verbs other than play
CARD_PHRASES = {"bottom": "put {card} at the bottom of the pile", "discard": "discard {card}",
                "choose": "choose {card}", "order": "let {card} take effect first"}


def cards_of(view: PlayerView) -> CardSet:
    """The card set of the view's game (its names: a card file's own in Crazier Eights)."""
    try:
        return engine_class(view.variant).cardset_for(view.config)
    except (KeyError, ValueError):
        return view.cardset


def action_phrase(text: str, phase: str | None = None, cards: CardSet = STANDARD) -> str:
    """``"play 8S"`` -> ``"play the eight of spades"``; ``"suit H"`` -> ``"name hearts"``;
    ``"bottom AD"`` -> ``"put the ace of diamonds at the bottom of the pile"``;
    ``"target 2"`` -> ``"choose player 2"``; ``"pass"`` in the view's ``phase`` ``"last
    card"`` -> ``"don't call last card"`` (a pass there declines the call)."""
    if text == "pass" and phase in PASS_BY_PHASE:
        return PASS_BY_PHASE[phase]
    if text == "draw" and phase in DRAW_BY_PHASE:
        return DRAW_BY_PHASE[phase]
    verb, _, rest = text.partition(" ")
    if verb in CARD_PHRASES and rest:
        try:
            return CARD_PHRASES[verb].format(card=cards.spoken(cards.parse(rest)))
        except CardError:
            return text
    if verb == "target" and rest.isdigit():
        return f"choose player {rest}"
    if verb == "play" and rest:
        first, _, more = rest.partition(" ")
        try:
            phrase = f"play {cards.spoken(cards.parse(first))}"
        except CardError:
            return text
        if more.startswith("pile "):  # play 4S pile 2: on pile 2
            more = "on " + more
        return f"{phrase} {more}".strip()
    if verb in SUIT_VERBS and rest:
        try:
            return f"name {cards.colour_names[cards.parse_colour(rest)]}"
        except CardError:
            return text
    return WORDS.get(text, text)


def hand_sentence(view: PlayerView) -> str:
    if not view.hand:
        return "Your hand is empty."
    cards = cards_of(view)
    if cards.proper_names:  # cards with abilities of their own: say what each does
        names = "; ".join(ability_phrase(cards, c) for c in view.hand)
    else:
        names = ", ".join(cards.card_name(c) for c in sorted(view.hand, key=_hand_order))
    return f"Your hand, {cards_count(len(view.hand))}: {names.rstrip('.')}."


def ability_phrase(cards: CardSet, card: int) -> str:
    """"Death (5P, purple event): Destroy a card ..." for a card with a text of its own."""
    kind = cards.kinds[card]
    colours = "/".join(cards.colour_names[c] for c in kind.colours)
    what = kind.data.get("type", "card")
    text = kind.data.get("text", "")
    return f"{kind.name} ({kind.text}, {colours} {what})" + (f": {text}" if text else "")



def _hand_order(card: int) -> tuple[int, int]:
    return (card // 13, card % 13)


def piles_sentence(view: PlayerView) -> str:
    """Each pile of a several-pile variant: its top card, the suit an 8 named, a penalty
    to answer, or that a Joker killed it."""
    parts = []
    for k, top in enumerate(view.pile_tops):
        if view.killed[k]:
            parts.append(f"pile {k + 1} is killed")
            continue
        if top < 0:
            parts.append(f"pile {k + 1} is an empty space (any card)")
            continue
        part = f"pile {k + 1}: {view.cardset.spoken(top)}"
        suit = view.pile_suits[k]
        if 0 <= suit < 4 and top // 13 != suit:
            part += f", suit {view.cardset.colour_names[suit]}"
        if view.pile_pending[k]:
            part += f", {view.pile_pending[k]} cards to take unless answered"
        parts.append(part)
    return "Piles. " + "; ".join(parts) + "."


def top_card_sentence(view: PlayerView) -> str:
    if hasattr(view, "pile_tops"):
        return piles_sentence(view)
    top = getattr(view, "top", None)
    if top is None or top < 0:
        return "There is no top card."
    cards = cards_of(view)
    sentence = f"The top card is {cards.spoken(top)}"
    suit = getattr(view, "active_suit", getattr(view, "named", -1))
    if 0 <= suit < len(cards.colour_names) and cards.colour[top] != suit:
        sentence += f"; the suit to follow is {cards.colour_names[suit]}"
    pending = getattr(view, "pending_draw", 0)
    if pending:
        waiting = "1 card is" if pending == 1 else f"{pending} cards are"
        sentence += f"; {waiting} waiting to be picked up"
    return sentence + "."


def table_sentence(view: PlayerView, name: Callable[[int], str]) -> str:
    """The cards in play in front of each seat, and an ability waiting on a decision (for a
    variant whose view has them); empty otherwise."""
    zones = getattr(view, "in_play", None)
    if zones is None:
        return ""
    cards = cards_of(view)
    parts = [f"{name(p)}: " + (", ".join(cards.spoken(c) for c in zone) or "nothing")
             for p, zone in enumerate(zones)]
    sentence = "In play. " + "; ".join(parts) + "."
    asking = getattr(view, "ability", -1)  # the card whose ability asks the decision at hand
    if asking >= 0:
        sentence += f" Taking effect: {ability_phrase(cards, asking)}"
        sentence += "" if sentence.endswith(".") else "."
    return sentence


def counts_sentence(view: PlayerView, name: Callable[[int], str]) -> str:
    parts = [f"{name(p)}: {cards_count(n)}" for p, n in enumerate(view.hand_sizes)]
    stock = getattr(view, "stock_size", None)
    if stock is not None:
        parts.append(f"stock: {stock}")
    return "Card counts. " + "; ".join(parts) + "."


def scores_sentence(view: PlayerView, name: Callable[[int], str]) -> str:
    return "Scores. " + "; ".join(f"{name(p)}: {s}" for p, s in enumerate(view.scores)) + "."


#: events that count the cards their player has just drawn (a King's victim is ``skip`` with
#: ``arg`` cards): read with those draws as one sentence, not as each draw and then again
DRAW_SUMMARIES = {"skip": "is skipped"}


def draws_sentence(draws: Sequence[Event], name: Callable[[int], str],
                   cards: CardSet = STANDARD) -> str:
    """One sentence for one player's draws in a row: ``"Player 1 draws 2 cards."``, or the
    cards where the seat saw them (its own): ``"Player 0 draws the six of diamonds and the
    ten of clubs."``."""
    who = name(draws[0].player)
    if all(e.card < 0 for e in draws):
        return f"{who} draws {cards_count(len(draws))}."
    spoken = [cards.spoken(e.card) if e.card >= 0 else "a card" for e in draws]
    return f"{who} draws {', '.join(spoken[:-1])}{' and ' if len(spoken) > 1 else ''}" \
           f"{spoken[-1]}."


def forced_sentence(move: str, phase: str | None = None, cards: CardSet = STANDARD) -> str:
    """What the person hears before the events of a move the engine made for them, as their
    only legal one: ``"Your only move, pass, is played for you."``."""
    return f"Your only move, {action_phrase(move, phase, cards)}, is played for you."


def narration(events: Sequence[Event], describe: Callable[[Event], str],
              name: Callable[[int], str], cards: CardSet = STANDARD,
              low_score_wins: bool = False, totals: str | None = None,
              notes: Mapping[int, Sequence[str]] | None = None) -> list[str]:
    """The sentences for new events, in order, as the person hears them.

    ``describe`` is the engine's sentence for one event. A player's draws in a row
    are one sentence, and with an event that counts them (:data:`DRAW_SUMMARIES`)
    one sentence in all, so a King's two cards are not read three times. Where the
    lower score wins, a score says so; ``totals`` (the match totals) follows a
    hand's scores, before the next hand is dealt. ``notes`` are sentences to say
    just before the event at an index (``len(events)``: after the last), such as
    :func:`forced_sentence`; draws are not read as one across a note.
    """
    notes = notes or {}
    sentences: list[str] = []
    i = 0
    while i < len(events):
        sentences += notes.get(i, ())
        event = events[i]
        j = i
        while (j < len(events) and events[j].kind == "draw" and events[j].player == event.player
               and (j == i or j not in notes)):
            j += 1
        if j == i:  # not a draw
            sentence = describe(event)
            if event.kind == "score" and low_score_wins:
                sentence = sentence.removesuffix(".") + " (lower is better)."
            sentences.append(sentence)
            i += 1
            last_score = event.kind == "score" and (i == len(events) or events[i].kind != "score")
            if last_score and totals is not None:
                sentences.append(totals)
            continue
        sentence = draws_sentence(events[i:j], name, cards) if j - i > 1 else describe(event)
        after = events[j] if j < len(events) and j not in notes else None
        if (after is not None and after.kind in DRAW_SUMMARIES
                and after.player == event.player and after.arg == j - i):
            sentence = f"{sentence.removesuffix('.')} and {DRAW_SUMMARIES[after.kind]}."
            j += 1
        sentences.append(sentence)
        i = j
    return sentences + list(notes.get(len(events), ()))


def totals_sentence(view: PlayerView, name: Callable[[int], str],
                    low_score_wins: bool = False) -> str:
    """The match totals after a hand, and which way they count."""
    better = "lower is better" if low_score_wins else "higher is better"
    return ("Match totals: " + "; ".join(f"{name(p)}: {s}" for p, s in enumerate(view.scores))
            + f" ({better}).")


def moves_sentence(moves: Sequence[str], phase: str | None = None,
                   cards: CardSet = STANDARD) -> str:
    return "Your moves: " + "; ".join(f"{i} {action_phrase(m, phase, cards)}"
                                      for i, m in enumerate(moves, 1)) + "."
