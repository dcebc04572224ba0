"""The guides' site build: the links it follows, and a broken link or missing page failing it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tools import build_docs


def test_links_are_read_from_prose_not_from_code() -> None:
    text = (
        "See [the guide](docs/staff.md#faults) and ![pic](a.png).\n"
        '<img src="b.png" alt="b">\n'
        "`[not](a-link.md)` and [web](https://example.org/x.md)\n"
        "```\n[inside](a-fence.md)\n```\n"
    )
    assert build_docs.links(text) == ["docs/staff.md", "a.png", "b.png"]


def staged_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, page: str) -> Path:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "guide.md").write_text(page, encoding="utf-8")
    (tmp_path / "docs" / "pic.png").write_bytes(b"png")
    monkeypatch.setattr(build_docs, "REPO", tmp_path)
    monkeypatch.setattr(build_docs, "STAGING", tmp_path / "build" / "site-src")
    monkeypatch.setattr(build_docs, "PAGES", ("docs/guide.md",))
    monkeypatch.setattr(build_docs, "PAGE_GLOBS", ())
    return tmp_path


def test_a_page_and_the_files_it_links_to_are_laid_out_at_their_paths(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = staged_repo(tmp_path, monkeypatch, "![a picture](pic.png)\n")
    assert build_docs.stage() == []
    assert (repo / "build" / "site-src" / "docs" / "pic.png").read_bytes() == b"png"


def test_a_broken_link_and_a_missing_page_are_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    staged_repo(tmp_path, monkeypatch, "[gone](missing.md) and [out](../../etc/passwd)\n")
    monkeypatch.setattr(build_docs, "PAGES", ("docs/guide.md", "docs/absent.md"))
    assert build_docs.stage() == [
        "docs/absent.md: the page is missing",
        "docs/guide.md: broken link to missing.md",
        "docs/guide.md: broken link to ../../etc/passwd",
    ]


def test_the_repository_s_guides_have_no_broken_link() -> None:
    assert build_docs.stage() == []


def test_a_link_to_a_folder_keeps_its_text_on_the_site(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = staged_repo(tmp_path, monkeypatch, "Everything in [`cut/`](cut/) is generated.\n")
    (repo / "docs" / "cut").mkdir()
    assert build_docs.stage() == []
    staged = (repo / "build" / "site-src" / "docs" / "guide.md").read_text(encoding="utf-8")
    assert staged == "Everything in `cut/` is generated.\n"
