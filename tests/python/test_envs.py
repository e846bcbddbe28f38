"""The Gymnasium-style and PettingZoo-style environments: the properties
their environment checkers assert (spaces, masks, determinism under a seed,
termination), checked here without those libraries."""
import numpy as np
import pytest

import carcassonne
from carcassonne.gym import CarcassonneEnv
from carcassonne.pettingzoo import env as aec_env
from conftest import scaled


def run_gym(seed, actions_seed, **kwargs):
    env = CarcassonneEnv(**kwargs)
    env.action_space.seed(actions_seed)
    obs, info = env.reset(seed=seed)
    trace = [obs]
    rewards = []
    while True:
        assert env.observation_space.contains(obs)
        assert np.array_equal(info["action_mask"], obs["action_mask"])
        assert obs["action_mask"].any()
        action = env.action_space.sample(obs["action_mask"])
        assert env.action_space.contains(action)
        assert env.game.action_to_string(action) in info["legal_moves"]
        obs, reward, terminated, truncated, info = env.step(action)
        assert isinstance(reward, float) and isinstance(terminated, bool)
        rewards.append(reward)
        trace.append(obs)
        if terminated or truncated:
            break
    return env, trace, rewards, terminated


def test_gym_episode_contract():
    env, trace, rewards, terminated = run_gym(1, 2, players=3, seat=1, opponents="greedy")
    assert terminated and env.game.finished
    s = env.game.scores
    assert sum(rewards) == pytest.approx(s[1] - max(s[0], s[2]))
    assert not trace[-1]["action_mask"].any()  # no action once over
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env.close()


def test_gym_is_deterministic_under_a_seed():
    for seed in range(scaled(3)):
        _, t1, r1, _ = run_gym(seed, 7, expansions=["river"])
        _, t2, r2, _ = run_gym(seed, 7, expansions=["river"])
        assert r1 == r2 and len(t1) == len(t2)
        for a, b in zip(t1, t2):
            for key in a:
                assert np.array_equal(a[key], b[key])
    _, t3, _, _ = run_gym(1000, 7)
    _, t4, _, _ = run_gym(1001, 7)
    assert not all(np.array_equal(a["board"], b["board"]) for a, b in zip(t3, t4))


def test_gym_refuses_illegal_actions_and_bad_arguments():
    env = CarcassonneEnv(illegal_action="raise")
    obs, _ = env.reset(seed=3)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(ValueError):
        env.step(illegal)
    # By default an illegal action of the space ends the episode with the
    # penalty (Gymnasium's check_env steps with an unmasked sample).
    env = CarcassonneEnv(illegal_reward=-7)
    obs, _ = env.reset(seed=3)
    before = env.game.record()
    obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-7.0, True, False, True)
    assert env.game.record() == before  # nothing played
    with pytest.raises(RuntimeError):
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    env.reset(seed=3)
    with pytest.raises(ValueError):  # outside the space: always refused
        env.step(env.action_space.n)
    with pytest.raises(ValueError):
        CarcassonneEnv(illegal_action="ignore")
    with pytest.raises(ValueError):
        CarcassonneEnv(players=2, seat=2)
    with pytest.raises(ValueError):
        CarcassonneEnv(render_mode="human")
    shown = CarcassonneEnv(render_mode="ansi").render()  # the learner's view, no seed
    assert shown.startswith("players 2\n# drawn ") and "seed" not in shown


def test_gym_spaces():
    env = CarcassonneEnv(board_size=11)
    assert env.action_space.n == 11 * 11 * 4 * carcassonne.FIGURE_SLOTS + 1
    assert env.observation_space["board"].shape == (carcassonne.PLANES, 11, 11)
    assert env.observation_space["globals"].shape == (carcassonne.GLOBALS,)
    sample = env.observation_space.sample()
    assert env.observation_space.contains(sample)


def run_aec(seed, players=2, sample_seed=0):
    e = aec_env(players=players)
    e.reset(seed=seed)
    assert e.num_agents == e.max_num_agents == players
    assert set(e.rewards) == set(e.terminations) == set(e.infos) == set(e.agents)
    for agent in e.possible_agents:
        e.action_space(agent).seed(sample_seed)
    steps, trace = 0, []
    totals = {a: 0.0 for a in e.possible_agents}
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        totals[agent] += reward
        assert e.observation_space(agent).contains(obs)
        if termination or truncation:
            e.step(None)
            continue
        # Only the agent to move has actions; the others' masks are empty.
        seat = e.possible_agents.index(agent)
        assert seat == e.game.current_player
        for other in e.possible_agents:
            if other != agent:
                assert not e.observe(other)["action_mask"].any()
        action = e.action_space(agent).sample(obs["action_mask"])
        trace.append(action)
        e.step(action)
        steps += 1
    return e, steps, trace, totals


def test_pettingzoo_cycle_contract():
    e, steps, _, totals = run_aec(4, players=3)
    assert e.agents == [] and steps >= 71 and e.game.finished
    s = e.game.scores
    for p, agent in enumerate(e.possible_agents):
        assert totals[agent] == pytest.approx(s[p] - max(s[q] for q in range(3) if q != p))


def test_pettingzoo_is_deterministic_under_a_seed():
    _, _, a, _ = run_aec(5, sample_seed=1)
    _, _, b, _ = run_aec(5, sample_seed=1)
    assert a == b


def test_pettingzoo_refuses_a_dead_agents_action():
    e = aec_env()
    e.reset(seed=1)
    with pytest.raises(ValueError):
        e.step(e.game.num_actions + 5)
    for agent in e.possible_agents:
        e.terminations[agent] = True
    with pytest.raises(ValueError):
        e.step(0)
    e.step(None)
    assert len(e.agents) == 1


def test_environments_truncate_when_the_board_outgrows_the_window():
    truncated_any = False
    for seed in range(scaled(10, 3)):
        env = CarcassonneEnv(board_size=5)
        obs, info = env.reset(seed=seed)
        while True:
            obs, reward, terminated, truncated, info = env.step(
                env.action_space.sample(obs["action_mask"]))
            if terminated or truncated:
                break
        if truncated:
            truncated_any = True
            assert not env.game.finished and not obs["action_mask"].any()
    assert truncated_any
    e = aec_env(board_size=5)
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        e.step(None if termination or truncation else
               e.action_space(agent).sample(obs["action_mask"]))
    assert e.agents == []


def test_gym_refuses_a_step_before_reset():
    env = CarcassonneEnv(opponents="greedy")
    legal = env.game.legal_actions()[0]
    with pytest.raises(RuntimeError, match="reset"):
        env.step(legal)  # it crashed with an AttributeError, the move half played
    assert env.game.record(seed=False) == "players 2\n"
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)  # not legal: no episode to end either
    obs, _ = env.reset(seed=1)
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    with pytest.raises(TypeError, match="players must be an int"):
        CarcassonneEnv(players="2")
