"""test_net.py: the learned player (docs/learning.md): the C forward pass
against PyTorch's on fixed inputs, the inputs of real positions, the
.carcnet reader's refusals through Python, "mcts:net=FILE" playing legal
games, and a training loop of a few seconds (tools/learn/learn.py with
tools/learn/tiny.json). Needs PyTorch (Debian's python3-torch,
scripts/deps.sh --test): without it these tests are skipped, and say so."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import carcassonne
from conftest import ROOT

torch = pytest.importorskip("torch", reason="PyTorch (python3-torch) is not installed")
sys.path.insert(0, os.path.join(ROOT, "tools", "learn"))
import carcnet  # noqa: E402

torch.set_num_threads(1)


def random_net(seed, value_hidden=(64, 32), policy_hidden=(64, 32)):
    torch.manual_seed(seed)
    net = carcnet.Net(value_hidden, policy_hidden, value_scale=20.0)
    with torch.no_grad():
        for p in net.parameters():
            p.normal_(0.0, 0.3)
    return net


def position(seed, moves):
    g = carcassonne.Game(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        g.apply_action(int(rng.choice(g.legal_actions())))
    return g


def torch_forward(net, pos, rows):
    with torch.no_grad():
        value = float(net.value(torch.from_numpy(pos))[0]) * net.value_scale
        logits = net.policy(torch.from_numpy(rows)).squeeze(-1).numpy()
    return value, logits


@pytest.mark.parametrize("seed,moves", [(1, 0), (2, 15), (3, 40), (4, 65)])
def test_c_forward_matches_pytorch(seed, moves):
    net = random_net(seed)
    pos, rows, actions = carcassonne.net_inputs(position(seed, moves))
    assert rows.shape == (len(actions), carcassonne.NET_MOVE_INPUTS) and len(actions) > 0
    value, logits = carcassonne.net_forward(carcnet.to_bytes(net), pos, rows)
    want_value, want_logits = torch_forward(net, pos, rows)
    assert abs(value - want_value) <= 1e-4 * max(1.0, abs(want_value))
    assert np.max(np.abs(logits - want_logits)) <= 1e-4 * max(1.0, np.max(np.abs(want_logits)))


def test_c_forward_matches_pytorch_on_fixed_inputs():
    """Inputs that no game makes (negative, large): the layers alone."""
    net = random_net(9, value_hidden=(48,), policy_hidden=(40, 24, 8))
    rng = np.random.default_rng(9)
    pos = rng.normal(0, 2, carcassonne.NET_POSITION_INPUTS).astype(np.float32)
    rows = rng.normal(0, 2, (17, carcassonne.NET_MOVE_INPUTS)).astype(np.float32)
    value, logits = carcassonne.net_forward(carcnet.to_bytes(net), pos, rows)
    want_value, want_logits = torch_forward(net, pos, rows)
    assert abs(value - want_value) <= 1e-4 * max(1.0, abs(want_value))
    assert np.max(np.abs(logits - want_logits)) <= 1e-4 * max(1.0, np.max(np.abs(want_logits)))


def test_inputs_follow_the_legal_actions():
    g = position(5, 20)
    _, rows, actions = carcassonne.net_inputs(g)
    assert sorted(actions.tolist()) == sorted(g.legal_actions())
    assert np.all(np.isfinite(rows))
    g2 = carcassonne.Game(seed=5)
    while not g2.finished:
        g2.apply_action(g2.legal_actions()[0])
    with pytest.raises(ValueError):
        carcassonne.net_inputs(g2)


def test_reader_refuses_bad_files():
    good = carcnet.to_bytes(random_net(3, (8,), (8,)))
    pos = np.zeros(carcassonne.NET_POSITION_INPUTS, np.float32)
    rows = np.zeros((1, carcassonne.NET_MOVE_INPUTS), np.float32)
    carcassonne.net_forward(good, pos, rows)
    cases = {
        "truncated": good[:-1],
        "empty": b"",
        "magic": b"X" + good[1:],
        "checksum": good[:-1] + bytes([good[-1] ^ 1]),
        "trailing": good + b"\0",
    }
    for what, data in cases.items():
        with pytest.raises(ValueError) as e:
            carcassonne.net_forward(data, pos, rows)
        assert str(e.value), what
    with pytest.raises(ValueError, match="checksum"):
        carcassonne.net_forward(cases["checksum"], pos, rows)


def test_player_with_a_net_plays_legal_games(tmp_path):
    path = tmp_path / "n.carcnet"
    carcnet.write(random_net(4, (16,), (16,)), path)
    spec = f"mcts:iters=200,threads=1,net={path}"
    records, scores = carcassonne.selfplay(2, players=2, seed=3, player=[spec, "greedy"])
    assert scores.shape == (2, 2)
    for r in records:
        again = carcassonne.Game.from_record(r)
        assert again.finished
    with pytest.raises(ValueError):
        carcassonne.Player(f"mcts:net={tmp_path / 'missing.carcnet'}")


def test_tiny_training_run(tmp_path):
    """The whole loop for two generations of a few games: samples,
    training, export, matches, resumption."""
    with open(os.path.join(ROOT, "tools", "learn", "tiny.json")) as f:
        settings = json.load(f)
    settings["work"] = str(tmp_path / "work")
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(settings))
    learn = os.path.join(ROOT, "tools", "learn", "learn.py")
    run = subprocess.run([sys.executable, learn, "loop", str(path)], capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    state = json.loads((tmp_path / "work" / "state.json").read_text())
    assert len(state["generations"]) == settings["generations"]
    assert len((tmp_path / "work" / "curve.csv").read_text().splitlines()) == 1 + settings["generations"]
    net = tmp_path / "work" / "net-000.carcnet"
    pos, rows, _ = carcassonne.net_inputs(position(1, 3))
    value, logits = carcassonne.net_forward(str(net), pos, rows)
    assert np.isfinite(value) and np.all(np.isfinite(logits))
    # Resumable: a second run has nothing left to do.
    again = subprocess.run([sys.executable, learn, "loop", str(path)], capture_output=True,
                           text=True, timeout=60)
    assert again.returncode == 0 and "self-play" not in again.stdout
