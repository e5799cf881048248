"""Score a run log from Python and print each agent's three scores, best composite first.

python report_api.py sample-runs.jsonl
"""

from __future__ import annotations

import sys

from scoring import build_report, report_to_json


def main(argv: list[str]) -> None:
    path = argv[0] if argv else "sample-runs.jsonl"
    with open(path, "rb") as runs:
        report = build_report(runs)
    data = report_to_json(report)
    print("methodology", data["methodology_version"])
    for agent in data["agents"]:
        composite = agent["composite"]["score"]
        profile = agent["radar"]["profile"]
        once = agent["repeatability"]["pass^1"]
        print(f"{agent['agent_id']:<6} composite={composite} profile={profile} pass^1={once}")


if __name__ == "__main__":
    main(sys.argv[1:])
