#!/usr/bin/env python3
"""learn.py: trains the learned player's network on the engine's own self-play.

    learn.py loop SETTINGS.json [--work DIR] [--generations N]

One generation: self-play with the current best player (the plain search
before any network) writes samples (carcassonne.selfplay(samples=...)),
each position's network inputs are computed from them, the network is
trained on the last generations' samples starting from the best network,
exported to .carcnet, and a deck-paired match against the previous best
decides whether it becomes the best. Every step leaves its file in the
work folder and is skipped when that file exists, so a stopped run goes on
where it stopped; state.json holds the best network and each generation's
figures, curve.csv the same as a table. docs/learning.md explains it.
"""
import argparse
import copy
import csv
import json
import os
import sys
import time

import numpy as np
import torch
from torch import nn

import carcassonne

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import carcnet  # noqa: E402

P, M = carcnet.POSITION_INPUTS, carcnet.MOVE_INPUTS


def log(*args):
    print(time.strftime("%H:%M:%S"), *args, flush=True)


# --- Samples -------------------------------------------------------------------------------


def with_net(spec, net):
    """The player `spec` guided by the network file `net` (None: as it is)."""
    return spec if not net else spec + ",net=" + os.path.abspath(net)


def selfplay(settings, net, seed, out):
    """Self-play of the current player into `out` (.npz): each position's
    network inputs, the search's visit shares and the final margin."""
    sp = settings["selfplay"]
    raw = out[:-len(".npz")] + "-raw.npz"
    if not os.path.exists(raw):  # written whole, then renamed: a stopped run redoes it
        carcassonne.selfplay(sp["games"], players=2, seed=seed, player=with_net(sp["player"], net),
                             threads=sp.get("threads", 1), records=False, samples=raw + "-tmp.npz")
        os.replace(raw + "-tmp.npz", raw)
    inputs_of_samples(raw, seed, out)
    os.remove(raw)


def inputs_of_samples(raw, seed, out):
    """Replays the games of a samples file from their seeds and writes each
    position's network inputs beside its targets."""
    with np.load(raw) as f:
        s = {key: f[key] for key in f.files}  # an NpzFile reads an array again at each access
    n = len(s["player"])
    positions = np.zeros((n, P), np.float32)
    moves, policy, counts = [], [], np.zeros(n, np.int64)
    keep = np.zeros(n, bool)
    game, record, playable = None, -1, False
    for k in range(n):
        if s["record"][k] != record:
            record = int(s["record"][k])
            game, playable = carcassonne.Game(players=2, seed=seed + record), True
        if not playable:
            continue
        assert game.current_player == s["player"][k], "the replay left the self-play's game"
        pos, rows, actions = carcassonne.net_inputs(game)
        lo, hi = s["policy_indptr"][k], s["policy_indptr"][k + 1]
        where = {int(a): i for i, a in enumerate(actions)}
        target = np.zeros(len(actions), np.float32)
        for a, share in zip(s["legal"][lo:hi], s["policy"][lo:hi]):
            target[where[int(a)]] = share
        positions[k], counts[k], keep[k] = pos, len(actions), True
        moves.append(rows.astype(np.float16))
        policy.append(target)
        action = int(s["action"][k])
        if action < 0:
            playable = False  # the move lay outside the window: the rest is lost
        else:
            game.apply_action(action)
    tmp = out[:-len(".npz")] + "-tmp.npz"
    np.savez(tmp, positions=positions[keep], moves=np.concatenate(moves),
             indptr=np.concatenate([[0], np.cumsum(counts[keep])]), policy=np.concatenate(policy),
             margin=s["margin"][keep].astype(np.float32), outcome=s["outcome"][keep],
             record=s["record"][keep])
    os.replace(tmp, out)


def load_samples(paths):
    parts = []
    for path in paths:
        with np.load(path) as f:
            parts.append({key: f[key] for key in f.files})
    offsets = np.cumsum([0] + [len(p["moves"]) for p in parts])
    return {
        "positions": np.concatenate([p["positions"] for p in parts]),
        "moves": np.concatenate([p["moves"] for p in parts]),
        "indptr": np.concatenate([parts[0]["indptr"][:1]] +
                                 [p["indptr"][1:] + o for p, o in zip(parts, offsets)]),
        "policy": np.concatenate([p["policy"] for p in parts]),
        "margin": np.concatenate([p["margin"] for p in parts]),
    }


# --- Training ------------------------------------------------------------------------------


class Batches:
    """Positions with their moves padded to the batch's widest position."""

    def __init__(self, data):
        self.positions = torch.from_numpy(data["positions"])
        self.moves = torch.from_numpy(data["moves"])
        self.policy = torch.from_numpy(data["policy"])
        self.margin = torch.from_numpy(data["margin"])
        self.start = torch.from_numpy(data["indptr"][:-1])
        self.count = torch.from_numpy(np.diff(data["indptr"]))

    def __len__(self):
        return len(self.positions)

    def get(self, idx):
        count = self.count[idx]
        width = int(count.max())
        col = torch.arange(width)
        mask = col[None, :] < count[:, None]
        rows = torch.where(mask, self.start[idx, None] + col[None, :], torch.zeros_like(mask, dtype=torch.long))
        return (self.positions[idx], self.moves[rows].float(), mask,
                torch.where(mask, self.policy[rows], torch.zeros(()))), self.margin[idx]


def losses(net, batch, margin):
    (positions, moves, mask, target), scale = batch, net.value_scale
    value = net.value(positions).squeeze(-1)
    value_loss = nn.functional.mse_loss(value, margin / scale)
    logits = net.policy(moves).squeeze(-1).masked_fill(~mask, -1e9)
    logp = torch.log_softmax(logits, dim=1)
    has_choice = mask.sum(1) > 1
    policy_loss = -(target * logp).sum(1)[has_choice].mean()
    agree = (logits.argmax(1) == target.argmax(1))[has_choice].float().mean()
    return value_loss, policy_loss, agree


def evaluate(net, data, batch=512):
    """Mean losses over `data` (no training): value MSE, policy cross-entropy,
    how often the policy's best move is the search's most visited."""
    sums, n = np.zeros(3), 0
    with torch.no_grad():
        for lo in range(0, len(data), batch):
            idx = torch.arange(lo, min(lo + batch, len(data)))
            inputs, margin = data.get(idx)
            parts = losses(net, inputs, margin)
            sums += np.array([float(x) for x in parts]) * len(idx)
            n += len(idx)
    return sums / max(n, 1)


def train(settings, sample_files, init, out_pt, out_net, seed):
    """Trains from `init` (a .pt, or None) on the samples; writes the
    network (.pt) and its .carcnet. Returns the held-out figures."""
    tr = settings["train"]
    torch.manual_seed(seed)
    data = load_samples(sample_files)
    n = len(data["positions"])
    # The last tenth of the newest file's positions is held out.
    held = max(1, n // 10)
    split = lambda d, lo, hi: {  # noqa: E731
        "positions": d["positions"][lo:hi], "moves": d["moves"], "indptr": d["indptr"][lo:hi + 1],
        "policy": d["policy"], "margin": d["margin"][lo:hi]}
    training, held_out = Batches(split(data, 0, n - held)), Batches(split(data, n - held, n))
    net = carcnet.Net(tr["value_hidden"], tr["policy_hidden"], tr["value_scale"])
    if init:
        net.load_state_dict(torch.load(init))
    opt = torch.optim.Adam(net.parameters(), lr=tr["lr"], weight_decay=tr["weight_decay"])
    # The epoch with the lowest held-out loss is kept (the value head
    # overfits within a few epochs on a generation's samples).
    best, best_loss = None, None
    for epoch in range(tr["epochs"]):
        order = torch.randperm(len(training))
        for lo in range(0, len(training), tr["batch"]):
            inputs, margin = training.get(order[lo:lo + tr["batch"]])
            value_loss, policy_loss, _ = losses(net, inputs, margin)
            opt.zero_grad()
            (tr["value_weight"] * value_loss + policy_loss).backward()
            opt.step()
        figures = evaluate(net, held_out)
        loss = tr["value_weight"] * figures[0] + figures[1]
        log(f"  epoch {epoch + 1}: held-out value MSE {figures[0]:.4f}, policy loss "
            f"{figures[1]:.4f}, agreement {figures[2]:.3f}")
        if best_loss is None or loss < best_loss:
            best, best_loss = (epoch + 1, figures, copy.deepcopy(net.state_dict())), loss
    epoch, figures, state = best
    log(f"  kept epoch {epoch}")
    net.load_state_dict(state)
    torch.save(net.state_dict(), out_pt)
    carcnet.write(net, out_net)
    # How well the full evaluation's own margin (input IN_MARGIN, in
    # units of 20 points) predicts the final margin: the bar for the value head.
    eval_mse = float(np.mean((held_out.positions[:, 31].numpy() * 20.0 / net.value_scale -
                              held_out.margin.numpy() / net.value_scale) ** 2))
    return {"positions": n, "epoch": epoch, "value_mse": figures[0], "eval_mse": eval_mse,
            "policy_loss": figures[1], "agreement": figures[2]}


# --- Matches -------------------------------------------------------------------------------


def match(a, b, games, seed, threads=1):
    """Player spec `a` against `b`, deck-paired: each deal played twice
    with the seats swapped. Returns a's score share (a win 1, a draw 1/2)
    and its mean margin."""
    deals = max(1, games // 2)
    _, first = carcassonne.selfplay(deals, players=2, seed=seed, player=[a, b], threads=threads,
                                    records=False)
    _, second = carcassonne.selfplay(deals, players=2, seed=seed, player=[b, a], threads=threads,
                                     records=False)
    margins = np.concatenate([first[:, 0] - first[:, 1], second[:, 1] - second[:, 0]])
    score = (np.sum(margins > 0) + 0.5 * np.sum(margins == 0)) / len(margins)
    return float(score), float(margins.mean()), len(margins)


# --- The loop ------------------------------------------------------------------------------


def load_state(work):
    path = os.path.join(work, "state.json")
    if os.path.exists(path):
        with open(path) as f:
            return json.load(f)
    return {"best": None, "best_pt": None, "generations": []}


def save_state(work, state):
    tmp = os.path.join(work, "state.json.tmp")
    with open(tmp, "w") as f:
        json.dump(state, f, indent=1)
    os.replace(tmp, os.path.join(work, "state.json"))
    with open(os.path.join(work, "curve.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["generation", "positions", "epoch", "value_mse", "eval_mse", "policy_loss", "agreement",
                    "vs_previous", "vs_previous_margin", "vs_plain", "vs_plain_margin", "kept"])
        for g in state["generations"]:
            w.writerow([g["generation"], g["positions"], g.get("epoch", ""), f"{g['value_mse']:.4f}",
                        f"{g.get('eval_mse', float('nan')):.4f}",
                        f"{g['policy_loss']:.4f}", f"{g['agreement']:.3f}",
                        f"{g['vs_previous']:.3f}", f"{g['vs_previous_margin']:.2f}",
                        f"{g['vs_plain']:.3f}", f"{g['vs_plain_margin']:.2f}", int(g["kept"])])


def generation(settings, work, state, gen):
    seed = settings["seed"] + 1000003 * gen
    samples = os.path.join(work, f"samples-{gen:03d}.npz")
    if not os.path.exists(samples):
        log(f"generation {gen}: self-play with {state['best'] or 'the plain search'}")
        selfplay(settings, state["best"], seed, samples)
    window = settings["train"]["window"]
    files = [os.path.join(work, f"samples-{g:03d}.npz") for g in range(max(0, gen - window + 1), gen + 1)]
    pt, net = os.path.join(work, f"net-{gen:03d}.pt"), os.path.join(work, f"net-{gen:03d}.carcnet")
    log(f"generation {gen}: training on {len(files)} generation(s) of samples")
    figures = train(settings, files, state["best_pt"], pt, net, seed)
    m = settings["match"]
    player = m["player"]
    previous = with_net(player, state["best"])
    score, margin, n = match(with_net(player, net), previous, m["games"], seed + 7)
    log(f"generation {gen}: against the previous best {score:.3f} (margin {margin:+.2f}, {n} games)")
    if state["best"]:
        plain, plain_margin, _ = match(with_net(player, net), player, m["games"], seed + 11)
    else:
        plain, plain_margin = score, margin
    log(f"generation {gen}: against the plain search {plain:.3f} (margin {plain_margin:+.2f})")
    kept = score >= m["keep_if"]
    state["generations"].append(dict(generation=gen, **figures, vs_previous=score,
                                      vs_previous_margin=margin, vs_plain=plain,
                                      vs_plain_margin=plain_margin, kept=kept, games=n))
    if kept:
        state["best"], state["best_pt"] = net, pt
    save_state(work, state)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("command", choices=["loop"])
    ap.add_argument("settings")
    ap.add_argument("--work", help="the work folder (default: the settings' \"work\")")
    ap.add_argument("--generations", type=int, help="stop after this many (default: the settings')")
    args = ap.parse_args()
    with open(args.settings) as f:
        settings = json.load(f)
    torch.set_num_threads(settings.get("torch_threads", 1))
    work = args.work or settings["work"]
    os.makedirs(work, exist_ok=True)
    state = load_state(work)
    total = args.generations or settings["generations"]
    for gen in range(len(state["generations"]), total):
        generation(settings, work, state, gen)
    if state["best"]:
        log(f"best network: {state['best']}")
    else:
        log("no network beat the plain search")


if __name__ == "__main__":
    main()
