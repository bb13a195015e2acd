"""A trained model as an agent: ``"policy:PATH"``.

Specs:

* ``policy`` — the model shipped in the package for the variant and the
  table size it meets (``eights/models/<variant>-<n>p.npz``);
* ``policy:NAME`` — a shipped model by name (``policy:crazy_eights-2p``);
* ``policy:PATH`` — a checkpoint written by ``eights train`` (``.zip``, needs
  the ``train`` extra to load) or a policy exported from one (``.npz``, needs
  only numpy; ``eights export``);
* a ``?sample`` suffix samples from the policy's distribution instead of
  playing its most likely legal action.

The agent encodes the seat's view with the variant env's own encoder, so it
sees exactly what the learner saw in training, and masks illegal actions.

The network is read once out of the stable-baselines3 zip and evaluated in
numpy: a decision costs about 20 µs that way, encoding included, against
over a millisecond through ``model.predict`` (measured for the shipped
2-player crazy_eights model), which matters in tournaments and for
self-play opponents. Shipped models are
exported ``.npz`` files, so playing them needs neither torch nor
stable-baselines3. A checkpoint made
for another variant or table size is refused with an error that says so.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from ..config import ConfigError, GameConfig
from ..engines.base import PlayerView
from .base import Agent

MODELS_DIR = Path(__file__).resolve().parent.parent / "models"
SAMPLE_SUFFIX = "?sample"


def shipped_models() -> list[str]:
    """Names of the models shipped inside the package."""
    return sorted({p.stem for suffix in ("npz", "zip") for p in MODELS_DIR.glob(f"*.{suffix}")})


def resolve_model(arg: str, variant: str, num_players: int) -> Path:
    """The model file a ``policy`` spec argument names (the shipped one for the table if empty)."""
    names = ", ".join(shipped_models()) or "none"
    if not arg:
        arg = f"{variant}-{num_players}p"
        for suffix in (".npz", ".zip"):
            if (MODELS_DIR / f"{arg}{suffix}").is_file():
                return MODELS_DIR / f"{arg}{suffix}"
        raise ConfigError(
            f"'policy' has no shipped model for {num_players}-player {variant}; shipped "
            f"models: {names}. Train one with `eights train --variant {variant} --players "
            f"{num_players}` and play it as policy:PATH, or use another agent "
            f"(random, greedy, heuristic, ismcts)")
    path = Path(arg).expanduser()
    if path.is_file():
        return path
    for suffix in (".npz", ".zip"):
        shipped = MODELS_DIR / f"{arg}{suffix}"
        if shipped.is_file():
            return shipped
    raise ConfigError(f"policy model {arg!r} is neither a file nor a shipped model; "
                      f"shipped models: {names}")


class NumpyPolicy:
    """The action logits of a stable-baselines3 MLP policy, evaluated in numpy.

    It is made from a loaded policy (:meth:`from_sb3`) or from an exported
    ``.npz`` (:meth:`load`), which needs neither torch nor stable-baselines3.
    """

    ACTIVATIONS = ("tanh", "relu")

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]], activation: str):
        if activation not in self.ACTIVATIONS:
            raise ConfigError(f"activation {activation!r} is not supported; PolicyAgent plays "
                              f"MLP policies with {' or '.join(self.ACTIVATIONS)}")
        self.layers = [(w.astype(np.float32), b.astype(np.float32)) for w, b in layers]
        self.activation = activation

    @classmethod
    def from_sb3(cls, policy: Any) -> NumpyPolicy:
        import torch.nn as nn

        layers, activations = [], set()
        for module in [*policy.mlp_extractor.policy_net, policy.action_net]:
            if isinstance(module, nn.Linear):
                layers.append((module.weight.detach().cpu().numpy().T.copy(),
                               module.bias.detach().cpu().numpy().copy()))
            else:
                activations.add(type(module).__name__.lower())
        if len(activations) > 1:
            raise ConfigError(f"policy mixes activations {sorted(activations)}; PolicyAgent "
                              f"plays MLPs with one activation")
        return cls(layers, activations.pop() if activations else "tanh")

    def save(self, path: str | Path, metadata: dict[str, Any]) -> Path:
        """Write the weights and ``metadata`` as one ``.npz`` (a few hundred kB)."""
        import json

        arrays: dict[str, np.ndarray] = {}
        for k, (w, b) in enumerate(self.layers):
            arrays[f"w{k}"], arrays[f"b{k}"] = w, b
        meta = dict(metadata, activation=self.activation, layers=len(self.layers))
        path = Path(path)
        with open(path, "wb") as handle:  # a handle: numpy would append .npz to the name
            np.savez_compressed(handle, metadata=np.array(json.dumps(meta, sort_keys=True)),
                                **arrays)
        return path

    @classmethod
    def load(cls, path: str | Path) -> tuple[NumpyPolicy, dict[str, Any]]:
        import json

        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["metadata"]))
                layers = [(data[f"w{k}"], data[f"b{k}"]) for k in range(meta["layers"])]
        except (OSError, KeyError, ValueError) as err:
            raise ConfigError(f"{str(path)!r} is not an exported eights policy ({err})") from None
        return cls(layers, meta["activation"]), meta

    def logits(self, obs: np.ndarray) -> np.ndarray:
        x = obs
        last = len(self.layers) - 1
        for k, (weight, bias) in enumerate(self.layers):
            x = x @ weight + bias
            if k < last:
                x = np.tanh(x) if self.activation == "tanh" else np.maximum(x, 0.0)
        return x


class PolicyAgent(Agent):
    """Plays a trained checkpoint; see the module docstring."""

    def __init__(self, variant: str, arg: str = "", seed: int | None = None):
        super().__init__(seed)
        self.variant = variant
        self.sample = arg.endswith(SAMPLE_SUFFIX)
        self.model_arg = arg[: -len(SAMPLE_SUFFIX)] if self.sample else arg
        self.name = f"policy:{arg}" if arg else "policy"
        self._loaded_for: int | None = None
        self._net: NumpyPolicy | None = None
        self.metadata: dict[str, Any] = {}
        self._encoder: Any = None
        self._encoder_config: Any = None
        if self.model_arg:  # an explicit model loads (and fails) now, not mid-game
            self._load(resolve_model(self.model_arg, variant, 0))

    def _load(self, path: Path) -> None:
        if path.suffix == ".npz":
            net, meta = NumpyPolicy.load(path)
        else:
            from ..training.checkpoints import load_model, read_metadata

            meta = read_metadata(path)
            net = NumpyPolicy.from_sb3(load_model(path).policy)
        if meta.get("variant") != self.variant:
            raise ConfigError(f"model {str(path)!r} was trained for {meta.get('variant')!r}, "
                              f"not {self.variant!r}")
        self.metadata = meta
        self.path = path
        self._net = net
        self._loaded_for = meta["config"]["num_players"]

    def check_table(self, config: GameConfig) -> None:
        """Load the model for this table now and refuse a table it was not trained for."""
        n = config.num_players
        if self._net is None:
            self._load(resolve_model(self.model_arg, self.variant, n))
        if n != self._loaded_for:
            raise ConfigError(f"model {str(self.path)!r} plays {self._loaded_for}-player "
                              f"{self.variant}, not {n} players")
        if config is not self._encoder_config:
            from ..envs import env_module

            encoder = env_module(self.variant).encoder(config)
            if encoder.size != self.metadata["observation_size"]:
                raise ConfigError(
                    f"model {str(self.path)!r} expects {self.metadata['observation_size']} "
                    f"observation features, this game's encoder gives {encoder.size}; the "
                    f"model was trained with config {self.metadata['config']}")
            self._encoder, self._encoder_config = encoder, config

    def _ready(self, view: PlayerView) -> None:
        """The model and encoder for the view's table (checked once per config)."""
        if view.config is not self._encoder_config:
            self.check_table(view.config)

    def action_probabilities(self, view: PlayerView) -> np.ndarray:
        """The policy's distribution over all actions, zero on illegal ones."""
        self._ready(view)
        logits = self._net.logits(self._encoder.encode(view)).astype(np.float64)
        legal = list(view.legal_actions)
        probs = np.zeros_like(logits)
        z = logits[legal] - logits[legal].max()
        e = np.exp(z)
        probs[legal] = e / e.sum()
        return probs

    def act(self, view: PlayerView) -> int:
        self._ready(view)  # first, so a wrong table fails at once, not at the first choice
        legal = view.legal_actions
        if len(legal) == 1:
            return legal[0]
        if not self.sample:
            logits = self._net.logits(self._encoder.encode(view))
            return max(legal, key=lambda a: logits[a])
        probs = self.action_probabilities(view)
        r, acc = self.rng.random(), 0.0
        for a in legal:
            acc += probs[a]
            if r < acc:
                return a
        return legal[-1]


__all__ = ["MODELS_DIR", "NumpyPolicy", "PolicyAgent", "resolve_model", "shipped_models"]
