"""Training: a single-agent Gymnasium wrapper, opponent pools, MaskablePPO self-play.

The wrapper and pools need only the core install; :func:`train` needs the
``train`` extra (torch, stable-baselines3, sb3-contrib, matplotlib).
"""

from .evaluate import Evaluation, evaluate
from .opponents import OpponentPool
from .single_agent import SingleAgentEnv

__all__ = ["Evaluation", "OpponentPool", "SingleAgentEnv", "evaluate"]
