"""The bot server beside flooding clients: a good client's decision latency, alone and beside.

    .venv/bin/python benchmarks/server_latency.py                  # 4 flooders, 10 s per row
    .venv/bin/python benchmarks/server_latency.py --seconds 3 --flooders 2 --sizes 262144

Each row starts ``eights serve`` (heuristic, crazy_eights) in a process of its
own, with ``--max-message-bytes`` at least the row's flood size. A good
client, in this process, sends 200 real decides one at a time (its latency
*alone*), then ``--flooders`` clients in a third process, niced as clients on
other machines would be, send valid decides of the row's size as fast as the
server reads them, while the good client goes on for ``--seconds`` (its
latency *beside* the flood). The row also gives how long one flood decide
takes the server alone. Rows: 1 MiB (the old default limit, the attack the
server was hardened against) and 256 KiB (the largest valid decide at the
default limit).

tests/protocol/test_server_attacks.py runs the same attacks and checks only
that every decision is answered: a latency is a figure of the machine it
runs on, so it is reported here, not asserted there.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # tests.protocol.attacks

from eights.protocol.server import ServerLimits
from tests.protocol.attacks import measure, serve_process

#: the flood sizes measured by default: the old default limit and the current one
SIZES = (1 << 20, ServerLimits().max_message_bytes)


def row(size: int, flooders: int, seconds: float) -> dict:
    """One flood size's figures, from a server of its own."""
    limit = max(size, ServerLimits().max_message_bytes)
    with serve_process("--max-message-bytes", str(limit)) as url:
        alone, busy, flood_alone = measure(url, flooders, seconds, size)
    return {"size": size, "flooders": flooders, "alone_p50": alone.p50, "alone_p99": alone.p99,
            "busy_p50": busy.p50, "busy_p99": busy.p99, "decisions": len(busy.samples),
            "flood_decide_ms": flood_alone * 1000}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--flooders", type=int, default=4, help="flooding clients (default 4)")
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="seconds the good client plays beside each flood (default 10)")
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES),
                        help="bytes of each flood decide (default: 1 MiB and 256 KiB)")
    args = parser.parse_args(argv)
    if args.flooders < 1 or args.seconds <= 0 or min(args.sizes) < 1024:
        parser.error("--flooders must be at least 1, --seconds above 0 and every size at "
                     "least 1024 bytes")
    rows = [row(size, args.flooders, args.seconds) for size in args.sizes]
    table = Table(title=f"a good client's decisions beside {args.flooders} clients flooding "
                        f"valid decides (heuristic, crazy_eights; ms)")
    for col in ("flood", "alone p50", "alone p99", "beside p50", "beside p99", "decisions",
                "1 flood decide"):
        table.add_column(col, justify="right")
    for r in rows:
        table.add_row(f"{r['size'] // 1024:,} KiB", f"{r['alone_p50']:.1f}",
                      f"{r['alone_p99']:.1f}", f"{r['busy_p50']:.1f}", f"{r['busy_p99']:.1f}",
                      f"{r['decisions']:,}", f"{r['flood_decide_ms']:.0f}")
    Console().print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
