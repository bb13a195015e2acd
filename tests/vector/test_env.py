"""VectorEnv: the same episodes on either backend, replayable seeds, and its refusals."""

from __future__ import annotations

import numpy as np
import pytest

import eights.vector
from eights.agents import make_agent
from eights.config import ConfigError
from eights.engines import engine_class
from eights.engines.base import IllegalActionError
from eights.variants import REGISTRY

STEPS = 100


def _play(env, steps: int, seed: int):
    """Random legal learner actions for ``steps`` steps: the actions, and each step's
    (obs, rewards, terminated, truncated, infos), copied."""
    rng = np.random.default_rng(seed)
    obs, infos = env.reset()
    out = [(obs.copy(), infos)]
    actions = []
    for _ in range(steps):
        keys = rng.random(env.masks.shape) * env.masks
        action = np.argmax(keys, axis=1)
        assert env.masks[np.arange(env.num_envs), action].all()
        actions.append(action)
        _, rewards, terminated, truncated, infos = env.step(action)
        out.append((obs.copy(), rewards, terminated, truncated, infos))
    return actions, out


def _assert_same(a, b):
    if isinstance(a, dict):
        assert a.keys() == b.keys()
        for key in a:
            _assert_same(a[key], b[key])
    elif isinstance(a, tuple | list):
        assert len(a) == len(b)
        for x, y in zip(a, b, strict=True):
            _assert_same(x, y)
    else:
        assert np.asarray(a).dtype == np.asarray(b).dtype
        assert np.array_equal(a, b)


@pytest.mark.parametrize("opponents", ["heuristic", "random", "mixed"])
#: (each table size the cores have not met compiles them once, about 20 CPU s: these reuse
#: the sizes of test_crazy_eights.py)
#: (one-card hands: an opponent can go out before the learner acts, and the table is dealt
#: again; a turn limit of 1: some deals end in their forced moves)
@pytest.mark.parametrize("options", [{}, {"num_players": 3},
                                     {"num_players": 5, "num_decks": 1, "hand_size": 3},
                                     {"hand_size": 1}, {"hand_size": 1, "max_turns": 1}])
def test_compiled_and_python_backends_give_the_same_steps(opponents, options):
    num_players = options.get("num_players", 2)
    if opponents == "mixed":  # one spec per seat, in turn (two heuristics at five seats)
        opponents = [("random", "heuristic", "heuristic#b")[k % 3]
                     for k in range(num_players - 1)]
    runs = []
    for backend in ("compiled", "python"):
        env = eights.vector.make("crazy_eights", 6, opponents, backend=backend, seed=5,
                                 **options)
        runs.append(_play(env, STEPS, seed=1))
        assert env.episodes > 0
    _assert_same(runs[0], runs[1])
    ended = sum(int(step[2].sum() + step[3].sum()) for step in runs[0][1][1:])
    assert ended > 0 and any("final_obs" in step[4] for step in runs[0][1][1:])


@pytest.mark.parametrize("backend", ["compiled", "python"])
def test_an_ended_games_seed_replays_it_in_the_engine(backend):
    """``infos["game_seed"]`` of the step before a game ended, dealt in a fresh engine with
    the learner's actions and the heuristic at the other seats, ends the same: the same
    reward, the learner's final observation, the flags."""
    options = {"num_players": 3}
    env = eights.vector.make("crazy_eights", 4, "heuristic", backend=backend, seed=9,
                             **options)
    engine_type = engine_class("crazy_eights")
    config = engine_type.Config.from_options(**options)
    encoder = engine_type.encoder(config, None)
    heuristic = make_agent("heuristic", variant="crazy_eights")
    _, infos = env.reset()
    seeds, seats = infos["game_seed"].copy(), env.learner.copy()
    dealt = [[int(s)] for s in seeds]  # each table's games' seeds, in order
    moves: list[list[int]] = [[] for _ in range(env.num_envs)]
    rng = np.random.default_rng(3)
    replayed = 0
    for _ in range(STEPS):
        action = np.array([rng.choice(np.flatnonzero(m)) for m in env.masks])
        for i, a in enumerate(action):
            moves[i].append(int(a))
        _, rewards, terminated, truncated, infos = env.step(action)
        for i in np.flatnonzero(terminated | truncated):
            engine = engine_type(config, seed=0)
            engine.reset(seed=int(seeds[i]))
            learner_moves = iter(moves[i])
            while not engine.game_over:
                seat = engine.current_player
                if seat == seats[i]:
                    engine.step(next(learner_moves))
                else:
                    engine.step(heuristic.act(engine.view(seat)))
            assert next(learner_moves, None) is None  # every learner action was used
            assert engine.returns()[seats[i]] == rewards[i]
            assert (engine.terminated, engine.truncated) == (terminated[i], truncated[i])
            assert infos["_final_obs"][i]
            assert np.array_equal(infos["final_obs"][i],
                                  encoder.encode(engine, int(seats[i])))
            assert env.learner[i] == (seats[i] + 1) % env.num_players  # the seat rotates
            moves[i] = []
            replayed += 1
            dealt[i].append(int(infos["game_seed"][i]))
        assert not infos.get("_final_obs", np.zeros(env.num_envs, bool))[
            ~(terminated | truncated)].any()
        seeds, seats = infos["game_seed"].copy(), env.learner.copy()
    assert replayed >= 3
    # game k of table i is eights.vector.game_seeds' k-th (no deal here ends before a decision)
    for i, seen in enumerate(dealt):
        assert seen == eights.vector.game_seeds(9, i, len(seen), env.num_envs)


def test_the_learner_seat_starts_at_table_i_mod_n_and_rotates_each_game():
    env = eights.vector.make("crazy_eights", 8, "heuristic", seed=1, num_players=3)
    env.reset()
    assert env.learner.tolist() == [i % 3 for i in range(8)]
    games = np.zeros(8, np.int64)
    rng = np.random.default_rng(0)
    for _ in range(300):
        action = np.array([rng.choice(np.flatnonzero(m)) for m in env.masks])
        _, _, terminated, truncated, _ = env.step(action)
        games += terminated | truncated
        assert env.learner.tolist() == [(i + g) % 3 for i, g in enumerate(games)]
        assert (env.tables.current == env.learner).all()  # every table at its learner
        assert env.masks.any(axis=1).all()
    assert (games >= 2).all()


def test_step_before_reset_raises():
    env = eights.vector.make("crazy_eights", 2, "heuristic", seed=0)
    with pytest.raises(RuntimeError, match=r"reset\(\) before step\(\)"):
        env.step(np.zeros(2, np.int64))


@pytest.mark.parametrize("action", [np.zeros(3, np.int64), np.zeros((2, 1), np.int64),
                                    np.zeros(2, np.float32), [0], 0])
def test_a_wrong_action_array_is_refused(action):
    env = eights.vector.make("crazy_eights", 2, "heuristic", seed=0)
    env.reset()
    with pytest.raises(ConfigError, match=r"one integer action per table.*\(2,\)"):
        env.step(action)


def test_an_illegal_learner_action_raises():
    env = eights.vector.make("crazy_eights", 2, "heuristic", seed=0)
    env.reset()
    with pytest.raises(IllegalActionError):
        env.step(np.argmin(env.masks, axis=1))


@pytest.mark.parametrize("opponents", [["heuristic"], ["heuristic"] * 3, []])
def test_opponents_of_the_wrong_count_are_refused(opponents):
    with pytest.raises(ConfigError, match="for a 3-player table"):
        eights.vector.make("crazy_eights", 2, opponents, num_players=3)


def test_a_python_view_opponent_needs_the_python_tables():
    with pytest.raises(ConfigError, match="backend='python'"):
        eights.vector.make("crazy_eights", 4, "ismcts:sims=5", backend="compiled")
    env = eights.vector.make("crazy_eights", 4, "ismcts:sims=5", backend="python", seed=0)
    env.reset()
    for _ in range(4):
        action = np.array([np.flatnonzero(m)[0] for m in env.masks])
        env.step(action)
        assert env.masks.any(axis=1).all()


def test_the_policy_opponent_on_the_compiled_core():
    """The shipped crazy_eights policy answers on compiled 2-player tables if it reads the
    observation they write; else the refusal says which version it reads and what to do."""
    agent = make_agent("policy", "crazy_eights", 0)
    agent.check_table(engine_class("crazy_eights").Config.from_options(num_players=2))
    shipped = agent._encoder.version
    if shipped == REGISTRY["crazy_eights"].env_version:  # the version the core writes
        env = eights.vector.make("crazy_eights", 4, "policy", backend="compiled", seed=0)
        env.reset()
        for _ in range(10):
            env.step(np.array([np.flatnonzero(m)[0] for m in env.masks]))
            assert env.masks.any(axis=1).all()
    else:
        with pytest.raises(ConfigError, match=f"observation v{shipped}.*backend='python' "
                                              f"with version="):
            eights.vector.make("crazy_eights", 4, "policy", backend="compiled", seed=0)
        # the way out the message gives
        env = eights.vector.make("crazy_eights", 4, "policy", backend="python",
                                 version=shipped, seed=0)
        env.reset()
        for _ in range(10):
            env.step(np.array([np.flatnonzero(m)[0] for m in env.masks]))
            assert env.masks.any(axis=1).all()


def test_an_older_observation_runs_on_the_compiled_core_as_the_engines_write_it():
    """The compiled core writes the newest layout and the tables keep v1's columns: the
    same observations, step for step, as the engines' v1 tables."""
    compiled = eights.vector.make("crazy_eights", 4, "heuristic", version=1, seed=0)
    python = eights.vector.make("crazy_eights", 4, "heuristic", version=1, seed=0,
                                backend="python")
    assert isinstance(compiled.tables, eights.vector.CompiledTables)
    assert compiled.observation_size == python.observation_size == 239
    obs_c, _ = compiled.reset()
    obs_p, _ = python.reset()
    rng = np.random.default_rng(0)
    for _ in range(60):
        assert np.array_equal(obs_c, obs_p)
        assert np.array_equal(compiled.masks, python.masks)
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in python.masks])
        obs_c, *_ = compiled.step(actions)
        obs_p, *_ = python.step(actions)
