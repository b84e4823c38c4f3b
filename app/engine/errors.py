"""The engine's own exceptions. A module of their own: the compiled engine (scripts/build_native.py)
cannot compile a class that inherits from a built-in exception other than Exception, so they stay
plain Python."""


class EngineStall(RuntimeError):
    """The event loop stopped advancing time (a bug in an operation's bookkeeping)."""


class MissingRate(KeyError):
    """The preset has no value the engine needs for this case (app.engine.rates raises it)."""
