"""The interpreter of Crazier Eights abilities: a card's compiled steps, run frame by frame.

A card's abilities are programs of small steps (:mod:`eights.engines.crazier_cards`
compiles them from the card file). :class:`AbilityRules` runs them on the
table core: a ``run`` frame carries out an ability from a step on until a
step asks its controller something, whose decision frame (``target``,
``colour``, ``choose``, ``ask``) then goes on top and, once decided, pushes
the ``run`` of the next step. Every frame carries the ability's card, its
trigger, the step and what was chosen so far, so an ability still happens
after its card was destroyed (Chapter 7), and every frame is public.

The effects themselves (drawing with its substitutions, destroying,
restoring, trading, looking at and revealing the draw pile, losing) are
here too; the turn, the main phase and the end of the game are the
engine's (:mod:`eights.engines.crazier_eights`), which mixes this class in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..cards import NO_CARD
from .crazier_actions import ACTIONS, CHOOSE_ID, COLOUR_ID, NO, NUM_CARDS, TARGET_ID, YES
from .crazier_cards import PLAY
from .table import HAND, STOCK, ZONE, Frame

if TYPE_CHECKING:
    from .crazier_eights import CrazierState

#: the table's piles: the discard pile, and an event while it resolves
DISCARD_PILE, RESOLVING = 0, 1
#: the argument kinds of an ability frame: its card, trigger, step, chosen player, chosen
#: colour and a step's own state (a trade's stage, the card whose copy is being destroyed)
ABILITY_ARGS = ("card", "int", "int", "seat", "int", "int")
#: a trade's stages (the ``extra`` of its frames)
TRADE_WHO, TRADE_TAKE, TRADE_GIVE = 1, 2, 3
#: what an ability's decision asks (the view's ``asks``), by code
ASKS = ("nothing", "a player", "an opponent to trade with", "a colour", "a card to destroy",
        "whose copy to destroy", "an asset to restore", "a card to take", "a card to give",
        "a card for the bottom of the draw pile", "yes or no")
#: the kinds of the frames of ability decisions
ABILITY_DECISIONS = ("target", "colour", "choose", "ask")


def ability_ask(programs: Any, frame: Frame | None) -> tuple[int, int]:
    """``(card, code in ASKS)`` of an ability's decision frame; ``(-1, 0)`` for any other
    frame. The protocol's defaults read it too."""
    if frame is None or frame.kind not in ABILITY_DECISIONS:
        return -1, 0
    card, trigger, pc, _, _, extra = frame.args
    op = programs[card][trigger][pc][0]
    if frame.kind == "ask":
        return card, 10
    if frame.kind == "colour":
        return card, 3
    if frame.kind == "target":
        return card, 5 if op == "destroy" else 2 if op == "trade" else 1
    if op == "trade":
        return card, 7 if extra == TRADE_TAKE else 8
    return card, {"destroy": 4, "restore": 6}.get(op, 9)


class AbilityRules:
    """Running abilities and their decisions; mixed into the Crazier Eights engine, whose
    state, card rules, seats, draws and losses it uses."""

    state: CrazierState
    programs: Any
    is_asset: Any

    # ------------------------------------------------------------ abilities
    def run_resolve(self, frame: Frame) -> None:
        """Carry out an ability from its step ``pc`` until a step asks its controller (that
        decision's frame goes on top) or the ability is done."""
        s, seat = self.state, frame.seat
        card, trigger, pc, target, colour, _ = frame.args
        program = self.programs[card][trigger]
        if pc == 0 and trigger != PLAY and not s.out[seat]:
            self.log_event("trigger", seat, card, trigger)
        while pc < len(program) and not self.terminated and not s.out[seat]:
            op = program[pc]
            name = op[0]
            if name == "draw":
                for q in self._who(op[1], seat, target):
                    if not self._draw(q, op[2], cause=seat):
                        return
            elif name == "discard_extra":
                s.discards[seat] += op[1]
                self.log_event("extra", seat, card, op[1])
            elif name in ("choose_player", "trade"):
                self.push("target", seat, card, trigger, pc, target, colour,
                          TRADE_WHO if name == "trade" else 0)
                return
            elif name == "choose_colour":
                self.push("colour", seat, card, trigger, pc, target, colour, 0)
                return
            elif name in ("destroy", "restore"):  # a must-step with nothing to choose: no-op
                if self._can(op, seat):
                    self.push("choose", seat, card, trigger, pc, target, colour, 0)
                    return
            elif name == "look":
                if self._see(seat, op[1], "look") and op[2]:
                    self.push("choose", seat, card, trigger, pc, target, colour, 0)
                    return
            elif name == "reveal":
                self._see(seat, op[1], "reveal")
            elif name == "play_found":
                self._play_found(seat)
            elif name == "lose":
                who = seat if op[1] == "you" else target
                if who >= 0:
                    self._lose(who)
            elif name == "test":
                if op[1][0].startswith("found") and not s.stock:
                    pc = op[3]  # nothing was revealed: neither "if it is" nor "otherwise"
                    continue
                if not self._test(op[1], seat, target, colour):
                    pc = op[2]
                    continue
            elif name == "jump":
                pc = op[1]
                continue
            elif name == "ask":
                if self._can(program[pc + 1], seat):
                    self.push("ask", seat, card, trigger, pc, target, colour, 0)
                    return
                pc = op[1]
                continue
            pc += 1

    def _then(self, frame: Frame, pc: int | None = None, target: int | None = None,
              colour: int | None = None, extra: int = 0) -> None:
        """Go on with ``frame``'s ability after its decision: from step ``pc`` (the next one
        by default), with the player or colour chosen."""
        card, trigger, at, chosen, named, _ = frame.args
        self.push("run", frame.seat, card, trigger, at + 1 if pc is None else pc,
                  chosen if target is None else target, named if colour is None else colour,
                  extra)

    def _op(self, frame: Frame) -> tuple:
        card, trigger, pc = frame.args[:3]
        return self.programs[card][trigger][pc]

    def _who(self, who: str, seat: int, target: int) -> list[int]:
        s = self.state
        if who == "you":
            return [seat]
        if who == "chosen":
            return [target] if target >= 0 and not s.out[target] else []
        if who == "each_opponent":
            return self.opponents(seat)
        if who == "each_player":
            return self.in_order(seat)
        return self.allies(s.lead)  # turn_players

    def _test(self, test: tuple, seat: int, target: int, colour: int) -> bool:
        s, kind = self.state, test[0]
        if kind in ("hand_at_least", "hand_at_most"):
            who = seat if test[2] == "you" else target
            if who < 0:
                return False
            size = len(s.hands[who])
            return size >= test[1] if kind == "hand_at_least" else size <= test[1]
        if not s.stock:
            return False
        top = s.stock[-1]
        if kind == "found_type":
            return self.is_asset[top] == (test[1] == "asset")
        want = colour if test[1] == -2 else test[1]
        return want >= 0 and bool(self.colour_bits[top] >> want & 1)

    def _can(self, op: tuple, seat: int) -> bool:
        """Whether an optional step can happen at all (else its "you may" is not asked)."""
        if op[0] == "destroy":
            return self._destroyable(seat, op[1])
        if op[0] == "restore":
            return self._restorable()
        if op[0] == "look":
            return bool(self.state.stock) or len(self.state.piles[DISCARD_PILE]) > 1
        return True

    def _candidates(self, seat: int, among: str) -> list[int]:
        """The seats whose in-play cards ``seat`` may destroy (``among``: any, opponents,
        yours)."""
        if among == "yours":
            return [seat]
        if among == "opponents":
            return self.opponents(seat)
        return self.in_order(seat)

    def _destroyable(self, seat: int, among: str) -> bool:
        zones = self.state.zones
        return any(zones[q] for q in self._candidates(seat, among))

    def _restorable(self) -> bool:
        counts, asset = self.state.pile_counts[DISCARD_PILE], self.is_asset
        return any(counts[c] and asset[c] for c in range(NUM_CARDS))

    # ------------------------------------------------------------ ability decisions
    def ask_legal(self, frame: Frame) -> list[int]:
        return [YES, NO]

    def ask_apply(self, frame: Frame, a: int) -> None:
        if a == YES:
            self._then(frame)
        else:
            self._then(frame, pc=self._op(frame)[1])

    def colour_legal(self, frame: Frame) -> list[int]:
        return list(COLOUR_ID)

    def colour_apply(self, frame: Frame, a: int) -> None:
        colour = ACTIONS.value(a)
        self.log_event("colour", frame.seat, NO_CARD, colour)
        self._then(frame, colour=colour)

    def target_legal(self, frame: Frame) -> list[int]:
        seat, extra = frame.seat, frame.args[5]
        op = self._op(frame)
        if op[0] == "destroy":  # whose copy of the card chosen
            card = extra - 1
            seats = [q for q in self._candidates(seat, op[1]) if card in self.state.zones[q]]
        elif op[0] == "trade" or op[1] == "opponents":
            seats = self.opponents(seat)
        else:
            seats = self.in_order(seat)
        return sorted(TARGET_ID[q] for q in seats)

    def target_apply(self, frame: Frame, a: int) -> None:
        q = ACTIONS.value(a)
        op = self._op(frame)
        if op[0] == "destroy":
            self._destroy(frame.seat, q, frame.args[5] - 1)
            self._then(frame)
            return
        self.log_event("chosen", frame.seat, NO_CARD, q)
        if op[0] == "trade":
            card, trigger, pc, _, colour, _ = frame.args
            self.log_event("looks_at_hand", frame.seat, NO_CARD, q)
            for c in sorted(self.state.hands[q]):
                self.log_event("sees", frame.seat, c, q)
            stage = TRADE_TAKE if self.state.hands[q] else TRADE_GIVE
            self.push("choose", frame.seat, card, trigger, pc, q, colour, stage)
            return
        self._then(frame, target=q)

    def choose_legal(self, frame: Frame) -> list[int]:
        s, seat = self.state, frame.seat
        op, extra, target = self._op(frame), frame.args[5], frame.args[3]
        name = op[0]
        if name == "destroy":
            held = {c for q in self._candidates(seat, op[1]) for c in s.zones[q]}
        elif name == "restore":
            counts = s.pile_counts[DISCARD_PILE]
            held = {c for c in range(NUM_CARDS) if counts[c] and self.is_asset[c]}
        elif name == "trade":
            held = set(s.hands[target] if extra == TRADE_TAKE else self._held_before(seat))
        else:  # look: a card to put on the bottom, or none
            return sorted(CHOOSE_ID[c] for c in set(s.stock[-op[1]:])) + [NO]
        return sorted(CHOOSE_ID[c] for c in held)

    def choose_apply(self, frame: Frame, a: int) -> None:
        s, seat = self.state, frame.seat
        card, trigger, pc, target, colour, extra = frame.args
        op = self._op(frame)
        name = op[0]
        if a == NO:
            self._then(frame)
            return
        c = ACTIONS.value(a)
        if name == "destroy":
            holders = [q for q in self._candidates(seat, op[1]) if c in s.zones[q]]
            if len(holders) > 1:
                self.push("target", seat, card, trigger, pc, target, colour, c + 1)
                return
            self._destroy(seat, holders[0], c)
        elif name == "restore":
            self._restore(seat, c)
        elif name == "trade":
            if extra == TRADE_TAKE:
                self.move((HAND, target), (HAND, seat), c, "take", seat, target)
                self.log_event("taken", target, c, seat)
                if len(s.hands[seat]) > 1:  # it held a card before: it gives one of those
                    s.trade_taken = c
                    self.push("choose", seat, card, trigger, pc, target, colour, TRADE_GIVE)
                    return
            else:
                s.trade_taken = NO_CARD
                self.move((HAND, seat), (HAND, target), c, "give", seat, target)
                self.log_event("given", target, c, seat)
        else:  # look: put it on the bottom
            self._bottom(seat, c, op[1])
        self._then(frame)

    def _held_before(self, seat: int) -> list[int]:
        """The Trade's player's hand less the card it just took: "exchange a card from your
        hand" gives one it held before the Trade, never the card taken back (another copy
        of it, with more decks, is a card held before)."""
        hand = list(self.state.hands[seat])
        if self.state.trade_taken in hand:
            hand.remove(self.state.trade_taken)
        return hand

    # ------------------------------------------------------------ ability effects
    def _destroy(self, seat: int, q: int, c: int) -> None:
        self._to_bottom((ZONE, q), c)
        self.log_event("destroy", seat, c, q)

    def _restore(self, seat: int, c: int) -> None:
        """Take ``c`` from the discard pile (a copy below the top when there is one) into
        ``seat``'s zone; taking the top card makes the next one the top (clarification 8)."""
        s = self.state
        pile = s.piles[DISCARD_PILE]
        at = pile.index(c)
        was_top = at == len(pile) - 1
        del pile[at]
        s.pile_counts[DISCARD_PILE][c] -= 1
        s.zones[seat].append(c)
        if was_top:
            s.named = -1
            s.suits[DISCARD_PILE] = self.cardset.colour[pile[-1]] if pile else -1
        self.log_event("restore", seat, c, -1)

    def _top_up(self, count: int) -> None:
        """Clarification 4: fewer than ``count`` cards in the draw pile to look at or reveal:
        the discard pile but its top card is shuffled and put under it first."""
        if len(self.state.stock) < count and len(self.state.piles[DISCARD_PILE]) > 1:
            self._reshuffle()

    def _see(self, seat: int, count: int, event: str) -> bool:
        """``seat`` looks at (``event="look"``: only it learns them) or reveals (``"reveal"``:
        every player does) the top ``count`` cards; False when there is none."""
        s = self.state
        self._top_up(count)
        seen = s.stock[::-1][:count]
        for i, c in enumerate(seen):
            self.log_event(event, seat, c, i)
        for q in (seat,) if event == "look" else range(self.num_players):
            if len(seen) > len(s.known[q]):
                s.known[q] = list(seen)
        return bool(seen)

    def _bottom(self, seat: int, c: int, count: int) -> None:
        """Put ``c`` (one of the top ``count`` cards) on the bottom of the draw pile."""
        s = self.state
        stock = s.stock
        at = max(i for i in range(max(0, len(stock) - count), len(stock)) if stock[i] == c)
        depth = len(stock) - 1 - at
        del stock[at]
        stock.insert(0, c)
        for known in s.known:
            if len(known) > depth:
                del known[depth]
        self.log_event("bottom", seat, c, depth)

    def _play_found(self, seat: int) -> None:
        s = self.state
        if s.stock and self.is_asset[s.stock[-1]]:
            self.move((STOCK,), (ZONE, seat), NO_CARD, "put_in_play", seat)
            for known in s.known:
                if known:
                    del known[0]
