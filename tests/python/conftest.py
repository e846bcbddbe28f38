"""conftest.py: what the Python package's tests share (tests/python/run.sh
runs them in a virtual environment holding the installed package)."""
import os
import random
import subprocess

import pytest

import carcassonne

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# CARC_TEST_SCALE < 1 plays fewer games (the sanitizer run).
SCALE = float(os.environ.get("CARC_TEST_SCALE", "1"))

EXPANSIONS = [[], ["river"], ["inns-cathedrals"], ["traders-builders"],
              ["river", "inns-cathedrals", "traders-builders"]]
# Every rule variant the library plays alone (the others need a value or
# another rule: river-keep-start is tested with the river), and a mix.
RULES = [[]] + [[name] for name in carcassonne.rule_names()
                if name != "river-keep-start" and carcassonne.Game.playable([name])] + \
    [["small-city", "bonus-turn", "farms-first-edition"]]


def scaled(n, least=1):
    return max(least, int(n * SCALE))


@pytest.fixture(scope="session")
def cli():
    """The carcassonne program (CARCASSONNE, else build/carcassonne)."""
    path = os.environ.get("CARCASSONNE") or os.path.join(ROOT, "build", "carcassonne")
    assert os.access(path, os.X_OK), "no carcassonne program at %s (set CARCASSONNE)" % path
    return path


def replay(cli, record, tmp_path, name="game.rec"):
    """`carcassonne replay --json` of a record: (exit status, parsed output)."""
    import json
    path = tmp_path / name
    path.write_text(record)
    out = subprocess.run([cli, "replay", "--json", str(path)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    return out.returncode, (json.loads(out.stdout) if out.returncode == 0 else out.stderr)


def random_game(seed, players=2, rules=None, expansions=None, rng=None):
    """A game played to its end with uniformly chosen legal moves."""
    rng = rng or random.Random(seed)
    g = carcassonne.Game(players=players, seed=seed, rules=rules, expansions=expansions)
    while not g.finished:
        g.play(rng.choice(g.legal_moves()))
    return g
