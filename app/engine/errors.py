"""The engine's own exceptions. A module of their own: the compiled engine (scripts/build_native.py)
cannot compile a class that inherits from a built-in exception other than Exception, so they stay
plain Python."""


class EngineStall(RuntimeError):
    """The event loop stopped advancing time (a bug in an operation's bookkeeping)."""


class PlanTooLarge(ValueError):
    """The scenario has more events than the engine simulates (app.domain.limits.MAX_EVENTS)."""


class MissingRate(KeyError):
    """The preset has no value the engine needs for this case (app.engine.rates raises it)."""
