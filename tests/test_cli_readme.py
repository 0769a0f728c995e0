"""The README's exit-code table covers every command, and every file it links or shows exists."""

from __future__ import annotations

import re
from pathlib import Path

from croupier.cli import COMMAND_MODULES

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _exit_table() -> str:
    start = README.index("## Exit codes")
    return README[start:README.index("\n## ", start + 1)]


def test_every_command_has_its_exit_codes_in_the_readme() -> None:
    rows = [line for line in _exit_table().splitlines() if line.startswith("| `")]
    named = {name.split()[0] for row in rows for name in re.findall(r"`([^`]+)`",
                                                                      row.split("|")[1])}
    assert sorted({"replay", *COMMAND_MODULES} - named) == []


def test_the_readme_links_only_files_that_exist() -> None:
    targets = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", README) + re.findall(r'src="([^"]+)"',
                                                                              README)
    local = [t for t in targets if "://" not in t]
    assert any(t.startswith("docs/screenshots/") for t in local)
    assert [t for t in local if not (ROOT / t).exists()] == []
