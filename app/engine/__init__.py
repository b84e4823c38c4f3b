"""The embedded model: Project -> Result (pure Python + numpy, no Qt, no I/O).

    from app.engine import simulate
    result = simulate(project, catalog, scenario_name=None)
"""
from .result import RESULT_FORMAT_VERSION, Result
from .simulate import simulate

__all__ = ["simulate", "Result", "RESULT_FORMAT_VERSION"]
