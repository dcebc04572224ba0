"""Build the guides as one MkDocs site (`make docs`), failing on a broken link or a missing page.

The guides live where a reader of the repository finds them (`README.md`, `docs/*.md`, the
builders' guide in `hardware/README.md`) and link to files of the repository by relative paths.
MkDocs wants every page and picture under one folder, so this lays out a copy of the repository's
shape under `build/site-src`: the pages, and every file they link to at the same path. A relative
link therefore means the same thing on the site as in the repository, and a link to a file that
does not exist is reported here by page and target before MkDocs runs in strict mode (which
fails on any warning: an unknown anchor). A page reached only through a link (a generated
list of the builders' guide) is part of the site without a place in the navigation; a link to a
folder keeps its text and loses its target, as the site has no page for a folder.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

REPO = Path(__file__).resolve().parent.parent
STAGING = REPO / "build" / "site-src"
PAGES = ("README.md", "docs/players.md", "docs/staff.md", "hardware/README.md")
PAGE_GLOBS = ("docs/*.md",)

# Markdown links and images, `[text](target)` and `![alt](target)`, and HTML `src="…"`.
_LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)|\bsrc=\"([^\"]+)\"")
_FENCE = re.compile(r"^(```|~~~)")


def pages() -> list[Path]:
    """Every page of the site, as a path relative to the repository."""
    found = {Path(page) for page in PAGES}
    for pattern in PAGE_GLOBS:
        found.update(path.relative_to(REPO) for path in REPO.glob(pattern))
    return sorted(found)


def links(text: str) -> list[str]:
    """The relative targets a page links to, outside code blocks and code spans."""
    targets: list[str] = []
    fenced = False
    for line in text.splitlines():
        if _FENCE.match(line.lstrip()):
            fenced = not fenced
            continue
        if fenced:
            continue
        prose = re.sub(r"`[^`]*`", "", line)
        for match in _LINK.finditer(prose):
            target = match.group(1) or match.group(2)
            parts = urlsplit(target)
            if parts.scheme or parts.netloc or not parts.path:
                continue
            targets.append(unquote(parts.path))
    return targets


def stage() -> list[str]:
    """Lay out the site's sources; return one line per link to a file that does not exist."""
    shutil.rmtree(STAGING, ignore_errors=True)
    problems: list[str] = []
    every_page = pages()
    for page in every_page:
        source = REPO / page
        if not source.is_file():
            problems.append(f"{page}: the page is missing")
            continue
        text = source.read_text(encoding="utf-8")
        for target in links(text):
            linked = (source.parent / target).resolve()
            if not linked.is_relative_to(REPO) or not linked.exists():
                problems.append(f"{page}: broken link to {target}")
            elif linked.is_dir():
                # A folder is a page on GitHub, not on the site: its name stays, as text.
                text = re.sub(rf"\[([^\]]*)\]\(\s*{re.escape(target)}\s*\)", r"\1", text)
            elif linked.relative_to(REPO) not in every_page:  # a page is laid out as one
                copy = STAGING / linked.relative_to(REPO)
                copy.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(linked, copy)
        (STAGING / page).parent.mkdir(parents=True, exist_ok=True)
        (STAGING / page).write_text(text, encoding="utf-8")
    return problems


def main() -> int:
    problems = stage()
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        return 1
    config = str(REPO / "mkdocs.yml")
    build = [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", config]
    return subprocess.run(build, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
