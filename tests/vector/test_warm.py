"""``python -m eights.vector.warm``: every kernel compiled (or loaded) ahead of use."""

from __future__ import annotations

import io

import pytest

from eights.config import ConfigError
from eights.vector import choices, search, warm


def test_warming_a_variant_leaves_its_search_and_core_ready_in_this_process():
    out = io.StringIO()
    cpu = warm.warm(["crazy_eights"], jobs=1, out=out)
    assert cpu > 0
    assert out.getvalue().startswith("eights.vector.warm: crazy_eights: ")
    assert search.iterate.signatures, "the compiled search was not compiled or loaded"
    assert choices.model_deals.signatures, "the opponent model's chain was not compiled"


def test_several_variants_warm_in_processes_of_their_own_one_line_each():
    out = io.StringIO()
    warm.warm(["livery_eights", "crazy_eights"], jobs=2, out=out)
    lines = sorted(out.getvalue().splitlines())
    assert [line.split(":")[1].strip() for line in lines] == ["crazy_eights", "livery_eights"]


def test_every_compiled_variant_has_a_place_in_the_order():
    from eights.vector.cores import COMPILED

    assert set(warm.SLOWEST_FIRST) == set(COMPILED)


@pytest.mark.parametrize("variants, jobs, says", [
    (["crazy_eights", "uno"], 1, "no compiled core for 'uno'; the compiled variants are"),
    (["crazy_eights"], 0, "--jobs is 0; give 1 or more"),
])
def test_bad_input_is_refused_naming_what_is_allowed(variants, jobs, says):
    with pytest.raises(ConfigError, match=says):
        warm.warm(variants, jobs)


def test_the_command_line_refuses_an_unknown_variant_with_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exit_:
        warm.main(["--variants", "crazy_eights,nope"])
    assert exit_.value.code == 2
    assert "no compiled core for 'nope'" in capsys.readouterr().err
