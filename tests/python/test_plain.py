"""The plain interface: moves as record strings, records, players, and bad
input raising clear errors."""
import glob
import os
import random
import re

import pytest

import carcassonne
from conftest import EXPANSIONS, ROOT, RULES, random_game, replay, scaled


def test_the_issue_example_plays_to_the_end(cli, tmp_path):
    g = carcassonne.Game(players=2, seed=7, rules=["small-city"], expansions=["river"])
    plies = 0
    while not g.finished:
        moves = g.legal_moves()
        assert moves and all(isinstance(m, str) for m in moves)
        g.play(moves[0])
        plies += 1
    assert plies >= 82  # the river's tiles and the base game's
    assert isinstance(g.scores, list) and len(g.scores) == 2
    status, out = replay(cli, g.record(), tmp_path)
    assert status == 0, out
    assert out["scores"] == g.scores and out["finished"]


@pytest.mark.parametrize("expansions", EXPANSIONS, ids=lambda e: "+".join(e) or "base")
def test_random_games_replay_to_the_same_scores_each_expansion(cli, tmp_path, expansions):
    for seed in range(scaled(6)):
        g = random_game(seed, players=2 + seed % 3, expansions=expansions)
        status, out = replay(cli, g.record(), tmp_path)
        assert status == 0, out
        assert out["scores"] == g.scores
        assert out["expansions"] == expansions


@pytest.mark.parametrize("rules", RULES, ids=lambda r: "+".join(r) or "standard")
def test_random_games_replay_to_the_same_scores_each_rule(cli, tmp_path, rules):
    for seed in range(scaled(4)):
        g = random_game(100 + seed, rules=rules, expansions=["inns-cathedrals"] if seed % 2 else [])
        assert set(filter(None, g.rules.split(","))) == set(rules)
        status, out = replay(cli, g.record(), tmp_path)
        assert status == 0, out
        assert out["scores"] == g.scores


def test_the_rule_variants_are_tested():
    names = {r[0] for r in RULES if len(r) == 1}
    assert {"farms-first-edition", "small-city", "no-incomplete-scoring", "bonus-turn"} <= names


def test_river_keep_start_rule(cli, tmp_path):
    g = random_game(5, rules=["river-keep-start"], expansions=["river"])
    status, out = replay(cli, g.record(), tmp_path)
    assert status == 0 and out["scores"] == g.scores


def test_state_accessors():
    g = carcassonne.Game(players=3, seed=11)
    assert g.players == 3 and g.current_player == 0 and not g.finished
    assert isinstance(g.tile, str) and g.tile
    left = g.tiles_left()
    assert left == 70  # 72 tiles: the start tile and the drawn one are out
    g.play(g.legal_moves()[0])
    assert g.tiles_left() == left - 1  # the next draw
    assert g.current_player in (0, 1)  # the next player, or again after a discard
    assert len(g.scores) == 3 and all(isinstance(s, int) for s in g.scores)


def test_events_report_a_completed_feature():
    # Find a move that scores at once and check its event.
    for seed in range(200):
        g = carcassonne.Game(seed=seed)
        rng = random.Random(seed)
        while not g.finished:
            before = list(g.scores)
            g.play(rng.choice(g.legal_moves()))
            gained = [a - b for a, b in zip(g.scores, before)]
            if any(gained) and not g.finished:
                events = g.events
                assert events, "points without an event"
                total = [0, 0]
                for e in events:
                    assert e["kind"] in ("road", "city", "cloister", "farm")
                    for p in e["winners"]:
                        total[p] += e["points"]
                assert total == gained
                return
    pytest.fail("no scoring move in 200 games")


def test_final_events_hold_the_final_scoring():
    rng = random.Random(3)
    g = carcassonne.Game(seed=3)
    while True:
        before = g.scores
        g.play(rng.choice(g.legal_moves()))
        if g.finished:
            break
    final = [e for e in g.events if not e["complete"]]
    assert final, "no final scoring event"
    gained = [0, 0]
    for e in g.events:
        for p in e["winners"]:
            gained[p] += e["points"]
    assert [a - b for a, b in zip(g.scores, before)] == gained
    assert g.events == g.events  # a fresh list each time, equal


def test_clone_is_independent():
    g = carcassonne.Game(seed=4)
    for _ in range(10):
        g.play(g.legal_moves()[-1])
    c = g.clone()
    assert c.record() == g.record() and c.tile == g.tile and c.scores == g.scores
    c.play(c.legal_moves()[0])
    assert c.record() != g.record()
    g2 = g.clone()
    assert g2.record() == g.record()
    del g
    assert g2.legal_moves()  # the clone outlives its source


def test_record_round_trip():
    g = random_game(9, expansions=["traders-builders"])
    h = carcassonne.Game.from_record(g.record())
    assert h.scores == g.scores and h.finished and h.record() == g.record()
    # A record of an unfinished game goes on from where it stopped.
    g = carcassonne.Game(seed=2)
    for _ in range(5):
        g.play(g.legal_moves()[0])
    h = carcassonne.Game.from_record(g.record())
    assert not h.finished and h.record() == g.record()
    h.play(h.legal_moves()[0])


def printf_b(text):
    """What printf %b makes of `text` (\\0NNN octal, \\r, \\t, ...), as bytes."""
    simple = {"\\": b"\\", "a": b"\a", "b": b"\b", "f": b"\f", "n": b"\n", "r": b"\r",
              "t": b"\t", "v": b"\v"}

    def one(m):
        if m.group(1) is not None:
            return bytes([int(m.group(1) or "0", 8) & 0xFF])
        return simple.get(m.group(2), b"\\" + m.group(2).encode())

    out, pos = b"", 0
    for m in re.finditer(r"\\(?:0([0-7]{0,3})|(.))", text, re.S):
        out += text[pos:m.start()].encode() + one(m)
        pos = m.end()
    return out + text[pos:].encode()


def feed(data, text):
    """The bytes tests/scenarios/run_scenario.sh feeds for a record's `input:` line."""
    kind = re.search(r"^#\s*input:\s*(\S*)", text, re.M)
    kind = kind.group(1) if kind else ""
    if kind == "crlf":
        return b"".join(line.rstrip(b"\r") + b"\r\n" for line in data.split(b"\n")[:-1])
    if kind == "escapes":
        return printf_b(data.decode("utf-8").rstrip("\n")) + b"\n"
    if kind == "pad":
        return re.sub(rb"@PAD:([0-9]+)@", lambda m: b"x" * int(m.group(1)), data)
    if kind == "empty":
        return b""
    assert kind == "", "unknown input kind " + kind
    return data


def expectations(path):
    """The record's bytes as the scenario runner feeds them, its expect-
    lines, its expected errors."""
    data = open(path, "rb").read()
    text = data.decode("utf-8", "replace")
    exp = dict(re.findall(r"^#\s*expect-([a-z]+):[ \t]*(.*)$", text, re.M))
    errors = re.findall(r"^#\s*expect-error:[ \t]*(.*)$", text, re.M)
    return feed(data, text), exp, errors


SCENARIOS = sorted(glob.glob(os.path.join(ROOT, "tests", "scenarios", "*.rec")))
INVALID = sorted(glob.glob(os.path.join(ROOT, "tests", "scenarios", "invalid", "*.rec")))


def test_there_are_scenarios():
    assert len(SCENARIOS) > 30 and len(INVALID) > 10


@pytest.mark.parametrize("path", SCENARIOS, ids=os.path.basename)
def test_from_record_on_the_scenarios(path):
    data, exp, _ = expectations(path)
    g = carcassonne.Game.from_record(data.decode("utf-8"))
    assert g.scores == [int(v) for v in exp["scores"].split()]
    assert g.finished == (exp["finished"].strip() == "true")


@pytest.mark.parametrize("path", INVALID, ids=os.path.basename)
def test_from_record_refuses_the_invalid_records(path):
    data, _, errors = expectations(path)
    with pytest.raises(ValueError) as info:
        carcassonne.Game.from_record(data)
    message = str(info.value)
    assert re.match(r"line \d+: ", message) or message, message
    for expected in errors:
        # The CLI prints "line N: ..." as the library's message; the same text.
        assert expected.strip() in message or expected.strip() in "replay: " + message, \
            (expected, message)


def test_bad_input_raises_clear_errors():
    g = carcassonne.Game(seed=1)
    with pytest.raises(ValueError, match="not a legal move"):
        g.play("Z 9 9 9")
    with pytest.raises(ValueError, match="not a legal move"):
        g.play("")
    with pytest.raises(TypeError):
        g.play(3)
    with pytest.raises(TypeError):
        g.play(None)
    with pytest.raises(ValueError):
        g.play(g.legal_moves()[0] + "\x00")
    # A legal move spelled otherwise (a comment) is not a string of legal_moves().
    with pytest.raises(ValueError, match="legal_moves"):
        g.play(g.legal_moves()[0] + " # hello")
    with pytest.raises(ValueError, match="line 1"):
        carcassonne.Game.from_record("hello\n")
    with pytest.raises(TypeError):
        carcassonne.Game.from_record(12)
    assert carcassonne.Game.from_record(b"players 2\n").players == 2
    with pytest.raises(ValueError, match="players"):
        carcassonne.Game(players=9)
    with pytest.raises(ValueError, match="rules"):
        carcassonne.Game(rules=["no-such-rule"])
    with pytest.raises(ValueError, match="expansions"):
        carcassonne.Game(expansions=["no-such-expansion"])
    with pytest.raises(TypeError):
        carcassonne.Game(rules=[1, 2])
    with pytest.raises(ValueError, match="seed -1 is out of range"):
        carcassonne.Game(seed=-1)
    with pytest.raises(TypeError):
        carcassonne.Game(seed="1")
    with pytest.raises(ValueError, match="board_size"):
        carcassonne.Game(board_size=4)
    before = g.record()
    assert g.record() == before  # nothing above changed the game


def test_a_finished_game_refuses_moves():
    g = random_game(1)
    assert g.legal_moves() == [] and g.legal_actions() == [] and g.tile is None
    with pytest.raises(ValueError, match="finished"):
        g.play("E 0 -1 0")
    with pytest.raises(ValueError, match="finished"):
        g.apply_action(0)
    with pytest.raises(ValueError):
        carcassonne.Player("random").choose(g)


def garbage(rng, alphabet):
    return "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 40)))


def test_garbage_strings_raise_and_never_crash():
    rng = random.Random(5)
    tokens = ["A", "E", "RD", "discard", "end", "players", "rules", "expansions", " ", "\n",
              "-1", "0", "1", "2", "3", "127", "-128", "999999999999", "N", "S", "C", "F",
              "large", "builder", "pig", "#", "\t", "\x00", "é", "small-city", "river"]
    g = carcassonne.Game(seed=3, expansions=["river", "traders-builders"])
    record = random_game(3).record()
    legal = set(g.legal_moves())
    for i in range(scaled(20000, 500)):
        text = "".join(rng.choice(tokens) for _ in range(rng.randrange(0, 12)))
        if rng.random() < 0.3:
            text = garbage(rng, "ABCDEFGHRIT0123456789 -\n#NSEWCFlargepi\x00\xff")
        if text not in legal:
            with pytest.raises(ValueError):
                g.play(text)
        # Records: random text, and a real record with a line broken.
        if i % 4 == 0:
            lines = record.split("\n")
            lines[rng.randrange(len(lines))] = text
            text = "\n".join(lines)
        try:
            carcassonne.Game.from_record(text)
        except ValueError as e:
            assert str(e)


def test_player_chooses_legal_moves():
    g = carcassonne.Game(seed=8, expansions=["inns-cathedrals"])
    for spec in ("random", "greedy", "mcts:iters=200,threads=1", "star25"):
        p = carcassonne.Player(spec, seed=1)
        assert p.spec.startswith(spec.split(":")[0])
        move = p.choose(g)
        assert move in g.legal_moves()
    with pytest.raises(ValueError, match="player"):
        carcassonne.Player("no-such-player")
    with pytest.raises(TypeError):
        carcassonne.Player("random").choose("a game")


def test_player_plays_whole_games(cli, tmp_path):
    g = carcassonne.Game(players=3, seed=12)
    players = [carcassonne.Player("greedy"), carcassonne.Player("random", seed=3),
               carcassonne.Player("mcts:iters=50,threads=1", seed=4)]
    while not g.finished:
        g.play(players[g.current_player].choose(g))
    status, out = replay(cli, g.record(), tmp_path)
    assert status == 0 and out["scores"] == g.scores
