"""Packaging: the wheel a release would upload, the Python floor, ``python -m eights``.

``eights`` is installed from the repository, not from the package index, so a
release is one ``python -m build`` away; the wheel must hold what the code
loads at run time (the shipped models, the protocol's schema, the card files)
and the PEP 561 marker. The Python floor is stated in four places that a user
meets in turn (pyproject, the Makefile's search and its error, the README)
and ruff's target; they must agree.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import eights

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
#: the floor, as pyproject states it: ">=3.11" -> (3, 11)
FLOOR = tuple(int(x) for x in re.fullmatch(
    r">=(\d+)\.(\d+)", PYPROJECT["project"]["requires-python"]).groups())


def test_the_python_floor_is_the_same_everywhere() -> None:
    major, minor = FLOOR
    assert FLOOR >= (3, 11), "eights/engines/crazier_cards.py imports tomllib (3.11)"
    assert PYPROJECT["tool"]["ruff"]["target-version"] == f"py{major}{minor}"
    makefile = (ROOT / "Makefile").read_text()
    assert f"sys.version_info < ({major}, {minor})" in makefile
    assert f"no Python {major}.{minor} or newer on PATH" in makefile
    searched = re.search(r"for p in ([\w. ]+); do", makefile).group(1).split()
    assert all(int(p.removeprefix("python3.")) >= minor for p in searched if "." in p)
    assert f"Python {major}.{minor} or newer" in (ROOT / "README.md").read_text()


def test_python_m_eights_is_the_command() -> None:
    done = subprocess.run([sys.executable, "-m", "eights", "--version"], capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"eights {eights.__version__}"


def test_the_wheel_holds_the_package_data(tmp_path: Path) -> None:
    # build from a copy, so the checkout gets no build/ or egg-info of the test's making;
    # without isolation, so the venv's setuptools builds it and no index is needed
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "eights", source / "eights",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "build"))
    done = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir",
         str(tmp_path / "dist"), str(source)],
        capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    (wheel,) = (tmp_path / "dist").glob("eights-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = {p.relative_to(ROOT).as_posix() for pattern in
               ("eights/models/*.npz", "eights/data/*.toml", "eights/envs/layouts/*.json")
               for p in ROOT.glob(pattern)}
    assert shipped, "the checkout ships no models or card files"
    expected = shipped | {"eights/protocol/schema.json", "eights/py.typed",
                          "eights/__main__.py"}
    assert expected <= names, f"missing from the wheel: {sorted(expected - names)}"
    metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
    major, minor = FLOOR
    assert (f"Requires-Python: >={major}.{minor}"
            in zipfile.ZipFile(wheel).read(metadata).decode())


def test_no_doc_installs_eights_from_the_package_index() -> None:
    # `pip install "eights[train]"` fails for a new user: eights is installed from the repository
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    index = re.compile(r"pip install [\"']?eights\b")
    offenders = [f"{doc.relative_to(ROOT)}:{n}" for doc in docs
                 for n, line in enumerate(doc.read_text().splitlines(), 1) if index.search(line)]
    assert not offenders, offenders
    assert "## Installing elsewhere" in (ROOT / "README.md").read_text()
