"""The documentation a user starts from is in the repository and says what the code does."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_readme_links_the_contract_in_the_repository() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "(docs/transcripts.md)" in readme and "(docs/wagers.md)" in readme
    for doc in (readme, (ROOT / "docs" / "transcripts.md").read_text(encoding="utf-8")):
        assert "shared/" not in doc and "/work/" not in doc


def test_readme_starts_with_the_two_dev_commands() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert lines[3].startswith("./dev run ") and lines[4].startswith("./dev test ")


def test_every_contract_reading_a_refusal_cites_is_on_the_page() -> None:
    """A refusal citing "replay contract: Removal" sends the reader to an item of that name."""
    text = (ROOT / "src" / "croupier" / "rules" / "readings.toml").read_text(encoding="utf-8")
    tomllib.loads(text)  # the real file, well formed
    data = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    cited = {re.sub(r"\s*\(.*\)$", "", name)
             for name in re.findall(r"replay contract: ([^\"\]]+)", data)}
    assert "Removal" in cited  # the file still cites the contract this way
    page = (ROOT / "docs" / "transcripts.md").read_text(encoding="utf-8")
    named = set(re.findall(r"\*\*([^*.]+)\.?\*\*", page)) | set(re.findall(r"^#+ (.+)$", page, re.M))
    assert sorted(cited - named) == []
