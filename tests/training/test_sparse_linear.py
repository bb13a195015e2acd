"""``SparseInputLinear``: a first layer from the nonzero inputs, the same numbers."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from eights.training import sparse_linear
from eights.training.products import FastLinear
from eights.training.sparse_linear import (
    SparseInputLinear,
    dense_above,
    sparse_first_layers,
    sparse_rows,
)


def _batch(rows, inputs, density, seed=0):
    generator = torch.Generator().manual_seed(seed)
    keep = torch.rand(rows, inputs, generator=generator) < density
    return torch.where(keep, torch.randn(rows, inputs, generator=generator), 0.0)


def _layers(inputs=60, outputs=24):
    torch.manual_seed(0)
    plain = nn.Linear(inputs, outputs)
    return plain, SparseInputLinear.replacing(plain)


def _run(layer, x):
    layer.zero_grad()
    out = layer(x)
    out.backward(torch.linspace(-1, 1, out.numel()).reshape(out.shape))
    return out.detach(), layer.weight.grad.clone(), layer.bias.grad.clone()


@pytest.mark.parametrize("density", [0.0, 0.05, 0.13])
def test_a_sparse_batch_gives_nn_linears_values_and_gradients(density, monkeypatch):
    plain, sparse = _layers()
    x = _batch(512, 60, density)
    taken = []
    real = sparse_linear._SparseInputProduct.apply
    monkeypatch.setattr(sparse_linear._SparseInputProduct, "apply",
                        lambda *a: taken.append(1) or real(*a))
    expected = _run(plain, x)
    got = _run(sparse, x)
    assert taken, "the sparse products were not used"
    for g, e in zip(got, expected, strict=True):
        torch.testing.assert_close(g, e, rtol=1e-5, atol=1e-5)


def test_a_dense_batch_or_one_that_needs_its_gradient_takes_the_dense_path(monkeypatch):
    monkeypatch.setattr(sparse_linear._SparseInputProduct, "apply",
                        lambda *a: pytest.fail("the sparse products were used"))
    plain, sparse = _layers()
    dense = _batch(64, 60, 0.9)
    assert sparse_rows(dense) is None
    for g, e in zip(_run(sparse, dense), _run(plain, dense), strict=True):
        torch.testing.assert_close(g, e, rtol=1e-5, atol=1e-5)
    x = _batch(64, 60, 0.05).requires_grad_()
    sparse(x).sum().backward()
    torch.testing.assert_close(x.grad, plain.weight.sum(0).expand(64, 60).detach())


def test_the_density_rule():
    assert dense_above() in sparse_linear.DENSE_ABOVE.values()
    assert sparse_rows(_batch(8, 100, dense_above() / 2)) is not None
    assert sparse_rows(_batch(8, 100, 1.0)) is None
    assert sparse_rows(_batch(8, 100, 0.01).double()) is None
    assert sparse_rows(torch.zeros(100)) is None


def test_only_first_layers_change_and_parameters_stay():
    actor = nn.Sequential(nn.Linear(10, 4), nn.Tanh(), nn.Linear(4, 4))
    critic = nn.Sequential(FastLinear(10, 4), nn.Tanh())
    other = nn.Sequential(nn.Tanh())
    parameters = [list(net.parameters()) for net in (actor, critic)]
    sparse_first_layers(actor, critic, other)
    assert type(actor[0]) is SparseInputLinear and type(actor[2]) is nn.Linear
    assert type(critic[0]) is SparseInputLinear and type(other[0]) is nn.Tanh
    assert [list(net.parameters()) for net in (actor, critic)] == parameters
