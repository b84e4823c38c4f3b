"""ArrayPlanner: what-if planner for storage array operations."""
from importlib import metadata as _metadata

try:
    __version__ = _metadata.version("arrayplanner")
except _metadata.PackageNotFoundError:  # running from a source tree or a frozen bundle
    from ._version import VERSION as __version__  # noqa: F401
