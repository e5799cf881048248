"""The engines' test logs are what their tests take them for: the joined odd logs are
valid logs holding every part, byte for byte, and nothing that cannot be joined is."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from engine_logs import ODD_CLEAN_LOGS, WHOLE_FILE_ODDITIES, cli, odd_logs_together, write

JOINABLE = sorted(set(ODD_CLEAN_LOGS) - WHOLE_FILE_ODDITIES)


def _run_ids(data: bytes) -> list[str]:
    text = data.decode("utf-8-sig")
    return [json.loads(line)["run_id"] for line in text.splitlines() if line.strip()]


def test_every_part_in_a_joined_log() -> None:
    joined = odd_logs_together(JOINABLE)
    assert set(joined) == {"escaped", "unescaped"}
    parts = [part for _, kind_parts in joined.values() for part in kind_parts]
    assert len(parts) == len(JOINABLE)
    for kind, (data, kind_parts) in joined.items():
        for part in kind_parts:
            assert part in data
        ids = _run_ids(data)
        assert len(ids) == len(set(ids)) == sum(len(_run_ids(part)) for part in kind_parts)
        assert (b"\\" in data) == (kind == "escaped")


@pytest.mark.parametrize("kind", ["escaped", "unescaped"])
def test_a_joined_log_is_valid(tmp_path: Path, kind: str) -> None:
    data, _ = odd_logs_together(JOINABLE)[kind]
    code, out, err = cli(["report", str(write(tmp_path / "odd.jsonl", data)), "--format=json"])
    assert (code, err) == (0, "")
    assert json.loads(out)


@pytest.mark.parametrize("name", sorted(WHOLE_FILE_ODDITIES))
def test_a_whole_file_oddity_is_never_joined(name: str) -> None:
    with pytest.raises(ValueError, match="whole file"):
        odd_logs_together([JOINABLE[0], name])
