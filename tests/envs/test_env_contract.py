"""The env's side of the PettingZoo contract where games and inputs are unusual.

Games that end in the deal, actions that are not action ids, and what
``render()`` shows (one seat's view by default, the referee's by name).
"""

from __future__ import annotations

import re
import warnings
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest
from pettingzoo.test import seed_test

from eights import ConfigError, IllegalActionError
from eights.envs import make_env
from tests.conftest import available_variants

VARIANTS = available_variants()

#: configs whose games often end before anybody acts (the deal or the starter decides them)
DEAL_ENDS = [
    ("livery_eights", {"hand_size": 1}),
    ("livery_eights", {"hand_size": 1, "num_players": 4}),
    ("baby_eating_eights", {"hand_size": 2}),
    ("baby_eating_eights", {"hand_size": 1, "num_players": 3}),
]
DEAL_IDS = [f"{v}-{'-'.join(f'{k}{x}' for k, x in c.items())}" for v, c in DEAL_ENDS]


def random_legal(obs: dict, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(obs["action_mask"])))


def play_out(env, rng: np.random.Generator) -> dict[str, list[float]]:
    """The api_test loop: every agent_iter agent observes, then steps (None once done).

    Returns, per agent, the rewards ``last()`` gave it once it was done.
    """
    finals: dict[str, list[float]] = {}
    for agent in env.agent_iter(max_iter=100_000):
        obs, reward, terminated, truncated, info = env.last()
        assert obs["observation"].shape == env.observation_space(agent)["observation"].shape
        if terminated or truncated:
            assert not obs["action_mask"].any()
            assert "winners" in info and "scores" in info
            finals.setdefault(agent, []).append(reward)
            env.step(None)
        else:
            env.step(random_legal(obs, rng))
    assert env.agents == []
    return finals


@pytest.mark.parametrize("case", DEAL_ENDS, ids=DEAL_IDS)
def test_games_that_end_in_the_deal_end_cleanly(case: tuple[str, dict]) -> None:
    variant, config = case
    env = make_env(variant, **config)
    rng = np.random.default_rng(0)
    in_deal = played = 0
    for seed in range(300):
        env.reset(seed=seed)
        engine = env.unwrapped.engine
        returns = dict(zip(env.possible_agents, engine.returns(), strict=True))
        if engine.game_over:
            in_deal += 1
            assert env.agent_selection == env.possible_agents[0]
            assert env.terminations == dict.fromkeys(env.possible_agents, engine.terminated)
            assert env.truncations == dict.fromkeys(env.possible_agents, engine.truncated)
            assert env.rewards == returns
            assert env._cumulative_rewards == returns
            assert sorted(set(returns.values())) in ([-1.0, 1.0], [1.0])
        else:
            played += 1
        finals = play_out(env, rng)
        # every agent is yielded exactly once when done, with the engine's return
        assert finals == {a: [r] for a, r in
                          zip(env.possible_agents, engine.returns(), strict=True)}
        if engine.turn == 0 or not engine.record().actions:  # ended in the deal
            assert finals == {a: [r] for a, r in returns.items()}
    assert in_deal >= 15, f"only {in_deal} of 300 games ended in the deal"
    assert played >= 15


@pytest.mark.parametrize("case", DEAL_ENDS[:1] + DEAL_ENDS[2:3], ids=DEAL_IDS[:1] + DEAL_IDS[2:3])
def test_games_that_end_in_the_deal_pass_the_seed_test(case: tuple[str, dict]) -> None:
    # (PettingZoo's api_test asserts that no agent is done right after reset, which a game
    # decided by its deal cannot keep; test_games_that_end_in_the_deal_end_cleanly runs
    # its loop instead.)
    variant, config = case
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_test(lambda: make_env(variant, **config), num_cycles=50)


def test_a_game_truncated_in_the_deal_truncates_every_agent() -> None:
    env = make_env("livery_eights", hand_size=1, max_turns=1)
    truncated = 0
    for seed in range(100):
        env.reset(seed=seed)
        engine = env.unwrapped.engine
        if not engine.truncated:
            continue
        truncated += 1
        assert env.truncations == dict.fromkeys(env.possible_agents, True)
        assert env.terminations == dict.fromkeys(env.possible_agents, False)
        assert env.rewards == dict.fromkeys(env.possible_agents, 0.0)
        seen = []
        for agent in env.agent_iter():
            _, reward, terminated, trunc, _ = env.last()
            assert trunc and not terminated and reward == 0.0
            seen.append(agent)
            env.step(None)
        assert seen == env.possible_agents
    assert truncated > 0


def test_stepping_after_every_agent_left_says_to_reset() -> None:
    env = make_env("livery_eights", hand_size=1)
    for seed in range(100):
        env.reset(seed=seed)
        if env.unwrapped.engine.game_over:
            break
    assert env.unwrapped.engine.game_over
    for _ in env.agent_iter():
        env.step(None)
    with pytest.raises(RuntimeError, match=r"call env\.reset"):
        env.step(None)
    env.reset(seed=seed)
    with pytest.raises(ValueError, match="only valid action is None"):
        env.step(0)  # a dead agent takes None only (PettingZoo's rule)


# ------------------------------------------------------------------ action types

def not_action_ids(action: int) -> list:
    return [float(action), np.float32(action), np.float64(action), Decimal(action),
            Fraction(action), np.bool_(True), np.bool_(False), True, False, None,
            str(action), [action], (action,), np.array(action), np.array([action]),
            complex(action)]


@pytest.mark.parametrize("illegal_action", ["raise", "terminate"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_only_integers_are_actions(variant: str, illegal_action: str) -> None:
    env = make_env(variant, num_players=3, illegal_action=illegal_action)
    env.reset(seed=3)
    engine = env.unwrapped.engine
    obs, *_ = env.last()
    legal = np.flatnonzero(obs["action_mask"])
    for action in not_action_ids(int(legal[0])) + ["draw", engine.action_text(int(legal[0]))]:
        before = (engine.render(), env.agent_selection, engine.turn)
        with pytest.raises(TypeError, match=re.escape(f"({type(action).__name__}) is not an "
                                                      f"action id")) as err:
            env.step(action)
        assert "a Python int or a numpy integer (not a bool)" in str(err.value)
        assert f"from 0 to {env.action_space('player_0').n - 1}" in str(err.value)
        assert (engine.render(), env.agent_selection, engine.turn) == before
        assert not any(env.terminations.values())
    with pytest.raises(TypeError, match="None is only for an agent that is terminated"):
        env.step(None)
    # Python ints and every numpy integer type are actions
    for kind in (int, np.int64, np.int32, np.int8, np.uint8, np.intp):
        env.reset(seed=3)
        obs, *_ = env.last()
        legal_id = random_legal(obs, np.random.default_rng(0))
        if kind is not int and legal_id > np.iinfo(kind).max:
            continue  # (a large action space: the id does not fit this type)
        action = kind(legal_id)
        assert engine.record().actions == ()
        env.step(action)
        assert engine.record().actions[:1] == (engine.action_text(int(action)),)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_engine_refuses_numbers_that_are_not_ids(variant: str) -> None:
    env = make_env(variant, num_players=2)
    env.reset(seed=1)
    engine = env.unwrapped.engine
    action = engine.legal_actions()[0]
    for bad in (float(action), np.float32(action), Decimal(action), Fraction(action),
                np.bool_(True), True):
        with pytest.raises(IllegalActionError, match=rf"not a {type(bad).__name__}\b"):
            engine.step(bad)
    assert engine.record().actions == ()
    engine.step(np.int16(action))
    assert engine.record().actions == (engine.action_text(action),)


# ------------------------------------------------------------------ render

class CARD:
    """Card texts in a rendered table, in the engine's own notation."""

    @staticmethod
    def findall_in(engine, text: str) -> list[str]:
        texts = "|".join(sorted(map(re.escape, engine.cardset.texts), key=len, reverse=True))
        return re.findall(rf"(?<![\w-])(?:{texts})(?!\w)", text)


def shown_hands(engine, seat: int) -> tuple[int, ...]:
    """The seats whose hands ``seat`` sees: its own, and those its view shows."""
    return engine.hands_seen_by(seat)


def allowed_cards(engine, seat: int) -> set[str]:
    """Cards ``seat`` may see on the table: its (and shown allies') hands, the piles' top
    cards, the cards in play, a Guarantee Joker, and the cards its history showed it."""
    text = engine.cardset.text
    allowed = {text(c) for p in shown_hands(engine, seat) for c in engine.state.hands[p]}
    allowed |= {text(pile[-1]) for pile in engine.state.piles if pile}
    allowed |= {text(c) for zone in engine.state.zones for c in zone}
    view = engine.view(seat)  # what its view shows (a hand looked at, cards seen on the stock)
    for name, kind in view.field_kinds.items():
        value = getattr(view, name)
        if kind in ("cards", "seen_cards"):
            allowed |= {text(c) for c in value}
        elif kind == "seat_cards":
            allowed |= {text(c) for cards in value for c in cards}
        elif kind == "card_counts":  # (a face-up pile's every card)
            allowed |= {text(c) for c, k in enumerate(value) if k}
    # cards the seat saw go by (a destroyed asset whose ability is still to be ordered)
    allowed |= {text(e.card) for e in view.history() if e.card >= 0}
    guarantee = getattr(engine, "guarantee", None)
    if guarantee is not None and guarantee >= 0:
        allowed.add(text(guarantee))
    return allowed


def hidden_from(engine, seat: int) -> set[str]:
    """Cards in the other hands that ``seat`` may not see (none it holds a copy of)."""
    shown = shown_hands(engine, seat)
    others = {engine.cardset.text(c) for p, hand in enumerate(engine.state.hands)
              if p not in shown for c in hand}
    return others - allowed_cards(engine, seat)


RENDER_CASES = [("crazy_eights", {"num_players": 2}), ("crazy_eights", {"num_players": 4}),
                ("livery_eights", {"num_players": 3}),
                ("baby_eating_eights", {"num_players": 4}),
                ("baby_eating_eights", {"num_players": 4, "teams": 2}),
                ("jokers_of_death", {"num_players": 3}),
                ("jokers_of_death", {"num_players": 4, "five_pile": True}),
                ("crazier_eights", {"num_players": 3}),
                ("crazier_eights", {"num_players": 4, "teams": 2})]


@pytest.mark.parametrize("case", RENDER_CASES, ids=lambda c: f"{c[0]}-{c[1]}")
def test_default_render_shows_only_the_acting_seat(case: tuple[str, dict]) -> None:
    variant, config = case
    if variant not in VARIANTS:
        pytest.skip(f"{variant} is not available")
    env = make_env(variant, render_mode="ansi", **config)
    referee = make_env(variant, render_mode="ansi", render_seat="referee", **config)
    rng = np.random.default_rng(1)
    checked = revealed = 0
    for seed in range(5):
        env.reset(seed=seed)
        referee.reset(seed=seed)
        engine = env.unwrapped.engine
        for agent in env.agent_iter(max_iter=400):
            seat = env.possible_agents.index(agent)
            text = env.render()
            shown = set(CARD.findall_in(engine, text))
            assert shown <= allowed_cards(engine, seat), (
                f"seat {seat} sees {sorted(shown - allowed_cards(engine, seat))}\n{text}")
            for p, hand in enumerate(engine.state.hands):
                if p not in shown_hands(engine, seat):
                    assert re.search(rf"^. player {p}: {len(hand)} cards?", text, re.M), text
            checked += 1
            # the referee's table (the same game) shows what the acting seat's may not
            everything = referee.render()
            assert everything == engine.render()
            revealed += bool(hidden_from(engine, seat))
            assert hidden_from(engine, seat) <= set(CARD.findall_in(engine, everything))
            obs, _, terminated, truncated, _ = env.last()
            action = None if terminated or truncated else random_legal(obs, rng)
            env.step(action)
            referee.step(action)
    assert checked > 100 and revealed > 50


@pytest.mark.parametrize("variant", VARIANTS)
def test_render_seat_fixes_the_seat(variant: str) -> None:
    for render_seat in (1, np.int64(1), "player_1"):
        env = make_env(variant, num_players=3, render_mode="ansi", render_seat=render_seat)
        assert env.render_seat == render_seat
        env.reset(seed=2)
        engine = env.unwrapped.engine
        rng = np.random.default_rng(0)
        for _ in env.agent_iter(max_iter=30):
            text = env.render()
            assert text == engine.render(1)
            assert set(CARD.findall_in(engine, text)) <= allowed_cards(engine, 1)
            obs, _, terminated, truncated, _ = env.last()
            env.step(None if terminated or truncated else random_legal(obs, rng))
    env = make_env(variant, num_players=3, render_mode="ansi", render_seat="referee")
    env.reset(seed=2)
    assert env.render() == env.unwrapped.engine.render()
    engine = env.unwrapped.engine
    for p, hand in enumerate(engine.state.hands):
        shown = " ".join(map(engine.cardset.text, sorted(hand)))
        assert f"player {p}: {shown}" in env.render()


def test_human_render_prints_the_acting_seats_view(capsys: pytest.CaptureFixture) -> None:
    env = make_env("crazy_eights", num_players=2, render_mode="human")
    env.reset(seed=4)
    obs, *_ = env.last()
    env.step(random_legal(obs, np.random.default_rng(0)))
    seat = env.possible_agents.index(env.agent_selection)
    printed = capsys.readouterr().out
    engine = env.unwrapped.engine
    assert printed == engine.render(seat) + "\n\n"
    assert not hidden_from(engine, seat) & set(CARD.findall_in(engine, printed))


@pytest.mark.parametrize("bad", [3, -1, True, 1.0, "judge", "Referee", "player_3", "", [0]])
def test_bad_render_seats_are_refused(bad: object) -> None:
    with pytest.raises(ConfigError, match=re.escape(f"render_seat={bad!r} is not allowed")) \
            as err:
        make_env("crazy_eights", num_players=3, render_seat=bad)
    message = str(err.value)
    assert "a seat from 0 to 2" in message and "player_0 .. player_2" in message
    assert "'referee'" in message and "None (the agent to act)" in message


def _trace(env, actions: list[int]) -> list[tuple]:
    """Step ``env`` with ``actions`` (None for agents that are done): every step's
    observation, mask, reward and done flags."""
    seen = []
    for action in actions:
        obs, reward, terminated, truncated, _info = env.last()
        seen.append((obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward,
                     terminated, truncated))
        env.step(None if terminated or truncated else action)
    return seen


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("how", ["deepcopy", "pickle"])
def test_a_copied_env_plays_on_alone_and_the_same(variant: str, how: str) -> None:
    """copy.deepcopy and pickle give an env at the same position, whose steps do not touch
    the original's (frameworks copy envs to run them elsewhere); its masks are live, not
    a copy of the original's mask buffer."""
    import copy
    import pickle

    env = make_env(variant, num_players=3)
    rng = np.random.default_rng(4)
    for seed in range(4, 40):  # a game still running after 15 steps
        env.reset(seed=seed)
        for _ in range(15):
            if not env.agents:
                break
            obs, _r, terminated, truncated, _i = env.last()
            env.step(None if terminated or truncated else random_legal(obs, rng))
        if not env.unwrapped.engine.game_over:
            break
    twin = copy.deepcopy(env) if how == "deepcopy" else pickle.loads(pickle.dumps(env))
    # the actions a random player takes from here, read off the original's own play
    probe = copy.deepcopy(env)
    actions = []
    for _ in range(40):
        if not probe.agents:
            break
        obs, _r, terminated, truncated, _i = probe.last()
        actions.append(0 if terminated or truncated else random_legal(obs, rng))
        probe.step(None if terminated or truncated else actions[-1])
    original_obs = env.last()[0]["observation"].copy()
    twin_trace = _trace(twin, actions)
    assert (env.last()[0]["observation"] == original_obs).all()  # the twin's steps left it
    assert any(np.frombuffer(mask, np.int8).any() for _o, mask, *_ in twin_trace)
    assert _trace(env, actions) == twin_trace
