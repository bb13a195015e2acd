"""Round-robin tournaments between agents."""

from .roundrobin import AgentResult, RoundRobinResult, round_robin, schedule

__all__ = ["AgentResult", "RoundRobinResult", "round_robin", "schedule"]
