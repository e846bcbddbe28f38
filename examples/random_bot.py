#!/usr/bin/env python3
"""random_bot.py: a complete engine for `carcassonne arena` (docs/protocol.md)
that plays a random legal move. It keeps no rules of its own: a
`carcassonne engine` beside it follows the game and answers 'legal'.

usage: python3 random_bot.py [CARCASSONNE] (default: on the PATH, else build/)
try:   build/carcassonne arena "engine:python3 examples/random_bot.py" greedy --games 4
       (add --expansions river for The River: 'new' passes the expansions on,
       and the bot never reads a tile id, which may have two letters: RD)
"""
import json
import os
import random
import shutil
import subprocess
import sys

program = (sys.argv[1] if len(sys.argv) > 1 else shutil.which("carcassonne")
           or os.path.join(os.path.dirname(os.path.abspath(__file__)), "../build/carcassonne"))
rules = subprocess.Popen([program, "engine", "--player", "random"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)


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
