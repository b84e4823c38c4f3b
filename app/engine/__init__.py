"""The embedded model: Project -> Result (pure Python + numpy, no Qt, no I/O).

    from app.engine import simulate
    result = simulate(project, catalog, scenario_name=None)

The hot modules run compiled by mypyc when a fresh build exists (app/engine/native.py);
ENGINE_BUILD says which engine this process runs ("mypyc", or "python (<why>)").
"""
from . import native

# first: the compiled modules must be on __path__ before anything imports .simulate or .ops
ENGINE_BUILD = native.activate(__path__)

from .result import RESULT_FORMAT_VERSION, Result  # noqa: E402
from .simulate import simulate  # noqa: E402

__all__ = ["simulate", "Result", "RESULT_FORMAT_VERSION", "ENGINE_BUILD"]
