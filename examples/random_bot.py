#!/usr/bin/env python3
"""random_bot.py: a complete engine for `carcassonne arena` (docs/protocol.md)
that plays a random legal move. It keeps no rules of its own: a
`carcassonne engine` beside it follows the game and answers 'legal'.

usage: python3 random_bot.py [CARCASSONNE]
       CARCASSONNE is the program that keeps the rules; by default
       $CARCASSONNE, else build/carcassonne of this source tree, else
       `carcassonne` on the PATH (after `cmake --install build`).
try:   (from the source tree, after scripts/play.sh or a build)
       build/carcassonne arena "engine:python3 examples/random_bot.py" greedy --games 4
       (add --expansions river for The River: 'new' passes the expansions on,
       and the bot never reads a tile id, which may have two letters: RD)
"""
import json
import os
import random
import shutil
import subprocess
import sys


def rules_program():
    """The `carcassonne` program to start, or None."""
    if len(sys.argv) > 1:
        return sys.argv[1]
    if os.environ.get("CARCASSONNE"):
        return os.environ["CARCASSONNE"]
    here = os.path.dirname(os.path.abspath(__file__))
    built = os.path.join(os.path.dirname(here), "build", "carcassonne")
    if os.access(built, os.X_OK):
        return built
    return shutil.which("carcassonne")


program = rules_program()
if not program:
    sys.exit("random_bot.py: no carcassonne program: build it (scripts/play.sh or cmake), "
             "install it (cmake --install build) or name it: random_bot.py PATH")
try:
    rules = subprocess.Popen([program, "engine", "--player", "random"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
except OSError as e:
    sys.exit("random_bot.py: cannot start %s: %s" % (program, e.strerror))


def ask(request):
    """One request to the rules engine, its reply."""
    rules.stdin.write(json.dumps(request) + "\n")
    rules.stdin.flush()
    return json.loads(rules.stdout.readline())


rng = random.Random()
for line in sys.stdin:
    if not line.strip():
        continue
    request = json.loads(line)
    if request["type"] == "hello":
        reply = {"type": "hello", "protocol": 4, "name": "random_bot.py"}
    elif request["type"] == "go":
        legal = ask({"type": "legal"})  # every move and its "points": weigh them here
        reply = {"type": "move", "move": rng.choice(legal["moves"])["move"]}
    elif request["type"] == "quit":
        reply = {"type": "bye"}
    else:  # new, tile, move, end, try, undo, ...: the rules engine keeps the game
        if request["type"] == "new":
            rng.seed(request.get("seed", 0))
        reply = ask(request)
    print(json.dumps(reply), flush=True)
    if request["type"] == "quit":
        break
