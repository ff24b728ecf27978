"""A clone is self-contained: no file in the repository reads, or cites as its source, a file
that lives outside it. (A newcomer clones the repository alone; whatever sat beside it on the
machine it was written on is not there.)"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

# Reading the reference folder beside the repository, by a relative or an absolute path, or by
# joining a "shared" path component onto a parent of this checkout.
READS_OUTSIDE = re.compile(r"\.\./shared|/work/shared|/\s*[\"']shared[\"']")
# Citing a rule or a format by a file of that folder instead of by its public name.
CITES_OUTSIDE = re.compile(r"\bseeds/|\bDESIGN\.md\b|\breference/[\w-]+\.md\b")


def tracked_text_files() -> dict[str, str]:
    names = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True,
                           check=True).stdout.decode().split("\0")
    texts = {}
    for name in filter(None, names):
        data = (REPO / name).read_bytes() if (REPO / name).is_file() else b""
        if b"\0" not in data:
            texts[name] = data.decode("utf-8", errors="replace")
    return texts


def offenders(pattern: re.Pattern[str]) -> list[str]:
    this = Path(__file__).relative_to(REPO).as_posix()
    return [f"{name}:{text.count(chr(10), 0, match.start()) + 1}: {match.group(0)}"
            for name, text in tracked_text_files().items() if name != this
            for match in pattern.finditer(text)]


def test_no_file_reads_the_reference_folder_beside_the_repository() -> None:
    assert offenders(READS_OUTSIDE) == []


def test_rules_and_formats_are_cited_by_public_name_not_by_an_outside_file() -> None:
    assert offenders(CITES_OUTSIDE) == []


def test_the_checks_see_a_read_and_a_citation_when_there_is_one() -> None:
    assert READS_OUTSIDE.search('Path(__file__).parents[3] / "shared" / "fixtures"')
    assert READS_OUTSIDE.search("open('../shared/seeds/x.txt')")
    assert CITES_OUTSIDE.search("Source: seeds/bridge-laws-6-to-8.txt")
    assert not READS_OUTSIDE.search("fixtures shared by every area's tests")
