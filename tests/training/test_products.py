"""``eights.training.products``: oneDNN's linear, the same numbers as ``F.linear``."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from eights.config import ConfigError
from eights.training import products
from eights.training.products import (
    FastLinear,
    backend_name,
    linear,
    onednn_enabled,
    swap_linear,
)


@pytest.fixture
def choice(monkeypatch):
    """Set ``EIGHTS_LINEAR`` for one test (the decision is cached per process)."""
    def set_choice(value):
        monkeypatch.setenv("EIGHTS_LINEAR", value)
        onednn_enabled.cache_clear()
    yield set_choice
    monkeypatch.undo()
    onednn_enabled.cache_clear()


def _tensors(rows=64, inputs=48, outputs=32, seed=0):
    generator = torch.Generator().manual_seed(seed)
    return (torch.randn(rows, inputs, generator=generator),
            torch.randn(outputs, inputs, generator=generator),
            torch.randn(outputs, generator=generator))


def _values_and_grads(function, x, weight, bias):
    x, weight = x.clone().requires_grad_(), weight.clone().requires_grad_()
    bias = None if bias is None else bias.clone().requires_grad_()
    out = function(x, weight, bias)
    out.backward(torch.linspace(-1, 1, out.numel()).reshape(out.shape))
    return out.detach(), x.grad, weight.grad, None if bias is None else bias.grad


@pytest.mark.parametrize("with_bias", [True, False])
@pytest.mark.parametrize("layout", ["contiguous", "transposed", "sliced"])
def test_values_and_gradients_are_f_linears(with_bias, layout):
    x, weight, bias = _tensors()
    if layout == "transposed":  # a strided input (as the backward pass gives it)
        x = x.t().contiguous().t()
    if layout == "sliced":  # the first columns of a wider input (a privileged critic's)
        x = torch.cat([x, x[:, :9]], dim=1)[:, :x.shape[1]]
    expected = _values_and_grads(F.linear, x, weight, bias if with_bias else None)
    got = _values_and_grads(linear, x, weight, bias if with_bias else None)
    for g, e in zip(got, expected, strict=True):
        assert (g is None) == (e is None)
        if e is not None:
            torch.testing.assert_close(g, e, rtol=1e-5, atol=1e-5)


def test_where_onednn_works_it_computes_forward_and_both_gradients(monkeypatch):
    if not onednn_enabled():
        pytest.skip("this torch build has no working oneDNN linear")
    calls = []
    real = products._onednn
    monkeypatch.setattr(products, "_onednn", lambda *a: calls.append(a) or real(*a))
    _values_and_grads(linear, *_tensors())
    assert len(calls) == 3  # the output, the input's gradient, the weight's


def test_onednn_gets_dense_tensors_from_a_sliced_input(monkeypatch):
    """The policy's part of a privileged critic's observation is a slice of it; oneDNN
    took over a second for the weight gradient of such an input read transposed, so
    every tensor it gets is dense: contiguous or the transpose of a contiguous one."""
    if not onednn_enabled():
        pytest.skip("this torch build has no working oneDNN linear")
    x, weight, bias = _tensors()
    wide = torch.cat([x, x[:, :20]], dim=1)
    calls = []
    real = products._onednn
    monkeypatch.setattr(products, "_onednn", lambda *a: calls.append(a) or real(*a))
    _values_and_grads(lambda x, w, b: linear(x[:, :48], w, b), wide, weight, bias)
    assert len(calls) == 3
    for args in calls:
        for tensor in args[:2]:
            assert tensor.is_contiguous() or tensor.t().is_contiguous(), tensor.stride()


def test_without_gradients_it_is_the_same_function():
    x, weight, bias = _tensors(rows=3)
    with torch.no_grad():
        torch.testing.assert_close(linear(x, weight, bias), F.linear(x, weight, bias),
                                   rtol=1e-5, atol=1e-5)


def test_what_onednn_does_not_take_goes_to_f_linear(monkeypatch):
    called = []
    monkeypatch.setattr(products, "_onednn", lambda *a: called.append(a))
    x, weight, bias = (t.double() for t in _tensors())
    assert torch.equal(linear(x, weight, bias), F.linear(x, weight, bias))  # float64
    assert torch.equal(linear(x[0].float(), weight.float(), bias.float()),  # 1-d
                       F.linear(x[0].float(), weight.float(), bias.float()))
    assert not called


def test_eights_linear_torch_turns_it_off(choice, monkeypatch):
    choice("torch")
    assert not onednn_enabled()
    monkeypatch.setattr(products, "_onednn", lambda *a: pytest.fail("oneDNN was called"))
    x, weight, bias = _tensors()
    assert torch.equal(linear(x, weight, bias), F.linear(x, weight, bias))


def test_eights_linear_onednn_insists(choice, monkeypatch):
    choice("onednn")
    monkeypatch.setattr(torch.backends.mkldnn, "is_available", lambda: False)
    with pytest.raises(ConfigError, match="EIGHTS_LINEAR=onednn, but this torch build"):
        onednn_enabled()


def test_a_probe_that_disagrees_turns_it_off(choice, monkeypatch):
    choice("auto")
    monkeypatch.setattr(products, "_onednn", lambda x, w, b: F.linear(x, w, b) + 1)
    assert not onednn_enabled()


def test_the_log_names_the_kernels(choice, monkeypatch):
    choice("torch")
    assert backend_name() == "torch's own kernels"
    choice("auto")  # a probe that agrees (as F.linear itself does) turns oneDNN on
    monkeypatch.setattr(torch.backends.mkldnn, "is_available", lambda: True)
    monkeypatch.setattr(products, "_onednn", F.linear)
    assert backend_name() == "oneDNN"


def test_an_unknown_choice_is_named(choice):
    choice("mkl")
    with pytest.raises(ConfigError, match="EIGHTS_LINEAR='mkl'; give one of auto, torch"):
        onednn_enabled()


def test_a_fast_linear_is_the_layer_it_replaces():
    layer = nn.Linear(12, 5)
    fast = FastLinear.replacing(layer)
    assert isinstance(fast, nn.Linear)
    assert fast.weight is layer.weight and fast.bias is layer.bias
    assert list(fast.state_dict()) == list(layer.state_dict())
    assert repr(fast).endswith("(in_features=12, out_features=5, bias=True)")
    x = torch.randn(4, 12)
    torch.testing.assert_close(fast(x), layer(x), rtol=1e-5, atol=1e-6)


def test_swap_linear_replaces_every_plain_linear_in_place():
    net = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Sequential(nn.Linear(8, 8)),
                        FastLinear(8, 2))
    parameters = list(net.parameters())
    assert swap_linear(net) == 2
    assert [type(m) for m in net.modules() if isinstance(m, nn.Linear)] == [FastLinear] * 3
    assert list(net.parameters()) == parameters
