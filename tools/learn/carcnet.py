"""carcnet.py: the learned player's network in PyTorch and its .carcnet file.

The network has two stacks of dense layers (docs/learning.md): the value
stack reads a position's inputs and estimates its final margin for the
player to move (in units of `value_scale` points); the policy stack reads
one move's inputs and gives its logit. src/ai/net.c runs the same layers in
C from the file that write() makes, byte for byte as docs/learning.md
describes it.
"""
import struct
import zlib

import torch
from torch import nn

import carcassonne

MAGIC = b"CARCNET\0"
VERSION = 1
POSITION_INPUTS = carcassonne.NET_POSITION_INPUTS
MOVE_INPUTS = carcassonne.NET_MOVE_INPUTS
ACT_LINEAR, ACT_RELU = 0, 1


def _stack(inputs, hidden):
    layers, width = [], inputs
    for h in hidden:
        layers += [nn.Linear(width, h), nn.ReLU()]
        width = h
    layers.append(nn.Linear(width, 1))
    return nn.Sequential(*layers)


class Net(nn.Module):
    """value(position inputs) -> margin / value_scale; policy(move inputs) -> logit."""

    def __init__(self, value_hidden=(64, 32), policy_hidden=(64, 32), value_scale=20.0):
        super().__init__()
        self.value_hidden = list(value_hidden)
        self.policy_hidden = list(policy_hidden)
        self.value_scale = float(value_scale)
        self.value = _stack(POSITION_INPUTS, self.value_hidden)
        self.policy = _stack(MOVE_INPUTS, self.policy_hidden)

    def shape(self):
        return {"value_hidden": self.value_hidden, "policy_hidden": self.policy_hidden,
                "value_scale": self.value_scale}


def _layers(stack):
    """(Linear, activation) of each layer of a stack made by _stack()."""
    modules = list(stack)
    out = []
    for i, m in enumerate(modules):
        if isinstance(m, nn.Linear):
            relu = i + 1 < len(modules) and isinstance(modules[i + 1], nn.ReLU)
            out.append((m, ACT_RELU if relu else ACT_LINEAR))
    return out


def to_bytes(net):
    """The .carcnet file of `net`: header, the value stack's layers, the
    policy stack's, then the CRC-32 of everything before it."""
    value, policy = _layers(net.value), _layers(net.policy)
    out = bytearray(MAGIC)
    out += struct.pack("<IIIfII", VERSION, POSITION_INPUTS, MOVE_INPUTS, net.value_scale,
                       len(value), len(policy))
    for linear, act in value + policy:
        w = linear.weight.detach().to(torch.float32).contiguous()
        b = linear.bias.detach().to(torch.float32).contiguous()
        out += struct.pack("<III", w.shape[1], w.shape[0], act)
        out += w.numpy().astype("<f4").tobytes()
        out += b.numpy().astype("<f4").tobytes()
    out += struct.pack("<I", zlib.crc32(bytes(out)))
    return bytes(out)


def write(net, path):
    with open(path, "wb") as f:
        f.write(to_bytes(net))
