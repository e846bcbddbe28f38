"""Threads, reference counts and memory."""
import ctypes
import gc
import os
import random
import sys
import threading

import carcassonne
from conftest import SCALE, scaled


def rss_kb():
    """The resident memory, after glibc gave back what it can (freed memory
    it keeps in its per-thread arenas would otherwise look like growth)."""
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # pragma: no cover - not glibc
        pass
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4


def test_two_games_from_two_threads_at_once():
    results = {}
    barrier = threading.Barrier(2)

    def play(name, seed):
        rng = random.Random(seed)
        barrier.wait()
        out = []
        for k in range(scaled(30, 3)):
            g = carcassonne.Game(seed=seed + k)
            p = carcassonne.Player("mcts:iters=30,threads=1", seed=seed)
            while not g.finished:
                if g.current_player == 0:
                    g.play(p.choose(g))
                else:
                    g.apply_action(rng.choice(g.legal_actions()))
            out.append(g.record())
        results[name] = out

    threads = [threading.Thread(target=play, args=("a", 1)),
               threading.Thread(target=play, args=("b", 1))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # Same seeds in both threads: the same games, so nothing was shared.
    assert results["a"] == results["b"] and len(results["a"]) == scaled(30, 3)


def test_one_game_shared_by_threads_does_not_crash():
    g = carcassonne.Game(seed=2)
    p1, p2 = carcassonne.Player("mcts:iters=200,threads=1"), carcassonne.Player("random")
    errors = []

    def chooser():
        for _ in range(20):
            try:
                if not g.finished:
                    p1.choose(g)
            except ValueError:
                pass
            except Exception as e:  # pragma: no cover
                errors.append(e)

    t = threading.Thread(target=chooser)
    t.start()
    while not g.finished:
        g.play(p2.choose(g))  # the other thread searches a copy meanwhile
    t.join()
    assert not errors


def one_game(seed, rng):
    g = carcassonne.Game(seed=seed, explicit_chance=seed % 2 == 1)
    while not g.finished:
        if g.is_chance_node():
            g.chance_outcomes()
            g.apply_action(g.legal_actions()[0])
            continue
        if rng.random() < 0.5:
            g.play(rng.choice(g.legal_moves()))
        else:
            g.apply_action(rng.choice(g.legal_actions()))
        g.events
    c = g.clone()
    return carcassonne.Game.from_record(c.record()).scores


def test_reference_counts_and_memory_stay_flat():
    # CARC_MEMORY_GAMES=100000: the long run (ctest -L long, python.memory_long).
    rng = random.Random(1)
    probe = "E 0 -1 0"
    refs = sys.getrefcount(probe)
    n = int(os.environ.get("CARC_MEMORY_GAMES") or scaled(6000, 200))
    for i in range(n // 5):
        one_game(i, rng)
    gc.collect()
    before, objects = rss_kb(), len(gc.get_objects())
    for i in range(n // 5, n):
        one_game(i, rng)
    gc.collect()
    grown = rss_kb() - before
    assert len(gc.get_objects()) - objects < 100
    assert sys.getrefcount(probe) == refs
    if SCALE >= 1:  # sanitizers keep freed memory in quarantine
        assert grown < 2048, "RSS grew by %d KB over %d games" % (grown, n - n // 5)


def test_memory_flat_over_100000_selfplay_games():
    # Five batches of 20,000 games, records kept until the next batch: the
    # memory after the first batch is the most the others may hold.
    games = scaled(100000, 2000)
    rss = []
    for k in range(5):
        records, scores = carcassonne.selfplay(games // 5, 2, seed=k * games, threads=2)
        assert len(records) == games // 5
        del records, scores
        gc.collect()
        rss.append(rss_kb())
    if SCALE >= 1:
        assert max(rss[1:]) - rss[0] < 4096, rss


def test_one_player_used_by_two_threads_refuses_the_second_call():
    g = carcassonne.Game(seed=5)
    p = carcassonne.Player("mcts:iters=20000,threads=1")
    outcomes = []

    def choose():
        try:
            outcomes.append(p.choose(g))
        except RuntimeError as e:
            outcomes.append(e)

    threads = [threading.Thread(target=choose) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    moves = [o for o in outcomes if isinstance(o, str)]
    refused = [o for o in outcomes if isinstance(o, RuntimeError)]
    assert len(outcomes) == 2 and moves and all(m in g.legal_moves() for m in moves)
    assert all("already choosing" in str(e) for e in refused)
