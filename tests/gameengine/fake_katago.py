"""A fake KataGo for the tests: its analysis engine's JSON and its GTP, answered at once.

    python tests/gameengine/fake_katago.py analysis|gtp [--log FILE] [--die-after N MARKER]
                                            [--genmove ANSWER] [--second-worse POINTS]
                                            [other arguments]

``analysis``: each query line (logged to FILE as it came) is answered for each of its
``analyzeTurns``, in order, as KataGo answers: ``rootInfo`` (``scoreLead``: stones Black
placed minus stones White placed in the moves before that turn, minus komi, from Black's
side; ``winrate`` 0.5 + lead / 100; ``currentPlayer``), and with ``maxVisits`` above 1
``moveInfos`` (the best move: the first empty point in reading order, its line the
next two empty points; then the second empty point, its lead ``--second-worse`` points
worse for the side to move, default 4) or else ``policy`` (1 on that point).
``terminate_all`` is echoed.
A query with ``"komi": 99`` is refused as KataGo refuses a bad field. With
``--die-after N MARKER`` the process exits (code 3) after its Nth answer when the file
MARKER does not exist yet, creating it: only the first engine of a test dies.

``gtp``: every command is answered ``=``; ``genmove`` with ANSWER, or else the first empty
point in reading order (the plays are tracked); ``kata-raw-nn`` with a policy as KataGo
prints it (rows from the top, ``NAN`` on the stones; the empty points' priors falling in
reading order, the first 0.5, the next 0.25, ...; ``policyPass`` PASS, default 0); ``name``
is ``KataGo``; commands are logged to FILE.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


def point(text: str, size: int) -> tuple[int, int] | None:
    if text.lower() == "pass":
        return None
    return size - int(text[1:]), COLUMNS.index(text[0].upper())


def vertex(where: tuple[int, int], size: int) -> str:
    return f"{COLUMNS[where[1]]}{size - where[0]}"


def empties(taken: set[tuple[int, int]], size: int) -> list[tuple[int, int]]:
    return [(r, c) for r in range(size) for c in range(size) if (r, c) not in taken]


def analysis(options: argparse.Namespace) -> None:
    answered = 0
    for line in sys.stdin:
        if options.log:
            with open(options.log, "a") as log:
                log.write(line)
        query = json.loads(line)
        if "action" in query:
            print(json.dumps(query), flush=True)
            continue
        if query.get("komi") == 99:
            print(json.dumps({"error": "bad komi", "field": "komi", "id": query["id"]}), flush=True)
            continue
        size = query["boardXSize"]
        moves = query["moves"]
        for turn in query.get("analyzeTurns", [len(moves)]):
            played = moves[:turn]
            lead = sum(1 if c == "B" else -1 for c, m in played if m != "pass") - query["komi"]
            taken = {point(m, size) for _, m in [*query.get("initialStones", []), *played]}
            free = empties({p for p in taken if p is not None}, size)
            to_move = "W" if (played and played[-1][0] == "B") else "B"
            if not played:
                to_move = query.get("initialPlayer", "B")
            answer: dict = {
                "id": query["id"],
                "isDuringSearch": False,
                "turnNumber": turn,
                "rootInfo": {
                    "currentPlayer": to_move,
                    "scoreLead": lead,
                    "winrate": min(1.0, max(0.0, 0.5 + lead / 100)),
                    "visits": query.get("maxVisits", 1),
                },
            }
            best = vertex(free[0], size) if free else "pass"
            if query.get("maxVisits", 1) > 1:
                line_ = [vertex(p, size) for p in free[:3]] or ["pass"]
                answer["moveInfos"] = [
                    {"move": best, "order": 0, "pv": line_, "scoreLead": lead, "visits": 1}
                ]
                if len(free) > 1:
                    worse = options.second_worse if to_move == "B" else -options.second_worse
                    second = vertex(free[1], size)
                    other = {"move": second, "order": 1, "pv": [second], "visits": 1}
                    answer["moveInfos"].append({**other, "scoreLead": lead - worse})
            else:
                policy = [0.0] * (size * size + 1)
                policy[free[0][0] * size + free[0][1] if free else size * size] = 1.0
                answer["policy"] = policy
            print(json.dumps(answer), flush=True)
            answered += 1
            if options.die_after and answered >= int(options.die_after[0]):
                marker = Path(options.die_after[1])
                if not marker.exists():
                    marker.touch()
                    sys.stderr.write("fake KataGo died\n")
                    sys.exit(3)


def gtp(options: argparse.Namespace) -> None:
    size = 19
    taken: set[tuple[int, int]] = set()
    for line in sys.stdin:
        if options.log:
            with open(options.log, "a") as log:
                log.write(line)
        name, _, rest = line.strip().partition(" ")
        reply = ""
        if name == "boardsize":
            size = int(rest)
        elif name == "clear_board":
            taken = set()
        elif name == "play":
            where = point(rest.split()[1], size)
            if where is not None:
                taken.add(where)
        elif name == "name":
            reply = "KataGo"
        elif name == "genmove":
            free = empties(taken, size)
            reply = options.genmove or (vertex(free[0], size) if free else "pass")
        elif name == "kata-raw-nn":
            reply = raw_nn(taken, size, options.policy_pass)
        print(f"= {reply}\n", flush=True)
        if name == "quit":
            return


def raw_nn(taken: set[tuple[int, int]], size: int, passing: float) -> str:
    prior = {where: 0.5 ** (n + 1) for n, where in enumerate(empties(taken, size))}
    rows = [
        " ".join(f"{prior[(r, c)]:8.6f}" if (r, c) in prior else "     NAN" for c in range(size))
        for r in range(size)
    ]
    ownership = [" ".join(["0.0"] * size) for _ in range(size)]
    head = ["symmetry 0", "whiteWin 0.5", "whiteLoss 0.5", "policy"]
    return "\n".join([*head, *rows, f"policyPass {passing}", "whiteOwnership", *ownership])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["analysis", "gtp"])
    parser.add_argument("--log")
    parser.add_argument("--die-after", nargs=2)
    parser.add_argument("--genmove")
    parser.add_argument("--policy-pass", type=float, default=0.0)
    parser.add_argument("--second-worse", type=float, default=4.0)
    options, _ = parser.parse_known_args()
    analysis(options) if options.mode == "analysis" else gtp(options)


if __name__ == "__main__":
    main()
