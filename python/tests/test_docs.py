"""docs/python.md's walkthrough: every ```python block runs, in order, in one namespace, from the repository's root."""

import os
import re

from conftest import ROOT


def test_walkthrough_runs(capsys):
    text = (ROOT / "docs" / "python.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 5
    namespace = {}
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        for block in blocks:
            exec(compile(block, "docs/python.md", "exec"), namespace)
    finally:
        os.chdir(here)
    printed = capsys.readouterr().out
    assert "(64, 9600) 160.0" in printed and "EXG6 [(3, 7," in printed
    assert 'axon_analyze: no channel "Oz"' in printed
    assert namespace["raw"].ch_names == ["T3", "O1", "T4", "O2"]
    assert namespace["indicators"]["z_scores"][-1][0] > 0  # theta up after the alpha baseline
